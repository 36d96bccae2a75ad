"""The solver's review of a tournament's games: what one game costs, and how many a minute.

Run: ``python bench/review.py [--games 40] [--workers 2] [--opening-plies 2] [--seed 1]
[--levels random,easy,medium,hard,perfect]``. It plays ``--games`` 7 × 6 classic games
between the levels (each pair of ``--levels`` in turn, both colours, every game from a
random opening of ``--opening-plies`` moves; the levels play fast, 0.05 s a move, which
is beside the point here), then reviews them in a ``SearchPool`` as ``c4tui tournament``
does: on one worker, first one game alone (the worker starts and loads the solver: paid
once per worker), then each game alone (one game's review: mean, median, 95th
percentile, max); then all of them at once on ``--workers`` fresh processes (games a
minute, their start included). A class's tournament of a few hundred games should take
a minute or so to review, not a coffee break.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import time

from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Move, Player
from c4tui.match.pool import SearchPool
from c4tui.tournament.review import GameReview, review_game

LEVELS = ("random", "easy", "medium", "hard", "perfect")
#: The levels' time per move while the games are made (their strength does not matter).
MOVE_SECONDS = 0.05


def play_game(red: str, yellow: str, opening_plies: int, seed: int) -> tuple[Move, ...]:
    """One game between two levels from a random opening, as the moves from the empty board."""
    chooser = random.Random(seed)
    state = GameState.new()
    moves: list[Move] = []
    while len(moves) < opening_plies and not state.is_over:
        moves.append(chooser.choice(state.legal_moves()))
        state = state.play(moves[-1])
    pickers = {Player.RED: ai_level(red).make(seed), Player.YELLOW: ai_level(yellow).make(seed)}
    while not state.is_over:
        moves.append(pickers[state.turn].choose_move(state, None, MOVE_SECONDS))
        state = state.play(moves[-1])
    return tuple(moves)


def make_games(
    levels: list[str], count: int, opening_plies: int, seed: int
) -> list[tuple[Move, ...]]:
    """``count`` games, the pairs of ``levels`` taken in turn."""
    pairs = itertools.cycle(itertools.permutations(levels, 2))
    return [play_game(*next(pairs), opening_plies, seed + number) for number in range(count)]


async def timed(
    pool: SearchPool, moves: tuple[Move, ...], plies: int, owner: int
) -> tuple[float, GameReview]:
    """One game's review and its wall time."""
    started = time.perf_counter()
    review = await review_game(pool, moves, plies, owner=owner)
    return time.perf_counter() - started, review


async def each_alone(games: list[tuple[Move, ...]], plies: int) -> None:
    """One worker: the first review (with the solver's loading), then each game alone."""
    pool = SearchPool(workers=1)
    try:
        first, _ = await timed(pool, games[0], plies, 0)
        print(f"first review (the worker starts, the solver loads): {first:.2f} s")
        alone = sorted([(await timed(pool, moves, plies, n))[0] for n, moves in enumerate(games)])
        p95 = alone[min(len(alone) - 1, int(0.95 * len(alone)))]
        print(
            f"one game alone: mean {statistics.mean(alone):.3f} s, "
            f"median {statistics.median(alone):.3f} s, p95 {p95:.3f} s, max {alone[-1]:.3f} s"
        )
    finally:
        pool.shutdown()


async def all_at_once(games: list[tuple[Move, ...]], workers: int, plies: int) -> None:
    """Fresh workers (their start and the solver's loading counted): every game at once."""
    pool = SearchPool(workers=workers)
    try:
        started = time.perf_counter()
        reviews = await asyncio.gather(
            *(timed(pool, moves, plies, n) for n, moves in enumerate(games))
        )
        wall = time.perf_counter() - started
    finally:
        pool.shutdown()
    judged = sum(len(review.verdicts) for _, review in reviews)
    mistakes = sum(len(review.mistakes()) for _, review in reviews)
    print(
        f"{len(games)} games at once on {workers} fresh workers: {wall:.2f} s, "
        f"{60 * len(games) / wall:.0f} games a minute; {judged} moves judged, "
        f"{mistakes} mistakes"
    )


def main() -> int:
    """Make the games, then measure their review."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated")
    args = parser.parse_args()
    started = time.perf_counter()
    games = make_games(args.levels.split(","), args.games, args.opening_plies, args.seed)
    plies = sum(map(len, games))
    print(
        f"{len(games)} games made ({plies / len(games):.1f} moves on average) "
        f"in {time.perf_counter() - started:.1f} s"
    )
    asyncio.run(each_alone(games, args.opening_plies))
    asyncio.run(all_at_once(games, args.workers, args.opening_plies))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
