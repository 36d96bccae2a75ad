"""Which boards the exact solver holds, and on which it proves every position at once.

Light on purpose (no NumPy, no solver): the app's screens ask it what to offer
(the best line, the review's verdicts) before any search runs, in a process that
never loads the solver. A board is proven everywhere when it is small, or when it
has an opening book: BitBully's on 7 × 6, one of c4tui's own on the others
(``assets/books/``, made by ``c4tui solve --make-book``).
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path

from c4tui.engine import MIN_SIZE, Rules
from c4tui.storage import asset_path

#: The bitboard (``columns × (rows + 1)`` bits) must fit a 64-bit word: 8 × 7 takes all 64.
#: Its top bit is the sentinel above the last column, never a disc, so every shift the core
#: makes of a position is the same on a signed word; only a key (discs + mask) may reach
#: it, and the table reads a key's bits below the 64th only (see ``solver/table.py``).
MAX_BOARD_BITS = 64
#: A board this small is proven from any position without a book (5 × 5's start: 64 ms).
QUICK_CELLS = 25
#: The board of BitBully's book, from the optional ``bitbully-databases`` package.
BOOK_COLUMNS, BOOK_ROWS = 7, 6
BITBULLY_PACKAGE = "bitbully_databases"
#: c4tui's books, under ``assets/``: one a board, ``books/6x7.c4book.xz``.
BOOK_FOLDER = "books"
#: The app's analysis is to be proven on every board of at most this many cells.
PROVEN_CELLS_GOAL = 42
#: Set to 1 to run the solver as plain Python even when Numba is installed.
PURE_PYTHON_VARIABLE = "C4TUI_PURE_PYTHON"


def solvable(columns: int, rows: int, rules: Rules = Rules.CLASSIC) -> bool:
    """Whether the exact solver handles this board (classic rules, 64 bits at most).

    Boards narrower or lower than the game's smallest (4) are no Connect Four board.
    """
    if min(columns, rows) < MIN_SIZE:
        return False
    return rules is Rules.CLASSIC and columns * (rows + 1) <= MAX_BOARD_BITS


def book_name(columns: int, rows: int) -> str:
    """The file name of c4tui's book of a board, under ``assets/books/``."""
    return f"{columns}x{rows}.c4book.xz"


def shipped_book(columns: int, rows: int) -> Path | None:
    """Where c4tui's book of the board is, or None when it has none."""
    path = asset_path(f"{BOOK_FOLDER}/{book_name(columns, rows)}")
    return path if path.is_file() else None


def proven_everywhere(columns: int, rows: int, rules: Rules = Rules.CLASSIC) -> bool:
    """Whether the solver proves every position of the board at once: small, or a book.

    Without Numba the search runs a hundred times more slowly: a position just past
    a small board's book would take minutes, so only 7 × 6 (whose book is deep)
    keeps the promise there.
    """
    if (columns, rows, rules) == (BOOK_COLUMNS, BOOK_ROWS, Rules.CLASSIC):
        return _installed(BITBULLY_PACKAGE)
    if not search_compiled() or not solvable(columns, rows, rules):
        return False
    return columns * rows <= QUICK_CELLS or shipped_book(columns, rows) is not None


def search_compiled() -> bool:
    """Whether the solver's search will run compiled (Numba installed and not switched off)."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return False
    return _installed("numba")


@cache
def _installed(package: str) -> bool:
    """Whether ``package`` can be imported (found, not loaded)."""
    return importlib.util.find_spec(package) is not None


def boards_up_to(most_cells: int = PROVEN_CELLS_GOAL) -> list[tuple[int, int]]:
    """Every classic board the solver holds with ``most_cells`` cells or fewer."""
    return [
        (columns, rows)
        for columns in range(MIN_SIZE, most_cells // MIN_SIZE + 1)
        for rows in range(MIN_SIZE, most_cells // columns + 1)
        if solvable(columns, rows)
    ]


def unproven_boards(most_cells: int = PROVEN_CELLS_GOAL) -> list[tuple[int, int]]:
    """Those of ``boards_up_to(most_cells)`` that are not proven everywhere."""
    return [board for board in boards_up_to(most_cells) if not proven_everywhere(*board)]
