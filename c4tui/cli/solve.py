"""``c4tui solve``: the exact score of each game given, or read from standard input.

Each game is written as column digits, red first (``4453``), as ``replay`` takes
it; an empty one is the start position. Of a line read, the first word is used, so
a test file of ``MOVES SCORE`` lines can be fed as it is. The answering itself is
``cli/solving.py``, loaded (with NumPy and the solver) only when the command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TextIO

from c4tui.cli.types import CommandTable, signed_number
from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS


def add_parser(commands: CommandTable) -> None:
    """Register ``solve``, its options and its ``run``."""
    solve = commands.add_parser(
        "solve",
        description="Take games as column digits (red first, e.g. 4453) as arguments, or one "
        "per line of standard input without any, and print 'SEQUENCE SCORE' for each: 0 a "
        "draw; positive when the side to move wins, 22 - k on 7 × 6 when the win comes with "
        "its k-th disc; negative for a loss. An empty game (a blank line, or '') is the start "
        "position; an argument is one game, without spaces, and anything after the first "
        "word of a line is ignored. Games that are not in "
        "progress are reported on standard error.",
    )
    solve.add_argument(
        "games",
        nargs="*",
        metavar="DIGITS",
        help="games to solve, e.g. 4453 (none: read them from standard input, one a line)",
    )
    solve.add_argument(
        "--analyze",
        "--analyse",
        action="store_true",
        help="print the score of every column's move instead ('-' for a full column)",
    )
    solve.add_argument(
        "--weak", action="store_true", help="print only who wins: 1, 0 (a draw) or -1"
    )
    solve.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="after each answer print the nodes searched and the microseconds it took, as "
        "Pons's solver does ('SEQUENCE SCORE NODES MICROSECONDS'), and the totals on "
        "standard error at the end",
    )
    solve.add_argument(
        "--columns", type=signed_number, default=DEFAULT_COLUMNS, help="board width (default 7)"
    )
    solve.add_argument(
        "--rows", type=signed_number, default=DEFAULT_ROWS, help="board height (default 6)"
    )
    solve.add_argument(
        "--make-book",
        metavar="FILE",
        help="instead of answering games, write the board's opening book to FILE: every "
        "position with --book-depth discs, solved (xz-compressed; c4tui reads a board's "
        "book from its assets/books/WxH.c4book.xz)",
    )
    solve.add_argument(
        "--book-depth",
        type=signed_number,
        metavar="DISCS",
        help="how many discs the book's positions hold (with --make-book; 2 × DISCS + "
        "columns must be 31 or less)",
    )
    solve.add_argument(
        "--jobs",
        type=signed_number,
        default=0,
        metavar="N",
        help="processes that solve the book's positions (default: one a core)",
    )
    solve.set_defaults(run=run)


def run(
    args: argparse.Namespace,
    lines: Iterable[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Answer every line (of standard input unless ``lines``); the exit status says how it went."""
    from c4tui.cli.solving import answer_lines  # noqa: PLC0415 (NumPy loads only to solve)

    return answer_lines(args, lines, out, err)
