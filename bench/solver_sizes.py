"""The exact solver on other boards, beside Pascal Pons's C++ solver compiled for each.

Run: ``python bench/solver_sizes.py --pons CHECKOUT [--sizes 6x5,5x6,...] [--positions 40]
[--seed 1] [--save tests/data/sizes]``.

CHECKOUT is a clone of https://github.com/PascalPons/connect4 (AGPL: a yardstick
only, never vendored, never a dependency). For each board the script copies its
sources into the user's cache folder, sets the board's width and height in
``Position.hpp`` and builds his ``Solver.cpp`` with a timing driver of ours
(``DRIVER``: g++ -O3, as his Makefile), once. It then makes random positions
(random moves that never complete a four, stopped at a random depth from a third
of the board to eight cells short of full), solves each with that build and
with c4tui's solver in this process, both tables emptied before each position,
checks that every score agrees, and prints each board's mean time a position
and the ratio, marked ok or MISSED against the goal of at most 1.0x his.
``--save`` writes the positions and his scores, for the tests' samples.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import platformdirs
from solver import fmt

from c4tui.ai.exact_boards import solvable
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState
from c4tui.engine.sequence import play_sequence

DEFAULT_SIZES = "6x5,5x6,8x5,6x6,7x7,8x6,8x7"
#: Our timing driver for his solver (his ``main.cpp`` prints no times): one line a
#: position in, ``score microseconds`` out, his table reset before each position.
DRIVER = r"""
#include <chrono>
#include <iostream>
#include <string>
#include "Solver.hpp"
using namespace GameSolver::Connect4;
int main() {
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    P.play(line);
    solver.reset();
    auto started = std::chrono::steady_clock::now();
    int score = solver.solve(P);
    auto took = std::chrono::steady_clock::now() - started;
    std::cout << score << " "
              << std::chrono::duration_cast<std::chrono::nanoseconds>(took).count() / 1000.0
              << std::endl;
  }
}
"""
BUILDS = Path(platformdirs.user_cache_dir("c4tui")) / "bench" / "pons-builds"
#: The positions stop at least this many cells short of a full board.
FEWEST_EMPTY = 8


def build_pons(checkout: Path, columns: int, rows: int) -> Path:
    """Pons's solver with our timing driver, compiled for this board (once, kept in the cache)."""
    commit = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    folder = BUILDS / f"{commit or 'checkout'}-{columns}x{rows}"
    solver = folder / "timed"
    if solver.exists():
        return solver
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(checkout, folder, ignore=shutil.ignore_patterns(".git", "*.o"))
    header = folder / "Position.hpp"
    text = header.read_text(encoding="utf-8")
    text = re.sub(r"(static constexpr int WIDTH = )\d+;", rf"\g<1>{columns};", text)
    text = re.sub(r"(static constexpr int HEIGHT = )\d+;", rf"\g<1>{rows};", text)
    header.write_text(text, encoding="utf-8")
    (folder / "timing.cpp").write_text(DRIVER, encoding="utf-8")
    print(f"building Pons's solver for {columns} x {rows} ...", flush=True)
    command = ["g++", "--std=c++11", "-O3", "-DNDEBUG", "-o", "timed", "timing.cpp", "Solver.cpp"]
    subprocess.run(command, cwd=folder, check=True, capture_output=True)
    return solver


def random_positions(columns: int, rows: int, count: int, seed: int) -> list[str]:
    """Move sequences (digits from 1) of random games, none of them complete a four."""
    chance = random.Random(seed)
    cells = columns * rows
    found: list[str] = []
    while len(found) < count:
        depth = chance.randint(cells // 3, cells - FEWEST_EMPTY)
        state, moves = GameState.new(columns, rows), ""
        while len(moves) < depth:
            safe = [m for m in state.legal_moves() if state.play(m).winner is None]
            if not safe:
                break
            move = chance.choice(safe)
            state, moves = state.play(move), moves + str(move.column + 1)
        if len(moves) == depth and not state.is_over and moves not in found:
            found.append(moves)
    return found


def time_pons(solver: Path, lines: list[str]) -> list[tuple[int, float]]:
    """His score and seconds for each position, his table reset before each (as ours is)."""
    finished = subprocess.run(
        [str(solver)],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [answer.split() for answer in finished.stdout.splitlines()]
    return [(int(score), float(micros) / 1e6) for score, micros in answers]


def time_ours(columns: int, rows: int, lines: list[str]) -> list[tuple[int, float]]:
    """c4tui's score and seconds for each position, its table emptied before each."""
    solver = Solver(columns, rows)
    solver.solve(Position.of(play_sequence(lines[0], columns, rows)))  # load the compiled code
    answers = []
    for line in lines:
        position = Position.of(play_sequence(line, columns, rows))
        solver.table.fill(0)
        started = time.perf_counter()
        score = solver.solve(position)
        answers.append((score, time.perf_counter() - started))
    return answers


def main() -> int:
    """Build, time and compare each board; exit 1 if a score differs or a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", type=Path, required=True, help="a PascalPons/connect4 clone")
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated WxH boards")
    parser.add_argument("--positions", type=int, default=40, help="random positions a board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write WxH.txt: each position and its score")
    args = parser.parse_args()
    print(f"{'board':6} {'n':>4} {'wrong':>5} {'c4tui':>10} {'Pons':>10}   ratio")
    failed = False
    for size in args.sizes.split(","):
        columns, rows = (int(part) for part in size.lower().split("x"))
        if not solvable(columns, rows):
            print(f"{size:6} refused by c4tui's solver")
            failed = True
            continue
        lines = random_positions(columns, rows, args.positions, args.seed)
        theirs = time_pons(build_pons(args.pons, columns, rows), lines)
        ours = time_ours(columns, rows, lines)
        wrong = sum(mine[0] != his[0] for mine, his in zip(ours, theirs, strict=True))
        our_mean = statistics.fmean(seconds for _, seconds in ours)
        their_mean = statistics.fmean(seconds for _, seconds in theirs)
        ratio = our_mean / their_mean if their_mean else float("inf")
        verdict = "ok" if wrong == 0 and ratio <= 1.0 else "MISSED"
        failed |= verdict != "ok"
        print(
            f"{size:6} {len(lines):4} {wrong:5} {fmt(our_mean):>10} {fmt(their_mean):>10} "
            f"{ratio:6.2f}x {verdict}",
            flush=True,
        )
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            saved = "".join(f"{line} {his[0]}\n" for line, his in zip(lines, theirs, strict=True))
            (args.save / f"{columns}x{rows}.txt").write_text(saved, encoding="utf-8")
    print("goal: mean per position <= 1.0x Pons's solver built for the board, the same scores")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
