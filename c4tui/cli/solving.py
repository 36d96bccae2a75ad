"""What ``c4tui solve`` does: solve each game read, and print its score as soon as it is known.

Each answer is printed and flushed at once, so the command can sit at the end of a
pipe and answer one question at a time. Loading this loads NumPy and the solver.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TextIO

from c4tui.ai.solver import Position, Solver, solvable
from c4tui.cli.types import USAGE_ERROR
from c4tui.engine import MIN_SIZE, C4Error
from c4tui.engine.sequence import MAX_SEQUENCE_COLUMNS, play_sequence

#: Exit status when some lines could not be solved.
SOME_LINES_FAILED = 1
INTERRUPTED = 130


def answer_lines(
    args: argparse.Namespace,
    lines: Iterable[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Answer every line; 0 if all were solved, 1 if some were not, 2 for a bad board size."""
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
