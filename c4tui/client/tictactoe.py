"""A tic-tac-toe room as a client follows it: the board, whose turn, and how it ended.

The console client and the app both play through ``TicTacToeRoom``: it turns
what the server pushes into ``RoomNews`` (a mark placed, our move refused, the
end) after checking each board against the rules, so a server that sends an
impossible board is caught, not shown.

A server of the handout may send a viewer who joins midway only INPROGRESS
(ours sends the board after it): until a board arrives, ``board`` is None and
the first BOARDSTATUS is taken as it stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.client.link import LobbyLink
from c4tui.net.errors import ProtocolError
from c4tui.net.wire import quote
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.tictactoe import Board, Mark, TicTacToeError


@dataclass(frozen=True)
class Marked:
    """A mark was placed (by either player); ``cell`` is None for a first board seen midway."""

    board: Board
    cell: tuple[int, int] | None
    mark: Mark | None


@dataclass(frozen=True)
class Refused:
    """The server answered our move with the board unchanged: it refused it."""

    board: Board


@dataclass(frozen=True)
class Ended:
    """GAMEEND: ``status`` 0 a win, 1 a draw, 2 a forfeit; ``winner`` "" for a draw."""

    board: Board
    status: int
    winner: str


RoomNews = Marked | Refused | Ended


def end_words(end: Ended, user: str, watching: bool) -> str:
    """How a game ended, for ``user``, in the handout's words.

    A forfeit is put plainly to the two players: the handout's line names the
    winner and would call the one who gave up "the opposing player".
    """
    if end.status == 1:
        return "Game ended in a draw"
    if end.status == 2:
        if not watching and end.winner != user:
            return f"You forfeited: {end.winner} wins."
        winner = "You" if end.winner == user and not watching else end.winner
        return f"{winner} won due to the opposing player forfeiting"
    if watching:
        return f"{end.winner} has won this game"
    if end.winner == user:
        return "Congratulations, you won!"
    return "Sorry you lost. Good luck next time."


class TicTacToeRoom:
    """One room's game from BEGIN (or INPROGRESS) to GAMEEND, as ``link.user`` sees it."""

    def __init__(self, link: LobbyLink, start: ttt_wire.Begin | ttt_wire.InProgress) -> None:
        self.link = link
        if isinstance(start, ttt_wire.Begin):
            self.names = {Mark.X: start.first, Mark.O: start.second}
            self.board: Board | None = Board()
        else:  # who plays X follows from the board, once it comes
            self.names = {Mark.X: start.to_move, Mark.O: start.other}
            self.board = None
        self._in_progress = start if isinstance(start, ttt_wire.InProgress) else None
        self.ended: Ended | None = None
        self._placed: tuple[int, int] | None = None

    @property
    def mine(self) -> Mark | None:
        """The mark we place (None: we watch)."""
        return next((mark for mark, name in self.names.items() if name == self.link.user), None)

    @property
    def to_move(self) -> str:
        """The name of the player whose turn it is ("" until the board is known)."""
        return "" if self.board is None else self.names[self.board.turn]

    @property
    def our_turn(self) -> bool:
        """True when we play and it is our turn."""
        board = self.board
        waiting = self._placed is not None  # for the answer to the mark we sent
        return board is not None and not waiting and not self.ended and board.turn is self.mine

    async def next_news(self) -> RoomNews:
        """What happened next. Raises NetworkError (the server is gone) or ProtocolError."""
        while True:
            message = await self.link.pushed()
            news = self._take(message)
            if news is not None:
                return news

    def _take(self, message: object) -> RoomNews | None:
        if isinstance(message, wire.BoardStatus):
            return self._board(message.cells)
        if isinstance(message, wire.GameEnd):
            self._board(message.cells)  # the last mark comes with the end
            assert self.board is not None
            self.ended = Ended(self.board, message.status, message.winner)
            return self.ended
        if isinstance(message, wire.Notice):
            raise ProtocolError(f"the server says {message.word}")
        raise ProtocolError(f"unexpected in a game: {message!r}")

    def _board(self, cells: str) -> RoomNews | None:
        try:
            after = Board.from_text(cells)
        except TicTacToeError as error:
            raise ProtocolError(f"an impossible board: {error}") from None
        before, placed, self._placed = self.board, self._placed, None
        if before is None:  # a viewer's first board
            self.board = after
            if self._in_progress is not None and after.turn is Mark.O:
                to_move, other = self._in_progress.to_move, self._in_progress.other
                self.names = {Mark.O: to_move, Mark.X: other}
            return Marked(after, None, None)
        if after == before:  # an answer to our move that changed nothing, or a repeat
            return Refused(after) if placed is not None else None
        cell = before.move_to(after)
        if cell is None:
            raise ProtocolError(f"a board no legal move leads to: {quote(cells)}")
        self.board = after
        return Marked(after, cell, before.turn)

    async def place(self, x: int, y: int) -> None:
        """Send our mark for column ``x``, row ``y`` (the server's board answers)."""
        self._placed = (x, y)
        await self.link.send(f"PLACE:{x}:{y}")

    async def forfeit(self) -> None:
        """Give the game up (GAMEEND answers)."""
        await self.link.send("FORFEIT")


async def wait_for_start(link: LobbyLink) -> ttt_wire.Begin | ttt_wire.InProgress:
    """BEGIN or INPROGRESS, whichever comes. Raises NetworkError or ProtocolError."""
    message = await link.pushed()
    if isinstance(message, ttt_wire.Begin | ttt_wire.InProgress):
        return message
    raise ProtocolError(f"expected the game to begin, got {message!r}")
