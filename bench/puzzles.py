"""How long making puzzles takes: ``make_puzzles`` as ``c4tui puzzles --make`` runs it.

Run: ``python bench/puzzles.py [--count 100] [--seed 1]``. It times loading the solver
(the first exact score, paid once per process), then making ``--count`` puzzles from
games between the Easy levels, and prints the seconds, puzzles a second, how many take
two or more of the solver side's moves, and the goals. The shipped set of issue 41
(2,000 puzzles) costs about twenty times the 100's time.
"""

from __future__ import annotations

import argparse
import collections
import time

from c4tui.ai.perfect import exact_scores
from c4tui.engine import GameState
from c4tui.puzzles.making import make_puzzles


def main() -> int:
    """Load the solver, then make the puzzles and say how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
