"""What ``c4tui solve`` does: solve each game read, and print its score as soon as it is known.

Each answer is printed and flushed at once, so the command can sit at the end of a
pipe and answer one question at a time. Loading this loads NumPy and the solver.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import TextIO

from c4tui.ai.exact_boards import MAX_BOARD_BITS, solvable
from c4tui.ai.search import SearchAborted
from c4tui.ai.solver import Position, Solver, Stats
from c4tui.cli.types import INTERRUPTED, USAGE_ERROR
from c4tui.engine import MIN_SIZE, C4Error
from c4tui.engine.sequence import MAX_SEQUENCE_COLUMNS, play_sequence

#: Exit status when some lines could not be solved.
SOME_LINES_FAILED = 1
#: How often the main thread wakes to let Ctrl-C in while a search runs in its thread.
INTERRUPT_CHECK_SECONDS = 0.1


def answer_lines(
    args: argparse.Namespace,
    lines: Iterable[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Answer every game; 0 if all were solved, 1 if some were not, 2 for a bad board size.

    The games are ``lines`` if given, else the command's arguments, else standard input.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    if args.make_book is not None or args.book_depth is not None or args.jobs:
        from c4tui.cli.book_writing import write_book  # noqa: PLC0415 (for --make-book only)

        return write_book(args, err)
    if not (solvable(args.columns, args.rows) and args.columns <= MAX_SEQUENCE_COLUMNS):
        print(f"c4tui solve: {unsolvable_board(args.columns, args.rows)}", file=err)
        return USAGE_ERROR
    solver = Solver(args.columns, args.rows)
    if args.verbose:
        warm_up()
    answering: Future[int] = Future()
    work = functools.partial(_answer_all, solver, args, lines, out, err)
    # A daemon: never waited for at exit, as it may be blocked reading standard input.
    threading.Thread(target=_settle, args=(answering, work), name="solve", daemon=True).start()
    try:
        while True:  # waits a moment at a time: Ctrl-C is seen here, never in compiled code
            with contextlib.suppress(TimeoutError):
                return answering.result(timeout=INTERRUPT_CHECK_SECONDS)
    except KeyboardInterrupt:
        solver.stop()  # the search looks at its stop flag every thousand nodes
        print("c4tui solve: interrupted; the games answered above were solved.", file=err)
        return INTERRUPTED


def _settle(future: Future[int], work: Callable[[], int]) -> None:
    """Run ``work`` and give ``future`` its result or its exception."""
    try:
        future.set_result(work())
    except BaseException as error:
        future.set_exception(error)


def _answer_all(
    solver: Solver,
    args: argparse.Namespace,
    lines: Iterable[str] | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Answer every game in turn (in a thread of its own, so that Ctrl-C stops a long one)."""
    failures = 0
    costs: list[Stats] = []
    try:
        for where, sequence in _games(args, lines):
            answer = _ONE_WORD if " " in sequence else _answer(solver, sequence, args)
            if answer.startswith("!"):
                failures += 1
                print(f"{where}: {sequence}: {answer[1:]}", file=err, flush=True)
                continue
            if args.verbose:
                costs.append(solver.stats)
                answer += f" {solver.stats.nodes} {round(solver.stats.seconds * 1e6)}"
            print(f"{sequence} {answer}", file=out, flush=True)
    except SearchAborted:
        return INTERRUPTED  # Ctrl-C: the main thread stopped the search
    except BrokenPipeError:
        return 0  # the reader went away (``| head``): nothing more to say
    if costs:
        print(totals(costs), file=err)
    return SOME_LINES_FAILED if failures else 0


def warm_up() -> None:
    """Compile the search before the first answer is timed, as a C++ solver has it compiled.

    Numba compiles on the first call (seconds), which ``--verbose`` would count as that
    position's time. A small board's solver runs the same compiled code and leaves the
    table of the one that answers untouched.
    """
    Solver(MIN_SIZE, MIN_SIZE, use_book=False, table_size=1 << 10).solve(
        Position.of(play_sequence("", MIN_SIZE, MIN_SIZE))
    )


def totals(costs: list[Stats]) -> str:
    """What the answers cost together, as Pons's benchmark sums it up: means and the speed."""
    nodes = sum(cost.nodes for cost in costs)
    seconds = sum(cost.seconds for cost in costs)
    speed = f", {nodes / seconds / 1e6:.2f} million nodes a second" if seconds > 0 else ""
    count = len(costs)
    return (
        f"{count} position{'s' if count != 1 else ''}: {nodes:,} nodes in {seconds:.3f} s, "
        f"a mean of {nodes // count:,} nodes and {seconds / count * 1e3:.3f} ms each{speed}"
    )


#: Said of an argument of more than one word ('4 4' was solved as 4, silently).
_ONE_WORD = "!one game an argument, its moves as digits without spaces (4453)"


def _games(args: argparse.Namespace, lines: Iterable[str] | None) -> Iterator[tuple[str, str]]:
    """Each game to solve, with where it came from ("line 3", "argument 2") for its errors.

    A line's first word is the game (a test file's score after it is ignored); an
    argument is one whole game (``'4 4'`` is refused). A blank line, like an empty
    argument, is the start position, whose score is the famous one.
    """
    if lines is None and args.games:
        for number, game in enumerate(args.games, start=1):  # a whole argument: no score after it
            yield f"argument {number}", " ".join(game.split())
        return
    for number, line in enumerate(lines if lines is not None else sys.stdin, start=1):
        yield f"line {number}", "".join(line.split()[:1])


def unsolvable_board(columns: int, rows: int) -> str:
    """Why the solver refuses a board of that size, in one line."""
    return (
        f"cannot solve {with_article(columns)} × {rows} board: the solver needs at least "
        f"{MIN_SIZE} rows and columns, at most {MAX_SEQUENCE_COLUMNS} columns, and "
        f"columns × (rows + 1) ≤ {MAX_BOARD_BITS}"
    )


def with_article(number: int) -> str:
    """The number after "a" or "an", as it is said: "a 7", "an 8", "an 11", "an 18", "a 100".

    "An" goes before eight, eighty…, eight hundred…, and before eleven and eighteen
    (and their thousands and millions); a minus sign is said "minus".
    """
    digits = str(number)
    eleven_or_eighteen = len(digits) % 3 == 2 and digits[:2] in ("11", "18")
    vowel = number >= 0 and (digits.startswith("8") or eleven_or_eighteen)
    return f"{'an' if vowel else 'a'} {number}"


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
