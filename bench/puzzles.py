"""How long making puzzles takes: ``make_puzzles`` as ``c4tui puzzles --make`` runs it.

Run: ``python bench/puzzles.py [--count 100] [--seed 1]``. It times loading the solver
(the first exact score, paid once per process), then making ``--count`` puzzles from
games between the Easy levels, and prints the seconds, puzzles a second, how many take
two or more of the solver side's moves, and the goals. The shipped set of issue 41
(2,000 puzzles) costs about twenty times the 100's time. Then it times the
search-proven maker off 7 × 6 classic (``c4tui puzzles --make --columns/--rows/--pop-out``)
making ``--searched`` puzzles on 9 × 7 and on 7 × 6 Pop Out.
"""

from __future__ import annotations

import argparse
import collections
import time

from c4tui.ai.perfect import exact_scores
from c4tui.engine import GameState
from c4tui.puzzles.making import make_puzzles
from c4tui.puzzles.search_making import empty_board, make_searched_puzzles

#: The boards the search-proven maker is timed on: (columns, rows, Pop Out).
SEARCHED_BOARDS = ((9, 7, False), (7, 6, True))


def main() -> int:
    """Load the solver, then make the puzzles and say how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--searched", type=int, default=50, help="search-proven puzzles a board")
    args = parser.parse_args()
    started = time.perf_counter()
    exact_scores(GameState.new().drop(3))
    print(f"solver loaded (first exact score): {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    puzzles = make_puzzles(args.count, args.seed)
    seconds = time.perf_counter() - started
    long = sum(puzzle.solver_moves >= 2 for puzzle in puzzles)
    goals = collections.Counter(puzzle.goal for puzzle in puzzles)
    print(
        f"{len(puzzles)} puzzles in {seconds:.2f} s: {len(puzzles) / seconds:.1f} puzzles/second; "
        f"{long} ({100 * long / len(puzzles):.0f} %) take two or more solver moves; "
        f"goals: {dict(goals)}"
    )
    for columns, rows, pop_out in SEARCHED_BOARDS:
        started = time.perf_counter()
        made = make_searched_puzzles(args.searched, args.seed, empty_board(columns, rows, pop_out))
        seconds = time.perf_counter() - started
        long = sum(puzzle.solver_moves >= 3 for puzzle in made)
        print(
            f"{len(made)} search-proven {columns} x {rows}{' Pop Out' if pop_out else ''} puzzles "
            f"in {seconds:.2f} s: {len(made) / seconds:.1f} puzzles/second; {long} win in 3"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
