"""``c4tui solve``: the exact score of each position read from standard input.

Each input line is a game written as column digits, red first (``4453``); the
first word of a line is used, so a test file of ``MOVES SCORE`` lines can be fed
as it is. Each answer is printed and flushed at once, so the command can sit at
the end of a pipe and answer one question at a time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, MIN_SIZE, C4Error
from c4tui.engine.sequence import MAX_SEQUENCE_COLUMNS, play_sequence

if TYPE_CHECKING:
    from c4tui.ai.solver import Solver

#: Exit status when some lines could not be solved.
SOME_LINES_FAILED = 1
USAGE_ERROR = 2
INTERRUPTED = 130


def add_solve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``solve`` and its options."""
    solve = commands.add_parser(
        "solve",
        help="print the exact score of positions read from standard input",
        description="Read games as column digits (red first, e.g. 4453), one per line, and "
        "print 'SEQUENCE SCORE' for each: 0 a draw; positive when the side to move wins, "
        "22 - k on 7 x 6 when the win comes with its k-th disc; negative for a loss. "
        "Blank lines are skipped; anything after the first word of a line is ignored. "
        "Lines that are not a game in progress are reported on standard error.",
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
        "--columns", type=int, default=DEFAULT_COLUMNS, help="board width (default 7)"
    )
    solve.add_argument("--rows", type=int, default=DEFAULT_ROWS, help="board height (default 6)")


def run_solve(
    args: argparse.Namespace,
    lines: Iterable[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Answer every line; 0 if all were solved, 1 if some were not, 2 for a bad board size."""
    from c4tui.ai.solver import Solver, solvable  # noqa: PLC0415 (NumPy loads only to solve)

    out = out or sys.stdout
    err = err or sys.stderr
    if not (solvable(args.columns, args.rows) and args.columns <= MAX_SEQUENCE_COLUMNS):
        print(
            f"c4tui solve: cannot solve a {args.columns} x {args.rows} board: the solver "
            f"needs at least {MIN_SIZE} rows and columns, at most {MAX_SEQUENCE_COLUMNS} "
            "columns, and columns x (rows + 1) <= 63",
            file=err,
        )
        return USAGE_ERROR
    solver = Solver(args.columns, args.rows)
    failures = 0
    try:
        for number, line in enumerate(lines if lines is not None else sys.stdin, start=1):
            words = line.split()
            if not words:
                continue
            answer = _answer(solver, words[0], args)
            if answer.startswith("!"):
                failures += 1
                print(f"line {number}: {words[0]}: {answer[1:]}", file=err, flush=True)
            else:
                print(f"{words[0]} {answer}", file=out, flush=True)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        return 0  # the reader went away (``| head``): nothing more to say
    return SOME_LINES_FAILED if failures else 0


def _answer(solver: Solver, sequence: str, args: argparse.Namespace) -> str:
    """The text to print for one game, or ``!reason`` when it cannot be solved."""
    from c4tui.ai.solver import Position  # noqa: PLC0415

    try:
        state = play_sequence(sequence, args.columns, args.rows)
    except C4Error as error:
        return f"!{error}"
    if state.is_over:
        return "!the game is over: there is nothing to solve"
    position = Position.of(state)
    if args.analyze:
        scores = solver.analyse(position, weak=args.weak)
        return " ".join("-" if score is None else str(score) for score in scores)
    return str(solver.solve(position, weak=args.weak))
