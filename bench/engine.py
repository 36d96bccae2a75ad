"""How fast the rules engine plays: random playouts/s and legal-moves+apply operations/s.

Run: ``python bench/engine.py [--seconds S]``. Each figure is measured for
``--seconds`` of wall time on 7×6 and 20×20, classic and Pop Out.
"""

from __future__ import annotations

import argparse
import random
import time

from c4tui.engine import GameState, Rules

SIZES = [(7, 6), (20, 20)]
MAX_PLAYOUT_MOVES = 1000  # Pop Out random games could wander; a cap keeps every playout finite


def random_playout(state: GameState, rng: random.Random) -> tuple[GameState, int]:
    """Play random legal moves to the end (or the cap); the final state and moves played."""
    moves = 0
    while not state.is_over and moves < MAX_PLAYOUT_MOVES:
        state = state.play(rng.choice(state.legal_moves()))
        moves += 1
    return state, moves


def measure(columns: int, rows: int, rules: Rules, seconds: float) -> tuple[float, float, float]:
    """Playouts per second, (legal moves + apply) per second, and mean moves per playout."""
    rng = random.Random(1)
    start = GameState.new(columns, rows, rules)
    playouts = total_moves = 0
    began = time.perf_counter()
    deadline = began + seconds
    while time.perf_counter() < deadline:
        _, moves = random_playout(start, rng)
        playouts += 1
        total_moves += moves
    elapsed = time.perf_counter() - began
    return playouts / elapsed, total_moves / elapsed, total_moves / playouts


def main() -> None:
    """Print one table row per size and rule set."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    seconds = parser.parse_args().seconds
    print(f"{'board':>7} {'rules':>8} {'playouts/s':>11} {'ops/s':>10} {'moves/game':>11}")
    for columns, rows in SIZES:
        for rules in Rules:
            playouts, ops, length = measure(columns, rows, rules, seconds)
            size = f"{columns}x{rows}"
            print(f"{size:>7} {rules.value:>8} {playouts:>11.1f} {ops:>10.0f} {length:>11.1f}")


if __name__ == "__main__":
    main()
