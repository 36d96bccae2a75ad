"""The CFSP client: GAME rows columns, then USER moves and two questions for each AI move."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from c4tui.engine import Move, Rules
from c4tui.match.backends.network.base import ServerGame

if TYPE_CHECKING:
    from c4tui.protocols.cfsp import ClientSession
    from c4tui.protocols.registry import ProtocolSpec


class CFSPGame(ServerGame):
    """One CFSP game; an illegal AI move is asked for again, a few times, then refused."""

    key = "cfsp"
    name = "CFSP"
    summary = "ICS 32's later protocol (GAME rows columns): any size, Pop Out rules."
    rules: ClassVar[tuple[Rules, ...]] = (Rules.POPOUT,)  # cfsp.RULES (a test holds them equal)
    session: ClientSession

    @classmethod
    def spec(cls) -> ProtocolSpec:
        """CFSP's framing."""
        from c4tui.protocols import cfsp  # noqa: PLC0415 (loaded once playing)

        return cfsp.SPEC

    async def open(self) -> list[Move]:
        """GAME, answered with START."""
        from c4tui.protocols import cfsp  # noqa: PLC0415

        state = self.start_state
        self.session = cfsp.ClientSession(state.columns, state.rows)
        await self.ask_first(self.session.game_request(), cfsp.GAME, self.session.check_start)
        return []

    async def exchange(self, move: Move) -> list[Move]:
        """USER and RECEIVED; then MOVE and COLUMN until the AI's move is legal here."""
        from c4tui.protocols import cfsp  # noqa: PLC0415
        from c4tui.protocols.common import ProtocolError  # noqa: PLC0415

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
