"""``c4tui puzzles --make N | --export N``: proven 7 × 6 puzzles as JSON lines (issue 41).

``--make`` finds them (``puzzles.making``: from games between the Easy levels, the same
ones for a ``--seed``) and writes them to ``--out`` or standard output, with a
progress bar on standard error. With ``--columns``/``--rows`` other than 7 × 6, or
``--pop-out``, it makes short wins a search proves instead (``puzzles.search_making``:
marked "search-proven", their moves in notation, their board in the JSON).
``--export`` prints the first N of a made file (``--from``), or of the set c4tui
ships (made with the default seed, so ``--make N`` without a seed makes its first
N again). Only ``--make`` loads the solver (NumPy,
Numba) in this process, when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.types import (
    INTERRUPTED,
    CommandTable,
    board_size,
    positive_count,
    signed_number,
    usage_error,
)
from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS

if TYPE_CHECKING:
    from c4tui.puzzles.puzzle import Puzzle

#: The seed when none is given: the shipped set was made with it.
DEFAULT_SEED = 1
#: The progress bar's cells.
PROGRESS_WIDTH = 30


def add_parser(commands: CommandTable) -> None:
    """Register ``puzzles``, its arguments and its ``run``."""
    puzzles = commands.add_parser(
        "puzzles",
        description="Make puzzles from games between c4tui's Easy levels: 7 x 6 classic "
        "positions where the side to move has exactly one winning move (or, not winning, "
        "exactly one move that does not lose), each step proven by the solver. One JSON "
        'line a puzzle: {"id", "moves", "solution", "goal", "themes", "rating"}. On another '
        "board or under Pop Out: short forced wins proven by a search, their moves in "
        'notation ("d4 p3"), with "columns", "rows" and "rules".',
    )
    action = puzzles.add_mutually_exclusive_group(required=True)
    action.add_argument("--make", type=positive_count, metavar="N", help="find N puzzles")
    action.add_argument("--export", type=positive_count, metavar="N", help="print N puzzles")
    puzzles.add_argument(
        "--seed", type=signed_number, default=DEFAULT_SEED, help="the same seed, the same puzzles"
    )
    puzzles.add_argument("--out", type=Path, metavar="FILE", help="--make: write them here")
    puzzles.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="FILE",
        help="--export: a file --make wrote (without one, the set c4tui ships)",
    )
    board = puzzles.add_argument_group(
        "other boards (--make)",
        "puzzles off 7 x 6 classic are short forced wins (2 or 3 moves) a search proves",
    )
    board.add_argument("--columns", type=board_size, help="board width (default 7)")
    board.add_argument("--rows", type=board_size, help="board height (default 6)")
    board.add_argument("--pop-out", action="store_true", help="Pop Out rules")
    puzzles.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Make or read the puzzles and print (or write) them; Ctrl-C ends with one line, 130."""
    if args.make is not None and args.source is not None:
        usage_error("puzzles", "--from goes with --export, not --make")
    if args.export is not None and args.out is not None:
        usage_error("puzzles", "--out goes with --make, not --export")
    if args.export is not None and (args.columns or args.rows or args.pop_out):
        usage_error("puzzles", "--columns, --rows and --pop-out go with --make, not --export")
    try:
        if args.export is not None:
            puzzles = _read(args.source or _shipped(), args.export)
        else:
            puzzles = _made(args.make, args.seed, _board(args))
    except KeyboardInterrupt:
        sys.stderr.write("\nc4tui puzzles: interrupted; nothing was written.\n")
        return INTERRUPTED
    return _written(puzzles, args.out)


def _board(args: argparse.Namespace) -> tuple[int, int, bool] | None:
    """The board asked for (columns, rows, Pop Out), or None for the solver's 7 × 6 classic."""
    board = (args.columns or DEFAULT_COLUMNS, args.rows or DEFAULT_ROWS, args.pop_out)
    return None if board == (DEFAULT_COLUMNS, DEFAULT_ROWS, False) else board


def _made(count: int, seed: int, board: tuple[int, int, bool] | None) -> list[Puzzle]:
    """``count`` puzzles for ``seed`` (on ``board``), with a progress bar on standard error."""

    def progress(found: int) -> None:
        sys.stderr.write(f"\rc4tui puzzles: {progress_bar(found, count)} {found}/{count} found")
        sys.stderr.flush()

    if board is None:
        from c4tui.puzzles.making import make_puzzles  # noqa: PLC0415 (loads the solver)

        puzzles = make_puzzles(count, seed, progress)
    else:
        from c4tui.puzzles import search_making  # noqa: PLC0415 (loads the search)

        empty = search_making.empty_board(*board)
        puzzles = search_making.make_searched_puzzles(count, seed, empty, progress)
    sys.stderr.write("\n")
    return puzzles


def progress_bar(done: int, total: int) -> str:
    """A bar of ``PROGRESS_WIDTH`` cells, ``#`` for what is done (ASCII: any terminal shows it)."""
    filled = PROGRESS_WIDTH * done // total
    return "[" + "#" * filled + "." * (PROGRESS_WIDTH - filled) + "]"


def _shipped() -> Path:
    """The set c4tui ships: ``--export`` reads it when no ``--from`` is given."""
    from c4tui.puzzles.collection import SHIPPED_SET  # noqa: PLC0415
    from c4tui.storage import asset_path  # noqa: PLC0415

    return asset_path(SHIPPED_SET)


def _read(path: Path, count: int) -> list[Puzzle]:
    """The first ``count`` puzzles of a made file; a file that cannot be read is refused (2)."""
    path = path.expanduser()
    from c4tui.puzzles.collection import read_puzzles  # noqa: PLC0415

    try:
        puzzles = read_puzzles(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        usage_error("puzzles", f"cannot read {path}: {error}")
    except ValueError as error:  # json's errors are ValueErrors too
        usage_error("puzzles", f"{path} is not a file of puzzles: {error}")
    if len(puzzles) < count:
        usage_error("puzzles", f"{path} holds {len(puzzles)} puzzles, not {count}")
    return puzzles[:count]


def _written(puzzles: list[Puzzle], out: Path | None) -> int:
    """The puzzles as JSON lines in ``out`` (whole or not at all) or on standard output."""
    from c4tui.puzzles.puzzle import puzzle_json  # noqa: PLC0415
    from c4tui.storage import write_atomically  # noqa: PLC0415

    text = "".join(json.dumps(puzzle_json(puzzle)) + "\n" for puzzle in puzzles)
    if out is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomically(out.expanduser(), text)
    except OSError as error:
        sys.stderr.write(f"c4tui puzzles: cannot save {out}: {error}\n")
        return 1
    sys.stderr.write(f"c4tui puzzles: wrote {len(puzzles)} puzzles to {out}\n")
    return 0
