"""The I32CFSP client: hello, game request, then DROP/POP and the server's answer and move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.engine import Move
from c4tui.match.backends.network.base import ServerGame

if TYPE_CHECKING:
    from c4tui.protocols.i32cfsp import ClientSession
    from c4tui.protocols.registry import ProtocolSpec


class I32CFSPGame(ServerGame):
    """One I32CFSP game, every answer checked by ``i32cfsp.ClientSession``."""

    key = "i32cfsp"
    name = "I32CFSP"
    summary = "ICS 32's protocol (I32CFSP_HELLO): any size, classic or Pop Out. c4tui serve's own."
    uses_username = True
    session: ClientSession

    @classmethod
    def spec(cls) -> ProtocolSpec:
        """I32CFSP's framing."""
        from c4tui.protocols import i32cfsp  # noqa: PLC0415 (loaded once playing)

        return i32cfsp.SPEC

    async def open(self) -> list[Move]:
        """Hello (checked WELCOME), then the game request (checked READY)."""
        from c4tui.protocols import i32cfsp  # noqa: PLC0415

        state = self.start_state
        self.session = i32cfsp.ClientSession(self.username, state.columns, state.rows, state.rules)
        await self.ask_first(self.session.hello(), i32cfsp.HELLO, self.session.check_welcome)
        await self.stream.send(self.session.game_request())
        self.session.check_ready(await self.stream.read())
        return []

    async def exchange(self, move: Move) -> list[Move]:
        """Our move; OKAY, the server's move and READY (or the result our board shows)."""
        from c4tui.protocols import i32cfsp  # noqa: PLC0415
        from c4tui.protocols.common import ProtocolError  # noqa: PLC0415

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
