"""Exact play: the proven score of a classic position and of each of its moves.

``Solver`` wraps the compiled search of ``core.py`` for one board size: it owns
the transposition table (kept between calls, since a bound proved for a
position stays true in every later search), the board's opening book if it has one, and a
watcher that stops the search when its caller cancels or its deadline passes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from c4tui.ai.exact_boards import solvable
from c4tui.ai.search import CancelFlag, SearchAborted
from c4tui.ai.solver import core
from c4tui.ai.solver.book import opening_book
from c4tui.ai.solver.jit import COMPILED
from c4tui.ai.solver.table import MIN_TABLE_BITS
from c4tui.engine import GameState, Player, Rules

T = TypeVar("T")

#: Transposition table entries, a power of two: 2**23 compiled (64 MB), 2**20 as plain Python.
#: The most a board's table has (``table_size_for``).
TABLE_SIZE = 1 << 23 if COMPILED else 1 << 20
#: A board of N cells gets at most 2**(N - this) entries: 2**20 (8 MB) for 5 × 6 and 6 × 5.
CELLS_OVER_TABLE_BITS = 10
#: How often the watcher looks at the cancel flag and the clock.
WATCH_INTERVAL = 0.005


def table_size_for(cells: int) -> int:
    """The table's entries for a board of ``cells``: fewer than ``TABLE_SIZE`` if it is small.

    A small board's search keeps few positions, and a table far larger than they need
    costs a cache and a TLB miss on almost every probe: 5 × 6's test positions took 85 µs
    on average with 2**23 entries, 43 µs with 2**20, and its empty board the same time.
    """
    most = TABLE_SIZE.bit_length() - 1
    return 1 << max(MIN_TABLE_BITS, min(most, cells - CELLS_OVER_TABLE_BITS))


def score_range(columns: int, rows: int) -> tuple[int, int]:
    """The lowest and highest score a position can have (a loss or win on the first disc)."""
    best = (columns * rows + 1) // 2
    return -best, best


@dataclass(frozen=True)
class Position:
    """A classic position as the solver sees it: the mover's discs, all discs, discs played."""

    current: int
    mask: int
    moves: int

    @classmethod
    def of(cls, state: GameState) -> Position:
        """The solver's view of ``state`` (which must be a classic game that is not over)."""
        if state.rules is not Rules.CLASSIC:
            raise ValueError("the solver plays classic rules only")
        if state.is_over:
            raise ValueError("the game is over: there is nothing to solve")
        current = state.red if state.turn is Player.RED else state.yellow
        return cls(current, state.red | state.yellow, state.disc_count)

    def play(self, move: int) -> Position:
        """The position after the side to move takes the cell ``move`` (one bit)."""
        return Position(self.current ^ self.mask, self.mask | move, self.moves + 1)


@dataclass
class Stats:
    """What the last call cost."""

    nodes: int = 0
    seconds: float = 0.0


class Solver:
    """The exact solver for one board size, with its table and book."""

    def __init__(
        self, columns: int = 7, rows: int = 6, *, use_book: bool = True, table_size: int = 0
    ) -> None:
        if not solvable(columns, rows):
            raise ValueError(f"the exact solver cannot hold a {columns} × {rows} board")
        self.columns, self.rows = columns, rows
        self.cells = columns * rows
        size = table_size or table_size_for(self.cells)
        table_bits = size.bit_length() - 1
        if size != 1 << table_bits or table_bits < MIN_TABLE_BITS:
            raise ValueError(f"a table of {size} entries: a power of two from 256 is needed")
        book = opening_book(columns, rows) if use_book else None
        self.has_book = book is not None
        self.book_keys = book.keys if book else np.zeros(1, dtype=np.int32)
        self.book_values = book.values if book else np.zeros(1, dtype=np.int8)
        self.book_index = book.index if book else np.zeros(2, dtype=np.int32)
        book_place = (book.depth, book.lowest, book.shift) if book else (-1, 0, 0)
        geometry = _geometry(columns, rows, table_bits) + list(book_place)
        self.geo = _array(geometry, np.int64)
        self.order = _array(_centre_first(columns), np.int64)
        self.scratch = _zeros((self.cells + 1) * 2 * columns, np.int64)
        self.stack = _zeros((self.cells + 2) * core.STACK_FIELDS, np.int64)
        self.table = _zeros(size, np.int64)
        self.control = _zeros(core.CONTROL_FIELDS, np.int64)
        self.stats = Stats()
        self._lock = threading.Lock()

    # ----- asking -----------------------------------------------------------------

    def solve(
        self,
        position: Position,
        *,
        weak: bool = False,
        cancel: CancelFlag | None = None,
        deadline: float | None = None,
    ) -> int:
        """The exact score of ``position`` (or with ``weak``, only 1 / 0 / -1).

        Raises SearchAborted when ``cancel`` is set or ``deadline`` passes first.
        """
        return self._run(lambda: self._solve(position, weak), cancel, deadline)

    def analyse(
        self,
        position: Position,
        *,
        weak: bool = False,
        cancel: CancelFlag | None = None,
        deadline: float | None = None,
    ) -> list[int | None]:
        """The score of every column's move for the side to move (None: the column is full)."""
        return self._run(lambda: self._analyse(position, weak), cancel, deadline)

    def best_columns(
        self,
        position: Position,
        *,
        cancel: CancelFlag | None = None,
        deadline: float | None = None,
    ) -> tuple[int, list[int]]:
        """The exact score of ``position`` and every column whose move keeps it.

        What a player needs to choose, for less than ``analyse``: one exact solve,
        then one null-window search a column (is it worse?), which the table
        mostly answers, instead of an exact solve of every column.
        """
        return self._run(lambda: self._best_columns(position), cancel, deadline)

    def at_least(
        self,
        position: Position,
        value: int,
        *,
        cancel: CancelFlag | None = None,
        deadline: float | None = None,
    ) -> bool:
        """Whether the score of ``position`` is ``value`` or more (one null-window search)."""
        return self._run(lambda: self._at_least(position, value), cancel, deadline)

    def stop(self) -> None:
        """Ask the search running now, from another thread, to stop (it raises SearchAborted)."""
        self.control[core.C_STOP] = 1

    # ----- the work -----------------------------------------------------------------

    def _solve(self, position: Position, weak: bool) -> int:
        score = int(
            core.solve(position.current, position.mask, position.moves, weak, *self._tables())
        )
        return (score > 0) - (score < 0) if weak else score  # bounds past ±1 prove only a sign

    def _at_least(self, position: Position, value: int) -> bool:
        if position.moves >= self.cells:
            return value <= 0  # a full board is a draw
        if core.can_win_next(position.current, position.mask, self.geo):
            return self._win_now(position) >= value
        tables = self._tables()
        return bool(
            core.negamax(position.current, position.mask, position.moves, value - 1, value, *tables)
            >= value
        )

    def _analyse(self, position: Position, weak: bool) -> list[int | None]:
        scores: list[int | None] = [None] * self.columns  # None: a full column
        threats = self._threats(position)
        win_now = self._win_now(position)
        for column, move in self._moves(position):
            if threats & move:
                scores[column] = 1 if weak else win_now
            else:
                scores[column] = -self._solve(position.play(move), weak)
        return scores

    def _best_columns(self, position: Position) -> tuple[int, list[int]]:
        score = self._solve(position, weak=False)
        threats = self._threats(position)
        columns = []
        for column, move in self._moves(position):
            if threats & move:
                keeps = self._win_now(position) == score
            else:  # the reply's score is -score or less, or this move is worse
                keeps = not self._at_least(position.play(move), 1 - score)
            if keeps:
                columns.append(column)
        return score, columns

    def _win_now(self, position: Position) -> int:
        """The score of a win with the side to move's next disc."""
        return (self.cells + 1 - position.moves) // 2

    def _threats(self, position: Position) -> int:
        """The cells where the side to move would make four."""
        board = int(self.geo[core.G_BOARD])
        return int(core.winning_cells(position.current, position.mask, self.rows, board))

    def _moves(self, position: Position) -> list[tuple[int, int]]:
        """Each column that is not full, with the cell its move takes (one bit)."""
        moves = []
        for column in range(self.columns):
            cells = core.column_mask(column, self.rows)
            move = (position.mask + (1 << (column * (self.rows + 1)))) & cells
            if move:
                moves.append((column, move))
        return moves

    def _tables(self) -> tuple[Any, ...]:
        return (
            self.geo,
            self.table,
            self.book_keys,
            self.book_values,
            self.book_index,
            self.order,
            self.scratch,
            self.stack,
            self.control,
        )

    def _run(self, work: Callable[[], T], cancel: CancelFlag | None, deadline: float | None) -> T:
        """Do ``work`` while a watcher thread stops it on cancel or at the deadline."""
        with self._lock:
            self.control[core.C_NODES] = 0
            self.control[core.C_STOP] = 0
            started = time.perf_counter()
            if cancel is None and deadline is None:
                result = work()
            else:
                result = self._watched(work, cancel, deadline)
            self.stats = Stats(int(self.control[core.C_NODES]), time.perf_counter() - started)
            if self.control[core.C_STOP]:
                raise SearchAborted
            return result

    def _watched(
        self, work: Callable[[], T], cancel: CancelFlag | None, deadline: float | None
    ) -> T:
        finished = threading.Event()
        watcher = threading.Thread(
            target=self._watch, args=(finished, cancel, deadline), daemon=True
        )
        watcher.start()
        try:
            return work()
        finally:
            finished.set()
            watcher.join()

    def _watch(
        self, finished: threading.Event, cancel: CancelFlag | None, deadline: float | None
    ) -> None:
        while not finished.wait(WATCH_INTERVAL):
            late = deadline is not None and time.perf_counter() >= deadline
            if late or (cancel is not None and cancel.is_set()):
                self.control[core.C_STOP] = 1
                return


def _geometry(columns: int, rows: int, table_bits: int) -> list[int]:
    """The constants the core reads, in the order of ``core.G_*`` (the book's place after)."""
    bottom = sum(1 << (column * (rows + 1)) for column in range(columns))
    cells = columns * rows
    low, high = -(cells // 2) + 3, (cells + 1) // 2 - 3
    return [columns, rows, bottom, bottom * ((1 << rows) - 1), cells, low, high, table_bits]


def _centre_first(columns: int) -> list[int]:
    """Column numbers from the centre outwards (central discs take part in more lines)."""
    return [columns // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(columns)]


def _array(values: Sequence[int], dtype: Any) -> Any:
    """A NumPy array for the compiled core; a list (faster to index) for plain Python."""
    return np.array(values, dtype=dtype) if COMPILED else list(values)


def _zeros(size: int, dtype: Any) -> Any:
    """``size`` zeros, as ``_array`` would hold them.

    The NumPy array is written through once: its pages are then mapped now, not
    one fault at a time in the middle of the first searches.
    """
    if not COMPILED:
        return [0] * size
    zeros = np.empty(size, dtype=dtype)
    zeros.fill(0)
    return zeros
