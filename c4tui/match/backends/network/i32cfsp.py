"""The I32CFSP client: hello, game request, then DROP/POP and the server's answer and move."""

from __future__ import annotations

from typing import ClassVar

from c4tui.engine import Move
from c4tui.match.backends.network.base import I32CFSP, ClientProtocol
from c4tui.match.backends.network.game import ServerGame
from c4tui.net.errors import ProtocolError
from c4tui.protocols import i32cfsp
from c4tui.protocols.registry import ProtocolSpec


class I32CFSPGame(ServerGame):
    """One I32CFSP game, every answer checked by ``i32cfsp.ClientSession``."""

    protocol: ClassVar[ClientProtocol] = I32CFSP
    spec: ClassVar[ProtocolSpec] = i32cfsp.SPEC
    session: i32cfsp.ClientSession

    async def open(self) -> list[Move]:
        """Hello (checked WELCOME), then the game request (checked READY)."""
        state = self.start_state
        self.session = i32cfsp.ClientSession(self.username, state.columns, state.rows, state.rules)
        await self.ask_first(self.session.hello(), i32cfsp.HELLO, self.session.check_welcome)
        await self.stream.send(self.session.game_request())
        self.session.check_ready(await self.stream.read())
        return []

    async def exchange(self, move: Move) -> list[Move]:
        """Our move; OKAY, the server's move and READY (or the result our board shows)."""
        session = self.session
        await self.stream.send(session.send_move(move))
        answer = session.answer_to_move(move, await self.stream.read())
        if answer == i32cfsp.INVALID:
            raise ProtocolError(f"the server refused {move}, a legal move")
        if answer != i32cfsp.OKAY:
            return []  # our move ended the game, and the server agrees
        reply = session.server_move(await self.stream.read())
        session.after_server_move(await self.stream.read())
        return [reply]

    @property
    def over(self) -> bool:
        """True once our board shows the end."""
        return self.session.state.is_over
