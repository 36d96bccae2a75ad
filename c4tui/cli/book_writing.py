"""What ``c4tui solve --make-book`` does: solve every position of one depth, write the book.

The work is ``ai/solver/book_maker.py``'s, in a process a core; this checks the
request, says how far it has gone every few seconds, and writes the file whole
(a book cut short by Ctrl-C or a full disk is never left behind).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from c4tui.ai.exact_boards import solvable
from c4tui.ai.solver.book import max_book_depth
from c4tui.ai.solver.book_maker import make_book
from c4tui.cli.solving import unsolvable_board
from c4tui.cli.types import INTERRUPTED, USAGE_ERROR
from c4tui.storage import write_atomically

#: Seconds between two progress lines on standard error.
PROGRESS_SECONDS = 5.0
#: Exit status when the book could not be written.
NOT_WRITTEN = 1


def write_book(args: argparse.Namespace, err: TextIO) -> int:
    """Make the book ``args`` ask for and write it; 0 once written, 2 for a bad request."""
    problem = _request_problem(args)
    if problem:
        print(f"c4tui solve: {problem}", file=err)
        return USAGE_ERROR
    started = time.perf_counter()
    try:
        data = make_book(args.columns, args.rows, args.book_depth, args.jobs, _reporter(err))
        write_atomically(Path(args.make_book), data)  # whole or not at all, even on Ctrl-C
    except KeyboardInterrupt:
        print("c4tui solve: interrupted; no book was written.", file=err)
        return INTERRUPTED
    except ValueError as error:
        print(f"c4tui solve: {error}", file=err)
        return NOT_WRITTEN
    except OSError as error:
        print(f"c4tui solve: cannot write {args.make_book}: {error.strerror}", file=err)
        return NOT_WRITTEN
    seconds = time.perf_counter() - started
    print(
        f"c4tui solve: wrote {args.make_book}: the {args.columns} × {args.rows} book of "
        f"{args.book_depth} discs, {len(data):,} bytes, in {seconds:.1f} s",
        file=err,
    )
    return 0


def _request_problem(args: argparse.Namespace) -> str:
    """What is wrong with the request, in one line ("" when nothing is)."""
    if args.make_book is None or args.book_depth is None:
        return "--make-book FILE and --book-depth DISCS go together (and --jobs with them)"
    if args.games:
        return "--make-book answers no games: give it none"
    if not solvable(args.columns, args.rows):
        return unsolvable_board(args.columns, args.rows)
    most = min(max_book_depth(args.columns), args.columns * args.rows - 1)
    if not 0 <= args.book_depth <= most:
        return f"--book-depth must be from 0 to {most} here"
    if args.jobs < 0:
        return "--jobs must be 0 (one a core) or more"
    return ""


def _reporter(err: TextIO) -> Callable[[int, int], None]:
    """A progress callback that prints at most one line every ``PROGRESS_SECONDS``."""
    last = [time.perf_counter()]

    def report(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= PROGRESS_SECONDS or done in (0, total):
            last[0] = now
            print(f"c4tui solve: {done:,} of {total:,} positions solved", file=err, flush=True)

    return report
