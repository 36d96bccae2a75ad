"""Tic-tac-toe's rules as immutable values: the game of the INFO1112 handout.

A board is nine cells read row by row from the top (the order of the handout's
``BOARDSTATUS``); a cell is addressed by its column ``x`` and row ``y`` (0-2,
as in ``PLACE:<x>:<y>``) or by its number 1-9 (``123`` on the top row). X
always moves first, so whose turn it is follows from the board alone: a viewer
who arrives midway, shown only the cells, knows it too.

Nothing is shared with the Connect Four engine: the two games have nothing in
common beyond taking turns, and each stays small by not serving the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from c4tui.numbers import ascii_digits

SIDE = 3
CELLS = SIDE * SIDE
#: Every line of three, as cell indices.
LINES: tuple[tuple[int, int, int], ...] = (
    *((row * SIDE, row * SIDE + 1, row * SIDE + 2) for row in range(SIDE)),
    *((column, column + SIDE, column + 2 * SIDE) for column in range(SIDE)),
    (0, 4, 8),
    (2, 4, 6),
)


class TicTacToeError(ValueError):
    """A move or a board the rules do not allow; the message says why, for a person."""


class Mark(Enum):
    """A player's mark; its value is its digit on the wire (1 for X, 2 for O)."""

    X = "1"
    O = "2"  # noqa: E741 (the letter is the game's own)

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X


def index_of(x: int, y: int) -> int:
    """The cell at column ``x``, row ``y``. Raises TicTacToeError off the board."""
    if not (0 <= x < SIDE and 0 <= y < SIDE):
        raise TicTacToeError(f"column {x}, row {y} is off the board: both go from 0 to 2")
    return y * SIDE + x


def cell_of_number(number: int) -> tuple[int, int]:
    """Column and row of the cell numbered ``number`` (1-9, 123 on the top row)."""
    if not 1 <= number <= CELLS:
        raise TicTacToeError(f"{number} is not a cell: cells are numbered 1 to 9")
    return (number - 1) % SIDE, (number - 1) // SIDE


def parse_cell(text: str) -> tuple[int, int]:
    """A cell as a person types it: its number (``5``), or column and row (``1 1``, ``1:1``).

    Raises TicTacToeError saying what is expected.
    """
    words = text.replace(":", " ").replace(",", " ").split()
    numbers = all(ascii_digits(word) for word in words)
    if not words or not numbers or len(words) > 2:
        shown = text.strip()[:12]
        raise TicTacToeError(f"{shown!r} is not a cell: type 1-9, or a column and a row")
    if len(words) == 1:
        return cell_of_number(int(words[0]))
    x, y = int(words[0]), int(words[1])
    index_of(x, y)  # off the board: the error says so
    return x, y


@dataclass(frozen=True)
class Board:
    """A position: each cell's mark (None when empty), row by row from the top."""

    cells: tuple[Mark | None, ...] = (None,) * CELLS

    @classmethod
    def from_text(cls, text: str) -> Board:
        """The board ``BOARDSTATUS`` sends: nine digits, 0 empty, 1 X, 2 O.

        Raises TicTacToeError unless it could arise in a game (X moves first, so
        X has as many marks as O, or one more).
        """
        if len(text) != CELLS or any(digit not in "012" for digit in text):
            raise TicTacToeError(f"{text[:20]!r} is not nine digits of 0, 1 or 2")
        board = cls(tuple(None if digit == "0" else Mark(digit) for digit in text))
        xs, os = board.count(Mark.X), board.count(Mark.O)
        if xs - os not in (0, 1):
            raise TicTacToeError(f"{text!r} has {xs} X and {os} O: X moves first, then O")
        return board

    def text(self) -> str:
        """Nine digits, as ``BOARDSTATUS`` sends them."""
        return "".join("0" if mark is None else mark.value for mark in self.cells)

    def count(self, mark: Mark) -> int:
        """How many cells ``mark`` holds."""
        return self.cells.count(mark)

    @property
    def turn(self) -> Mark:
        """Who moves next (X moves first)."""
        return Mark.X if self.count(Mark.X) == self.count(Mark.O) else Mark.O

    @property
    def winning_line(self) -> tuple[int, int, int] | None:
        """The three cells of a completed line, if there is one."""
        for line in LINES:
            first = self.cells[line[0]]
            if first is not None and all(self.cells[i] is first for i in line):
                return line
        return None

    @property
    def winner(self) -> Mark | None:
        """The mark that completed a line, if one did."""
        line = self.winning_line
        return None if line is None else self.cells[line[0]]

    @property
    def is_full(self) -> bool:
        """No empty cell is left."""
        return None not in self.cells

    @property
    def is_over(self) -> bool:
        """Somebody won, or the board is full (a draw)."""
        return self.winner is not None or self.is_full

    def refusal(self, x: int, y: int) -> str | None:
        """Why the player to move may not mark (x, y), or None if they may."""
        if self.is_over:
            return "the game is over"
        try:
            index = index_of(x, y)
        except TicTacToeError as error:
            return str(error)
        if self.cells[index] is not None:
            return f"cell {index + 1} (column {x}, row {y}) is taken"
        return None

    def place(self, x: int, y: int) -> Board:
        """The board after the player to move marks (x, y). Raises TicTacToeError if refused."""
        problem = self.refusal(x, y)
        if problem is not None:
            raise TicTacToeError(problem)
        cells = list(self.cells)
        cells[index_of(x, y)] = self.turn
        return Board(tuple(cells))

    def move_to(self, after: Board) -> tuple[int, int] | None:
        """The one legal move that turns this board into ``after``, if one does."""
        changed = [i for i in range(CELLS) if self.cells[i] != after.cells[i]]
        if len(changed) != 1 or self.is_over:
            return None
        index = changed[0]
        if self.cells[index] is not None or after.cells[index] is not self.turn:
            return None
        return index % SIDE, index // SIDE
