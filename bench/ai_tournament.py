"""Each AI level against the one below it, and how long Hard thinks.

Run: ``python bench/ai_tournament.py [--games 200] [--workers 2]``. Colours
alternate game by game; every game opens with two random plies; boards cycle
through 7×6 classic, 7×6 Pop Out and a random other size (4-12 each way, either
rules). A level's score is wins plus half the draws, over all its games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from c4tui.ai import ai_level
from c4tui.engine import GameState, Move, Player, Rules

PAIRS = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]
EXTRA_PAIRS = [("hard", "random"), ("hard", "easy")]
#: Hard against careful but weak players, who never blunder a win in one (issue 9's bar).
CAREFUL_PAIRS = [("hard", "careful")]


class CarefulPlayer:
    """Takes a win, blocks the opponent's win, never gives one away; otherwise the centre.

    The "casual but careful" person: no lookahead past one move, no mistakes in one.
    """

    cheap = True

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose_move(
        self, state: GameState, cancel: object = None, time_limit: object = None
    ) -> Move:
        """A win, else a block, else the most central move that hands over no win."""
        moves = list(state.legal_moves())
        for move in moves:
            if state.play(move).winner is state.turn:
                return move
        safe = [m for m in moves if not self._hands_over_a_win(state.play(m))]
        centre = (state.columns - 1) / 2
        pool = safe or moves
        nearest = min(abs(m.column - centre) for m in pool)
        return self._random.choice([m for m in pool if abs(m.column - centre) == nearest])

    @staticmethod
    def _hands_over_a_win(after: GameState) -> bool:
        if after.is_over:
            return after.winner is not None and after.winner is after.turn
        return any(after.play(reply).winner is after.turn for reply in after.legal_moves())


def make_player(key: str, seed: int):  # noqa: ANN201 (a MovePicker or the bench's own player)
    """A level from the registry, or one of the bench's heuristic players."""
    return CarefulPlayer(seed) if key == "careful" else ai_level(key).make(seed)


MAX_PLIES = 400  # a Pop Out game this long is scored as a draw


@dataclass(frozen=True)
class GameSpec:
    """One game to play."""

    strong: str
    weak: str
    strong_is_red: bool
    columns: int
    rows: int
    rules: Rules
    seed: int


def board_for(index: int, rng: random.Random) -> tuple[int, int, Rules]:
    """7×6 classic, 7×6 Pop Out, or a random other board, in turn."""
    kind = index % 3
    if kind == 0:
        return 7, 6, Rules.CLASSIC
    if kind == 1:
        return 7, 6, Rules.POPOUT
    return rng.randint(4, 12), rng.randint(4, 12), rng.choice(list(Rules))


def play(spec: GameSpec) -> tuple[GameSpec, float, list[tuple[str, str, float]]]:
    """Play one game; the strong side's score and every think time (level, board, s)."""
    rng = random.Random(spec.seed)
    red_key, yellow_key = (
        (spec.strong, spec.weak) if spec.strong_is_red else (spec.weak, spec.strong)
    )
    players = {
        Player.RED: make_player(red_key, spec.seed),
        Player.YELLOW: make_player(yellow_key, spec.seed + 1),
    }
    keys = {Player.RED: red_key, Player.YELLOW: yellow_key}
    state = GameState.new(spec.columns, spec.rows, spec.rules)
    for _ in range(2):  # the opening: two random plies
        if not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
    board = f"{spec.columns}x{spec.rows} {spec.rules.value}"
    thinks = []
    plies = 0
    while not state.is_over and plies < MAX_PLIES:
        began = time.perf_counter()
        move = players[state.turn].choose_move(state)
        thinks.append((keys[state.turn], board, time.perf_counter() - began))
        state = state.play(move)
        plies += 1
    strong_colour = Player.RED if spec.strong_is_red else Player.YELLOW
    return spec, score_for(state, strong_colour), thinks


def score_for(state: GameState, player: Player) -> float:
    """1 for a win, 0.5 for a draw (or a game cut off at MAX_PLIES), 0 for a loss."""
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner is player else 0.0


def schedule(pairs: list[tuple[str, str]], games: int, seed: int) -> list[GameSpec]:
    """``games`` games per pair, colours alternating, boards cycling."""
    rng = random.Random(seed)
    specs = []
    for strong, weak in pairs:
        for index in range(games):
            columns, rows, rules = board_for(index // 2, rng)
            specs.append(
                GameSpec(strong, weak, index % 2 == 0, columns, rows, rules, rng.randrange(10**9))
            )
    return specs


def think_on_big_boards(moves: int) -> list[tuple[str, str, float]]:
    """Hard's think times on 20×20 (both rules), against Random, from mid-game positions."""
    hard = ai_level("hard").make(0)
    rng = random.Random(7)
    times = []
    for rules in Rules:
        state = GameState.new(20, 20, rules)
        for _ in range(moves):
            if state.is_over:
                state = GameState.new(20, 20, rules)
            began = time.perf_counter()
            move = hard.choose_move(state)
            times.append(("hard", f"20x20 {rules.value}", time.perf_counter() - began))
            state = state.play(move)
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    """Run the tournament and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per adjacent pair")
    parser.add_argument("--extra-games", type=int, default=50, help="games of Hard vs Random/Easy")
    parser.add_argument(
        "--careful-games", type=int, default=50, help="games of Hard vs the careful player"
    )
    parser.add_argument("--only-careful", action="store_true", help="play only those games")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    specs = [] if args.only_careful else schedule(PAIRS, args.games, args.seed)
    if not args.only_careful:
        specs += schedule(EXTRA_PAIRS, args.extra_games, args.seed + 1)
    specs += schedule(CAREFUL_PAIRS, args.careful_games, args.seed + 2)
    began = time.perf_counter()
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_board: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    thinks: list[tuple[str, str, float]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for spec, score, game_thinks in pool.map(play, specs, chunksize=4):
            scores[(spec.strong, spec.weak)].append(score)
            kind = f"{spec.columns}x{spec.rows} {spec.rules.value}"
            kind = kind if kind in ("7x6 classic", "7x6 popout") else "other sizes"
            by_board[(spec.strong, spec.weak, kind)].append(score)
            thinks.extend(game_thinks)
        if not args.only_careful:
            thinks.extend(pool.submit(think_on_big_boards, 15).result())
    print(
        f"{'pairing':<18} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>7}"
        f"   {'7x6 classic':>11} {'7x6 popout':>10} {'other':>6}"
    )
    for pair, results in scores.items():
        wins, draws = results.count(1.0), results.count(0.5)
        cells = []
        for kind in ("7x6 classic", "7x6 popout", "other sizes"):
            part = by_board[(*pair, kind)]
            cells.append(f"{100 * sum(part) / len(part):.0f}%" if part else "-")
        print(
            f"{pair[0] + ' v ' + pair[1]:<18} {len(results):>5} {wins:>4} {draws:>4} "
            f"{len(results) - wins - draws:>4} {100 * sum(results) / len(results):>6.1f}%"
            f"   {cells[0]:>11} {cells[1]:>10} {cells[2]:>6}"
        )
    print()
    print(f"{'think time (s)':<28} {'moves':>6} {'median':>7} {'p95':>7} {'max':>7}")
    groups: dict[str, list[float]] = defaultdict(list)
    for level, board, seconds in thinks:
        groups[level].append(seconds)
        if level == "hard" and board.startswith("20x20"):
            groups["hard on " + board].append(seconds)
    for name, values in sorted(groups.items()):
        print(
            f"{name:<28} {len(values):>6} {statistics.median(values):>7.3f} "
            f"{percentile(values, 0.95):>7.3f} {max(values):>7.3f}"
        )
    print(f"\nwall time {time.perf_counter() - began:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
