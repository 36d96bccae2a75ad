"""The app's analysis proven from any position: every classic board up to 42 cells, timed.

Run: ``python bench/books.py [--positions 60] [--seed 1] [--boards 6x6,5x8]
[--budget 1.0]``.

For each board the solver holds with at most 42 cells it says whether the app
proves its analysis there (``has_exact_play``: 25 cells or fewer, or a book in
``assets/books/``), then asks what the analysis asks, every column's exact score
(``exact_scores``, no deadline), of random positions: the empty board, the
positions just past the book's depth (where the search has the most to do), and
others at depths spread over the whole game. One solver a board, its table kept
from position to position as in the app. Each board's slowest answer is marked
ok or MISSED against the analysis's time (``ANALYSIS_SECONDS``), and the shipped
books' size against the 20 MB goal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from c4tui.ai.exact_boards import BOOK_FOLDER, PROVEN_CELLS_GOAL, QUICK_CELLS, boards_up_to
from c4tui.ai.perfect import exact_scores, has_exact_play
from c4tui.ai.solver.book import opening_book
from c4tui.engine import MIN_SIZE, GameState
from c4tui.storage import asset_path
from c4tui.ui.advice import ANALYSIS_SECONDS

#: The shipped books' goal, in bytes, all together.
BOOKS_BUDGET = 20 * 1024 * 1024
#: Positions just past the book's depth: the most searching a book leaves.
PAST_BOOK = 3


def random_position(columns: int, rows: int, depth: int, rng: random.Random) -> GameState:
    """A game of random drops stopped at ``depth`` discs, or earlier if it ends first."""
    while True:
        state = GameState.new(columns, rows)
        for _ in range(depth):
            moves = [move for move in state.legal_moves() if not state.play(move).is_over]
            if not moves:
                break
            state = state.play(rng.choice(moves))
        if not state.is_over:
            return state


def depths_to_try(columns: int, rows: int, count: int) -> list[int]:
    """The empty board, the depths just past the book, then depths spread over the game."""
    book = opening_book(columns, rows)
    cells = columns * rows
    first = [0] + ([book.depth + 1 + step for step in range(PAST_BOOK)] if book else [])
    spread = [round(index * (cells - 2) / max(1, count - 1)) for index in range(count)]
    return first * max(1, count // (4 * len(first))) + spread


def time_board(columns: int, rows: int, count: int, rng: random.Random) -> list[tuple[float, int]]:
    """The seconds each analysis took and the position's discs, slowest last."""
    times = []
    for depth in depths_to_try(columns, rows, count):
        state = random_position(columns, rows, depth, rng)
        started = time.perf_counter()
        scores = exact_scores(state)
        times.append((time.perf_counter() - started, state.disc_count))
        assert scores is not None  # no deadline: always proven
    return sorted(times)


def discs_said(discs: int) -> str:
    """``1 disc``, ``5 discs``, ``the empty board``."""
    if discs == 0:
        return "the empty board"
    return f"{discs} disc{'s' if discs != 1 else ''}"


def books_size() -> int:
    """The bytes of every book shipped under ``assets/books/``."""
    folder = asset_path(BOOK_FOLDER)
    return sum(path.stat().st_size for path in folder.glob("*")) if folder.is_dir() else 0


def main(argv: list[str] | None = None) -> int:
    """Time every board asked for; 1 if any goal was missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="positions a board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", help="e.g. 6x6,5x8 (default: every board up to 42 cells)")
    parser.add_argument("--budget", type=float, default=ANALYSIS_SECONDS, help="seconds")
    args = parser.parse_args(argv)
    chosen = boards_up_to(PROVEN_CELLS_GOAL)
    if args.boards:
        chosen = [tuple(map(int, size.split("x"))) for size in args.boards.split(",")]  # type: ignore[misc]
    rng = random.Random(args.seed)
    exact_scores(GameState.new(MIN_SIZE, MIN_SIZE))  # Numba's code loaded before any timing
    missed = 0
    print(f"{'board':>6} {'how':>9} {'n':>4} {'median':>9} {'p95':>9} {'slowest':>9}")
    for columns, rows in chosen:
        state = GameState.new(columns, rows)
        book = opening_book(columns, rows)
        how = (
            f"book {book.depth}" if book else ("small" if columns * rows <= QUICK_CELLS else "none")
        )
        if not has_exact_play(state):
            missed += 1
            print(f"{columns:>3}x{rows:<2} {how:>9}    -  not proven: MISSED", flush=True)
            continue
        timed = time_board(columns, rows, args.positions, rng)
        times = [seconds for seconds, _ in timed]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        verdict = "ok" if times[-1] <= args.budget else "MISSED"
        missed += verdict != "ok"
        print(
            f"{columns:>3}x{rows:<2} {how:>9} {len(times):>4} "
            f"{statistics.median(times) * 1e3:>7.1f}ms {p95 * 1e3:>7.1f}ms "
            f"{times[-1] * 1e3:>7.1f}ms  {verdict} (the slowest: {discs_said(timed[-1][1])})",
            flush=True,
        )
    size = books_size()
    verdict = "ok" if size <= BOOKS_BUDGET else "MISSED"
    print(f"books shipped: {size:,} bytes in all ({verdict}: the goal is under 20 MB)")
    return 1 if missed or verdict != "ok" else 0


if __name__ == "__main__":
    sys.exit(main())
