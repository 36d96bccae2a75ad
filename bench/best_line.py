"""The best line on 7 × 6 classic: how long following the solver's scores to the end takes.

Run: ``python bench/best_line.py [--openings 4453,44,...]``. For each opening (the
empty board, a few after 4 and after 10 moves) it follows the best line with a
fresh solver, as the app's pool worker does for its first line, then again with the
table warm, and prints the time of the first ply's scores (the analysis row's own
work), the whole line's time, the slowest of the analysis row's exact scores along
the line (what the row costs at each ply, for comparison) and the line itself.
"""

from __future__ import annotations

import argparse
import time

from c4tui.ai import perfect
from c4tui.ai.best_line import best_column, follow_best_line
from c4tui.ai.perfect import exact_scores
from c4tui.engine.sequence import play_sequence

#: Openings in the solvers' digits: the empty board, after 4 moves, after 10.
OPENINGS = ("", "4453", "4444", "1726", "4453443322", "3354462211", "2345671234")


def slowest_analysis(opening: str) -> float:
    """The longest exact scores of every column (the analysis row) along the best line."""
    state = play_sequence(opening)
    slowest = 0.0
    while not state.is_over:
        started = time.perf_counter()
        scores = exact_scores(state)
        slowest = max(slowest, time.perf_counter() - started)
        assert scores is not None
        state = state.drop(best_column(scores))
    return slowest


def measure(opening: str) -> None:
    """One opening: cold and warm line times, the slowest ply, the line."""
    perfect.solver_for.cache_clear()  # cold: a new table, as in a new worker
    state = play_sequence(opening)
    started = time.perf_counter()
    exact_scores(state)
    first = time.perf_counter() - started
    perfect.solver_for.cache_clear()
    started = time.perf_counter()
    line = follow_best_line(state)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    follow_best_line(state)
    warm = time.perf_counter() - started
    assert line is not None and line.complete
    digits = "".join(str(move.column + 1) for move in line.moves)
    row = slowest_analysis(opening)
    print(
        f"{opening or '(empty)':>12} {len(opening):>3} plies  first ply {first:6.2f} s  "
        f"line cold {cold:6.2f} s  warm {warm:6.2f} s  slowest row {row:5.2f} s"
        f"  {len(line.moves):>2} moves, {line.result_words}: {digits}"
    )


def main() -> int:
    """Measure every opening asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", default=",".join(OPENINGS), help="comma-separated digits")
    args = parser.parse_args()
    exact_scores(play_sequence("4"))  # compile (or load the compiled solver) once
    for opening in args.openings.split(","):
        measure(opening)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
