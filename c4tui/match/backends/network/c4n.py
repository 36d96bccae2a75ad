"""The C4N client: START, then MOVE and a BOARD per round, RESULT and the final BOARD at the end."""

from __future__ import annotations

import contextlib
from typing import ClassVar

from c4tui.engine import Move
from c4tui.match.backends.network.base import C4N, ClientProtocol
from c4tui.match.backends.network.game import ServerGame
from c4tui.net.errors import ConnectionClosed, ProtocolError
from c4tui.protocols import c4n
from c4tui.protocols.registry import ProtocolSpec

#: Seconds to wait for the final BOARD after a RESULT (a server may just hang up).
FINAL_BOARD_SECONDS = 2.0


class C4NGame(ServerGame):
    """One C4N game: every BOARD checked against our board, wins judged by our engine."""

    protocol: ClassVar[ClientProtocol] = C4N
    spec: ClassVar[ProtocolSpec] = c4n.SPEC
    session: c4n.ClientSession

    async def open(self) -> list[Move]:
        """START; the first BOARD may already hold the AI's first disc."""
        self.session = c4n.ClientSession()
        await self.ask_first(self.session.start(), self.session.start(), self.session.first_board)
        return self._take_ai_moves()

    async def exchange(self, move: Move) -> list[Move]:
        """MOVE; then the round's BOARD, or RESULT and the final BOARD."""
        session = self.session
        await self.stream.send(session.send_move(move))
        if session.state.is_over:
            return []  # our move ended it: our board says so, whatever the server says
        if session.reply(await self.stream.read()) is c4n.Kind.RESULT:
            await self._final_board()
        return self._take_ai_moves()

    async def _final_board(self) -> None:
        """The BOARD that follows RESULT; a server that hangs up instead is taken at its word.

        A RESULT 1 before our board shows an end is the server giving the game up (a
        ``c4tui serve`` whose program failed): we win, as a player whose opponent left.
        """
        try:
            board = await self.stream.read(FINAL_BOARD_SECONDS)
        except (ConnectionClosed, TimeoutError):
            self.session.confirm_result()
            return
        self.session.final_board(board)

    def _take_ai_moves(self) -> list[Move]:
        moves, self.session.ai_moves = self.session.ai_moves, []
        return moves

    @property
    def over(self) -> bool:
        """True once our board shows the end (a server that misses a win does not matter)."""
        return self.session.state.is_over

    async def leave(self) -> None:
        """STOP, so the server knows the game is over for us."""
        with contextlib.suppress(OSError, TimeoutError, ProtocolError):
            await self.stream.send(self.session.stop())
