"""Perfect on 7 × 6 classic: how long each move takes, and whether each one is optimal.

Run: ``python bench/perfect.py [--games N] [--seed S]``. Perfect plays whole games
as red and as yellow against the other levels (in this process, its table kept
between moves as in a real game); every move it makes is checked against a
separate solver's analysis, and the think times are summarised (mean, p95, max, the
slowest five with their disc counts) against the goal: every reply within 0.3 s.
The solver is first warmed as the app's pool worker warms it while the menu shows
Perfect (``bench/perfect_first.py`` times that path, through the real pool).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from c4tui.ai.levels import ai_level
from c4tui.ai.perfect import PerfectPlayer
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Player
from c4tui.match.pool_worker import warm_up_job

OPPONENTS = ("random", "easy", "medium", "hard")
#: The goal: every reply of Perfect's within this many seconds of thinking.
GOAL_SECONDS = 0.3
#: (seconds, discs on the board, opponent) of every move Perfect made, for the slowest.
SLOWEST: list[tuple[float, int, str]] = []


def play_game(
    perfect: PerfectPlayer, opponent_key: str, perfect_colour: Player, seed: int, checker: Solver
) -> tuple[list[float], int, Player | None]:
    """One game: Perfect's think times, its suboptimal moves, and the winner."""
    opponent = ai_level(opponent_key).make(seed)
    state = GameState.new()
    times: list[float] = []
    suboptimal = 0
    while not state.is_over:
        if state.turn is perfect_colour:
            started = time.perf_counter()
            move = perfect.choose_move(state)
            times.append(time.perf_counter() - started)
            SLOWEST.append((times[-1], state.disc_count, opponent_key))
            scores = checker.analyse(Position.of(state))
            best = max(score for score in scores if score is not None)
            suboptimal += scores[move.column] != best
        else:
            move = opponent.choose_move(state)
        state = state.play(move)
    return times, suboptimal, state.winner


def main() -> int:
    """Play the games and print one line per opponent, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per opponent and colour")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    perfect = PerfectPlayer(1.0)
    checker = Solver()
    started = time.perf_counter()
    warm_up_job(GameState.new())  # what the app's pool worker does while the menu shows Perfect
    print(
        f"warm-up (while the menu shows; bench/perfect_first.py times it in the app's pool): "
        f"{time.perf_counter() - started:.3f} s"
    )
    all_times: list[float] = []
    all_suboptimal = 0
    for opponent in OPPONENTS:
        results = {"won": 0, "drawn": 0, "lost": 0}
        for game in range(args.games):
            for colour in Player:
                times, suboptimal, winner = play_game(
                    perfect, opponent, colour, args.seed + game, checker
                )
                all_times += times
                all_suboptimal += suboptimal
                outcome = "drawn" if winner is None else "won" if winner is colour else "lost"
                results[outcome] += 1
        print(f"vs {opponent:7} {results}", flush=True)
    ordered = sorted(all_times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"{len(all_times)} moves: mean {statistics.fmean(all_times):.3f} s, p95 {p95:.3f} s, "
        f"max {ordered[-1]:.3f} s; suboptimal moves: {all_suboptimal}"
    )
    slowest = ", ".join(f"{t:.3f} s at {d} discs ({o})" for t, d, o in sorted(SLOWEST)[-5:][::-1])
    print(f"slowest: {slowest}")
    met = ordered[-1] <= GOAL_SECONDS
    print(f"goal: every reply <= {GOAL_SECONDS} s: {'ok' if met else 'MISSED'}")
    return 1 if all_suboptimal or not met else 0


if __name__ == "__main__":
    sys.exit(main())
