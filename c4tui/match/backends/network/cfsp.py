"""The CFSP client: GAME rows columns, then USER moves and two questions for each AI move."""

from __future__ import annotations

from typing import ClassVar

from c4tui.engine import Move
from c4tui.match.backends.network.base import CFSP, ClientProtocol
from c4tui.match.backends.network.game import ServerGame
from c4tui.net.errors import ProtocolError
from c4tui.protocols import cfsp
from c4tui.protocols.registry import ProtocolSpec


class CFSPGame(ServerGame):
    """One CFSP game; an illegal AI move is asked for again, a few times, then refused."""

    protocol: ClassVar[ClientProtocol] = CFSP
    spec: ClassVar[ProtocolSpec] = cfsp.SPEC
    session: cfsp.ClientSession

    async def open(self) -> list[Move]:
        """GAME, answered with START."""
        state = self.start_state
        self.session = cfsp.ClientSession(state.columns, state.rows)
        await self.ask_first(self.session.game_request(), cfsp.GAME, self.session.check_start)
        return []

    async def exchange(self, move: Move) -> list[Move]:
        """USER and RECEIVED; then MOVE and COLUMN until the AI's move is legal here."""
        session = self.session
        await self.stream.send(session.send_move(move))
        session.check_received(move, await self.stream.read())
        if session.state.is_over:
            return []
        problems = []
        for _ in range(cfsp.MAX_ASKS):
            await self.stream.send(cfsp.MOVE)
            session.move_kind(await self.stream.read())
            await self.stream.send(cfsp.COLUMN)
            answer = session.move_column(await self.stream.read())
            if isinstance(answer, Move):
                return [answer]
            problems.append(answer)
        raise ProtocolError(
            f"asked {cfsp.MAX_ASKS} times, the server's AI only answered illegal moves: "
            + "; ".join(problems)
        )

    @property
    def over(self) -> bool:
        """True once our board shows the end (CFSP never announces it)."""
        return self.session.state.is_over
