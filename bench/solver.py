"""How fast the exact solver is on Pascal Pons's benchmark sets, beside the C++ reference.

Run: ``python bench/solver.py [--sets L3_R1,L2_R1,...] [--limit N] [--data DIR]``.
Every score is checked against the set's answer; the script prints, per set,
the mean time and nodes per position (library calls, solver warmed up, one
transposition table shared across the sets as in Pons's benchmark), beside
BitBully's best mean on the same positions in the same run (installed in a
virtual environment of its own, see ``bitbully_yardstick.py``), and whether
the goal (at most 1.0x BitBully) is met. ``--no-bitbully`` skips the yardstick.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bitbully_yardstick import best_means, time_bitbully

from c4tui.ai.solver import Position, Solver
from c4tui.ai.solver.jit import COMPILED
from c4tui.engine.sequence import play_sequence

#: Mean seconds per position of Pons's C++ solver without a book (his set's README).
REFERENCE = {
    "L3_R1": 7e-6,
    "L2_R1": 58e-6,
    "L2_R2": 5.4e-3,
    "L1_R1": 0.38e-3,
    "L1_R2": 0.16,
    "L1_R3": 8.0,
}
REFERENCE_NOTE = "7 µs, 58 µs, 5.4 ms, 0.38 ms, 0.16 s, 8 s (L3_R1 ... L1_R3)"
DEFAULT_LIMITS = {
    "L3_R1": 1000,
    "L2_R1": 1000,
    "L2_R2": 1000,
    "L1_R1": 1000,
    "L1_R2": 1000,
    "L1_R3": 1000,
}
HERE = Path(__file__).resolve().parent
DATA_PLACES = [
    HERE.parent.parent / "shared" / "data" / "pons",
    HERE.parent / "tests" / "data" / "pons",
]


def find_set(name: str, data: Path | None) -> Path | None:
    """The set's file: the full set if it is at hand, else the tests' sample."""
    places = [data] if data else DATA_PLACES
    for place in places:
        for file_name in (f"Test_{name}", f"Test_{name}_sample"):
            if (place / file_name).exists():
                return place / file_name
    return None


def run_set(solver: Solver, path: Path, limit: int) -> tuple[int, int, float, float, float]:
    """(positions, wrong answers, mean seconds, p95 seconds, mean nodes) over one set."""
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    times, nodes, wrong = [], [], 0
    for sequence, expected in lines[:limit]:
        position = Position.of(play_sequence(sequence))
        started = time.perf_counter()
        score = solver.solve(position)
        times.append(time.perf_counter() - started)
        nodes.append(solver.stats.nodes)
        wrong += score != int(expected)
    times_sorted = sorted(times)
    p95 = times_sorted[int(0.95 * (len(times) - 1))]
    return len(times), wrong, statistics.fmean(times), p95, statistics.fmean(nodes)


def main() -> int:
    """Run the chosen sets, BitBully's then ours, and print one line per set; exit 1 on a miss."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(REFERENCE), help="comma-separated set names")
    parser.add_argument("--limit", type=int, default=0, help="positions per set (0: the default)")
    parser.add_argument("--data", type=Path, help="folder with the Test_* files")
    parser.add_argument("--no-bitbully", action="store_true", help="skip the yardstick")
    args = parser.parse_args()
    sets = []
    for name in args.sets.split(","):
        path = find_set(name, args.data)
        if path is None:
            print(f"{name:7} (no data)")
        else:
            sets.append((name, path, args.limit or DEFAULT_LIMITS.get(name, 1000)))
    yardstick = {} if args.no_bitbully else best_means(time_bitbully(sets))
    solver = Solver()
    solver.solve(Position.of(play_sequence("4453")))  # load the compiled code and the book
    print(f"compiled core: {COMPILED}; opening book: {solver.has_book}")
    titles = ("n", 5), ("wrong", 5), ("mean", 10), ("p95", 10), ("nodes", 8), ("BitBully", 10)
    print(f"{'set':7} " + " ".join(f"{title:>{width}}" for title, width in titles) + "   ratio")
    failed = False
    for name, path, limit in sets:
        count, wrong, mean, p95, nodes = run_set(solver, path, limit)
        failed |= wrong > 0
        line = f"{name:7} {count:5} {wrong:5} {fmt(mean):>10} {fmt(p95):>10} {nodes:8.0f} "
        if name in yardstick:
            best, search, its_wrong = yardstick[name]
            verdict = "ok" if mean <= best else "MISSED"
            failed |= mean > best or its_wrong > 0
            line += f"{fmt(best):>10} {mean / best:6.2f}x {verdict:6} (BitBully's {search})"
        print(line, flush=True)
    print(
        f"goal: mean per position <= 1.0x BitBully (0.0.79, 12-ply book) on every set; "
        f"Pons's C++ without a book, on this machine: {REFERENCE_NOTE}"
    )
    return 1 if failed else 0


def fmt(seconds: float) -> str:
    """Seconds in the unit that reads best."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    sys.exit(main())
