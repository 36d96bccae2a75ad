"""Perfect's first move in the app: from Start to the move, with and without the menu's warm-up.

Run: ``python bench/perfect_first.py [--trials N] [--menu-seconds S]``. Each trial
makes a fresh search pool, as a new ``c4tui`` process has, and times Perfect's first
move through it: cold (the worker starts and loads the solver after Start), and
warmed (``warm_up`` with the board when Perfect is chosen in the menu, then
``--menu-seconds`` for the person to press Start). Both colours: Perfect on red
answers the empty board, on yellow the person's first drop (d4). The goal (issue
43) is 0.3 s of thinking for every reply, the first included.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from c4tui.ai.levels import PERFECT_SECONDS, ai_level
from c4tui.engine import GameState, Move
from c4tui.match.pool import SearchPool

GOAL_SECONDS = 0.3


async def first_move(start: GameState, warmed: bool, menu_seconds: float) -> float:
    """Seconds from Start to Perfect's first move in ``start`` through a fresh pool."""
    pool = SearchPool(workers=1)
    try:
        if warmed:
            pool.warm_up(GameState.new())  # the menu shows the empty board's game
            await asyncio.sleep(menu_seconds)
        began = time.perf_counter()
        await pool.choose_move(ai_level("perfect").make(1), start, budget=PERFECT_SECONDS)
        return time.perf_counter() - began
    finally:
        pool.shutdown()


async def run(trials: int, menu_seconds: float) -> bool:
    """Print one line per case; True when every warmed first move met the goal."""
    starts = {"red (empty board)": GameState.new(), "yellow (after d4)": GameState.new()}
    starts["yellow (after d4)"] = starts["yellow (after d4)"].play(Move.drop(3))
    met = True
    for name, start in starts.items():
        for warmed in (False, True):
            times = [await first_move(start, warmed, menu_seconds) for _ in range(trials)]
            worst = max(times)
            label = "warmed" if warmed else "cold  "
            verdict = ("PASS" if worst <= GOAL_SECONDS else "FAIL") if warmed else "    "
            met &= worst <= GOAL_SECONDS or not warmed
            print(
                f"{verdict}  {label} Perfect on {name}: median {statistics.median(times):.3f} s, "
                f"max {worst:.3f} s ({trials} trials; goal {GOAL_SECONDS} s warmed)",
                flush=True,
            )
    return met


def main() -> int:
    """Time the cases; exit 1 if a warmed first move missed the goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--menu-seconds", type=float, default=1.5, help="the menu's time")
    args = parser.parse_args()
    return 0 if asyncio.run(run(args.trials, args.menu_seconds)) else 1


if __name__ == "__main__":
    sys.exit(main())
