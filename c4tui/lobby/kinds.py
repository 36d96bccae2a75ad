"""What the rooms can hold: Connect Four (the lobby protocol) and tic-tac-toe (INFO1112's).

Each kind's tables adapt its engine's position to the rooms' ``Table`` and say
what its protocol says of a game (the board, the end, a refusal). Where the two
protocols differ most is a refused move: the lobby protocol answers
``INVALID:<reason>``; the handout's has no such word, so a tic-tac-toe server
answers the sender alone with the board as it stands (``BOARDSTATUS``,
unchanged) — its clients read it as "nothing happened", and a client that knows
what it sent can tell its move was refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine import DrawReason, GameState, Move, Player, Rules
from c4tui.lobby.journal import EndReason
from c4tui.lobby.table import Seat
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.tictactoe import Board, Mark

ConnectFourSettings = tuple[int, int, Rules]


@dataclass(frozen=True)
class ConnectFourTable:
    """A Connect Four game in a room: RED sits first."""

    state: GameState

    @property
    def seat_to_move(self) -> Seat:
        """RED's turn is the first seat's."""
        return Seat.FIRST if self.state.turn is Player.RED else Seat.SECOND

    @property
    def is_over(self) -> bool:
        """A win or a draw."""
        return self.state.is_over

    @property
    def winning_seat(self) -> Seat | None:
        """The winner's seat."""
        winner = self.state.winner
        return None if winner is None else Seat.FIRST if winner is Player.RED else Seat.SECOND

    @property
    def end_reason(self) -> EndReason | None:
        """Four in a row, a full board (or no legal move left), or Pop Out's repetition."""
        if self.state.winner is not None:
            return EndReason.FOUR
        if self.state.draw_reason is DrawReason.REPETITION:
            return EndReason.REPETITION
        return None if self.state.draw_reason is None else EndReason.FULL

    def refusal(self, move: Move) -> str | None:
        """The engine's reason to refuse ``move``."""
        return self.state.refusal(move)

    def play(self, move: Move) -> ConnectFourTable:
        """After ``move``."""
        return ConnectFourTable(self.state.play(move))

    def board_status(self) -> str:
        """BOARDSTATUS:<cols*rows digits>."""
        return wire.board_status(self.state)

    def game_end(self, status: int, winner: str | None) -> str:
        """GAMEEND:<cells>:<status>[:<winner>]."""
        return wire.game_end(self.state, status, winner)

    def refused(self, reason: str) -> str:
        """INVALID:<reason>."""
        return wire.invalid(reason)


class ConnectFour:
    """The lobby protocol's rooms (spec/protocols.md §4)."""

    def new_table(self, settings: ConnectFourSettings) -> ConnectFourTable:
        """An empty board of the room's size and rules."""
        return ConnectFourTable(GameState.new(*settings))

    def settings_fields(self, settings: ConnectFourSettings) -> list[str]:
        """``<cols>``, ``<rows>``, ``<rules>``."""
        return wire.game_fields(settings)

    def begin(self, first: str, second: str, settings: ConnectFourSettings) -> str:
        """BEGIN:<red>:<yellow>:<cols>:<rows>:<rules>."""
        return wire.begin(first, second, settings)

    def in_progress(self, to_move: str, other: str, settings: ConnectFourSettings) -> str:
        """INPROGRESS:<to move>:<other>:<cols>:<rows>:<rules>."""
        return wire.in_progress(to_move, other, settings)


@dataclass(frozen=True)
class TicTacToeTable:
    """A tic-tac-toe game in a room: X sits first."""

    board: Board

    @property
    def seat_to_move(self) -> Seat:
        """X's turn is the first seat's."""
        return Seat.FIRST if self.board.turn is Mark.X else Seat.SECOND

    @property
    def is_over(self) -> bool:
        """A line of three, or a full board."""
        return self.board.is_over

    @property
    def winning_seat(self) -> Seat | None:
        """The winner's seat."""
        winner = self.board.winner
        return None if winner is None else Seat.FIRST if winner is Mark.X else Seat.SECOND

    @property
    def end_reason(self) -> EndReason | None:
        """A line of three (``FOUR``, the lobby's word for a line) or a full board."""
        if not self.board.is_over:
            return None
        return EndReason.FULL if self.board.winner is None else EndReason.FOUR

    def refusal(self, move: TicTacToeMove) -> str | None:
        """Why the cell (column, row) may not be marked."""
        return self.board.refusal(*move)

    def play(self, move: TicTacToeMove) -> TicTacToeTable:
        """After marking the cell (column, row)."""
        return TicTacToeTable(self.board.place(*move))

    def board_status(self) -> str:
        """BOARDSTATUS:<nine digits>."""
        return ttt_wire.board_status(self.board)

    def game_end(self, status: int, winner: str | None) -> str:
        """GAMEEND:<nine digits>:<status>[:<winner>]."""
        return ttt_wire.game_end(self.board, status, winner)

    def refused(self, reason: str) -> str:
        """The unchanged board (the handout has no word for a refusal; see the module)."""
        return ttt_wire.board_status(self.board)


#: A tic-tac-toe move: the cell (column, row) to mark.
TicTacToeMove = tuple[int, int]


class TicTacToe:
    """The INFO1112 handout's rooms (no settings: the board is always 3 × 3)."""

    def new_table(self, settings: None) -> TicTacToeTable:
        """An empty board."""
        return TicTacToeTable(Board())

    def settings_fields(self, settings: None) -> list[str]:
        """None: every room plays the same game."""
        return []

    def begin(self, first: str, second: str, settings: None) -> str:
        """BEGIN:<player 1>:<player 2>."""
        return ttt_wire.begin(first, second)

    def in_progress(self, to_move: str, other: str, settings: None) -> str:
        """INPROGRESS:<current turn player>:<opposing player>."""
        return ttt_wire.in_progress(to_move, other)


CONNECT_FOUR = ConnectFour()
TIC_TAC_TOE = TicTacToe()
