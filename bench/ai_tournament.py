"""Each AI level against the one below it, Hard against careful players, and Hard's think times.

Run: ``python bench/ai_tournament.py [--games 200] [--workers 2]``. Colours
alternate game by game; every game opens with two random plies; boards cycle
through 7×6 classic, 7×6 Pop Out and a random other size (4-12 each way, either
rules). A level's score is wins plus half the draws, over all its games.

``--only-careful`` plays just issue 9's bar: Hard against players who never
blunder a win in one (``careful``: otherwise the centre; ``builder``: otherwise
the move that makes the most open threes), on 7×6 and larger boards under both
rules, as either colour, each game from a different random opening (``--opening-plies``)
plus ``--empty-games`` games from the empty board. ``--old-hard REV`` adds Hard
against the Hard of an older commit, which runs in its own process
(``bench/move_oracle.py``) from that commit's unpacked tree.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.moves import format_move, parse_move

PAIRS = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]
EXTRA_PAIRS = [("hard", "random"), ("hard", "easy")]
#: Issue 9's bar: Hard against careful but weak players, on 7×6 and larger boards.
CAREFUL_OPPONENTS = ("careful", "builder")
CAREFUL_BOARDS = (
    (7, 6, Rules.CLASSIC),
    (7, 6, Rules.POPOUT),
    (8, 7, Rules.CLASSIC),
    (8, 7, Rules.POPOUT),
    (10, 8, Rules.CLASSIC),
    (10, 8, Rules.POPOUT),
)
OLD_HARD = "old-hard"
MAX_PLIES = 400  # a Pop Out game this long is scored as a draw


class CarefulPlayer:
    """Takes a win, blocks the opponent's win, never gives one away; otherwise the centre.

    The "casual but careful" person of issue 9: no lookahead past one move, no
    mistakes in one. The ``builder`` variant prefers, among the safe moves, the
    one that makes the most open threes (three discs and a gap in a line of four)
    before it looks at the centre: a player who attacks, but only one move deep.
    """

    cheap = True

    def __init__(self, seed: int, builds_threes: bool = False) -> None:
        self._random = random.Random(seed)
        self._builds_threes = builds_threes

    def choose_move(
        self, state: GameState, cancel: object = None, time_limit: object = None
    ) -> Move:
        """A win, else a safe move (blocking a win in one if need be), most central first."""
        moves = list(state.legal_moves())
        for move in moves:
            if state.play(move).winner is state.turn:
                return move
        safe = [m for m in moves if not self._hands_over_a_win(state.play(m))]
        pool = safe or moves
        if self._builds_threes:
            threes = {m: open_threes(state.play(m), state.turn) for m in pool}
            most = max(threes.values())
            pool = [m for m in pool if threes[m] == most]
        centre = (state.columns - 1) / 2
        nearest = min(abs(m.column - centre) for m in pool)
        return self._random.choice([m for m in pool if abs(m.column - centre) == nearest])

    @staticmethod
    def _hands_over_a_win(after: GameState) -> bool:
        """True if the opponent can win at once (which also covers "did not block")."""
        if after.is_over:
            return after.winner is not None and after.winner is after.turn
        return any(after.play(reply).winner is after.turn for reply in after.legal_moves())


def open_threes(state: GameState, player: Player) -> int:
    """Lines of four cells holding three of ``player``'s discs and one empty cell."""
    count = 0
    for line in lines_of_four(state.columns, state.rows):
        owners = [state.cell(column, row) for column, row in line]
        if owners.count(player) == 3 and owners.count(None) == 1:
            count += 1
    return count


def lines_of_four(columns: int, rows: int) -> Iterator[list[tuple[int, int]]]:
    """Every horizontal, vertical and diagonal line of four cells on the board."""
    for column in range(columns):
        for row in range(rows):
            for step_column, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_column, end_row = column + 3 * step_column, row + 3 * step_row
                if 0 <= end_column < columns and 0 <= end_row < rows:
                    yield [(column + i * step_column, row + i * step_row) for i in range(4)]


class OracleProcess:
    """A level of another c4tui (an older commit) answering moves from its own process."""

    cheap = False

    def __init__(self, tree: str, level: str, state: GameState, seed: int) -> None:
        bench = Path(__file__).resolve().parent
        environment = {**os.environ, "PYTHONPATH": tree}
        self._process = subprocess.Popen(
            [sys.executable, str(bench / "move_oracle.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
            cwd=tree,
        )
        answer = self._ask(f"GAME {level} {state.columns} {state.rows} {state.rules.value} {seed}")
        if not answer.startswith(f"ok {tree}"):
            raise RuntimeError(f"the oracle did not load the old tree: {answer!r}")

    def _ask(self, line: str) -> str:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()
        return self._process.stdout.readline().strip()

    def choose_move(self, state: GameState, moves: list[Move]) -> Move:
        """The old level's move after ``moves`` (the whole game so far)."""
        return parse_move(self._ask("MOVE " + " ".join(format_move(m) for m in moves)))

    def close(self) -> None:
        """Stop the process."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=10)


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
    opening_plies: int = 2
    old_tree: str = ""

    @property
    def board(self) -> str:
        """The board's name in the tables: ``7x6 classic``."""
        return f"{self.columns}x{self.rows} {self.rules.value}"


def make_player(key: str, seed: int, spec: GameSpec, state: GameState):  # noqa: ANN201
    """A level from the registry, a bench heuristic player, or the old Hard's process."""
    if key == "careful":
        return CarefulPlayer(seed)
    if key == "builder":
        return CarefulPlayer(seed, builds_threes=True)
    if key == OLD_HARD:
        return OracleProcess(spec.old_tree, "hard", state, seed)
    return ai_level(key).make(seed)


def play(spec: GameSpec) -> tuple[GameSpec, float, list[tuple[str, str, float]]]:
    """Play one game; the strong side's score and every think time (level, board, s)."""
    rng = random.Random(spec.seed)
    red_key, yellow_key = (
        (spec.strong, spec.weak) if spec.strong_is_red else (spec.weak, spec.strong)
    )
    state = GameState.new(spec.columns, spec.rows, spec.rules)
    players = {
        Player.RED: make_player(red_key, spec.seed, spec, state),
        Player.YELLOW: make_player(yellow_key, spec.seed + 1, spec, state),
    }
    keys = {Player.RED: red_key, Player.YELLOW: yellow_key}
    moves: list[Move] = []
    for _ in range(spec.opening_plies):  # the opening: random plies
        if not state.is_over:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
    thinks = []
    try:
        while not state.is_over and len(moves) < MAX_PLIES:
            player = players[state.turn]
            began = time.perf_counter()
            if isinstance(player, OracleProcess):
                move = player.choose_move(state, moves)
            else:
                move = player.choose_move(state)
            thinks.append((keys[state.turn], spec.board, time.perf_counter() - began))
            moves.append(move)
            state = state.play(move)
    finally:
        for player in players.values():
            if isinstance(player, OracleProcess):
                player.close()
    strong_colour = Player.RED if spec.strong_is_red else Player.YELLOW
    return spec, score_for(state, strong_colour), thinks


def score_for(state: GameState, player: Player) -> float:
    """1 for a win, 0.5 for a draw (or a game cut off at MAX_PLIES), 0 for a loss."""
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner is player else 0.0


def board_for(index: int, rng: random.Random) -> tuple[int, int, Rules]:
    """7×6 classic, 7×6 Pop Out, or a random other board, in turn."""
    kind = index % 3
    if kind == 0:
        return 7, 6, Rules.CLASSIC
    if kind == 1:
        return 7, 6, Rules.POPOUT
    return rng.randint(4, 12), rng.randint(4, 12), rng.choice(list(Rules))


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


def schedule_per_board(
    opponents: tuple[str, ...], games: int, opening_plies: int, seed: int
) -> list[GameSpec]:
    """Hard against each opponent: ``games`` games per board and colour."""
    rng = random.Random(seed)
    return [
        GameSpec("hard", weak, red, columns, rows, rules, rng.randrange(10**9), opening_plies)
        for weak in opponents
        for columns, rows, rules in CAREFUL_BOARDS
        for red in (True, False)
        for _ in range(games)
    ]


def unpack_commit(revision: str, into: str) -> str:
    """Unpack ``revision`` of this repository's tree into ``into``; its path."""
    repository = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(repository), "archive", revision, "c4tui"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return str(Path(into).resolve())


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


def record(results: list[float]) -> str:
    """``W-D-L``."""
    wins, draws = results.count(1.0), results.count(0.5)
    return f"{wins}-{draws}-{len(results) - wins - draws}"


def print_level_table(
    scores: dict[tuple[str, str], list[float]], by_board: dict[tuple[str, str, str], list[float]]
) -> None:
    """The adjacent-levels table: each pairing's record and score per kind of board."""
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


def print_colour_table(title: str, games: dict[tuple[str, str, bool], list[float]]) -> None:
    """Hard's record (W-D-L) per opponent and board, as RED and as YELLOW, and its win rate."""
    print(f"\n{title}")
    print(f"{'opponent':<10} {'board':<13} {'Hard RED':>9} {'Hard YELLOW':>11} {'wins':>6}")
    for weak, board in dict.fromkeys((weak, board) for weak, board, _ in games):
        red, yellow = games.get((weak, board, True), []), games.get((weak, board, False), [])
        both = red + yellow
        print(
            f"{weak:<10} {board:<13} {record(red):>9} {record(yellow):>11} "
            f"{100 * both.count(1.0) / len(both):>5.0f}%"
        )
    for colour, name in ((True, "RED"), (False, "YELLOW")):
        every = [s for (_, _, red), part in games.items() if red is colour for s in part]
        if every:
            print(
                f"all games, Hard as {name}: {record(every)} = "
                f"{100 * every.count(1.0) / len(every):.1f}% wins"
            )


def main() -> None:
    """Run the tournament and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per adjacent pair")
    parser.add_argument("--extra-games", type=int, default=50, help="games of Hard vs Random/Easy")
    parser.add_argument(
        "--careful-games", type=int, default=5, help="Hard vs careful: games per board and colour"
    )
    parser.add_argument(
        "--empty-games", type=int, default=2, help="… and per board and colour from the empty board"
    )
    parser.add_argument("--opening-plies", type=int, default=2, help="random plies to open with")
    parser.add_argument("--only-careful", action="store_true", help="skip the adjacent levels")
    parser.add_argument("--old-hard", metavar="REV", help="also play Hard against REV's Hard")
    parser.add_argument(
        "--old-games", type=int, default=5, help="Hard vs old Hard: games per board and colour"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    specs = []
    if not args.only_careful:
        specs += schedule(PAIRS, args.games, args.seed)
        specs += schedule(EXTRA_PAIRS, args.extra_games, args.seed + 1)
    specs += schedule_per_board(
        CAREFUL_OPPONENTS, args.careful_games, args.opening_plies, args.seed + 2
    )
    specs += schedule_per_board(CAREFUL_OPPONENTS, args.empty_games, 0, args.seed + 3)
    with tempfile.TemporaryDirectory() as scratch:
        if args.old_hard:
            tree = unpack_commit(args.old_hard, scratch)
            old = schedule_per_board((OLD_HARD,), args.old_games, args.opening_plies, args.seed + 4)
            specs += [replace(spec, old_tree=tree) for spec in old]
        run(specs, args)


def run(specs: list[GameSpec], args: argparse.Namespace) -> None:
    """Play every game on ``args.workers`` processes and print the tables."""
    began = time.perf_counter()
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_board: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    careful: dict[tuple[str, str, bool], list[float]] = defaultdict(list)
    empty: dict[tuple[str, str, bool], list[float]] = defaultdict(list)
    old: dict[tuple[str, str, bool], list[float]] = defaultdict(list)
    thinks: list[tuple[str, str, float]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for spec, score, game_thinks in pool.map(play, specs, chunksize=1):
            thinks.extend(game_thinks)
            colour_key = (spec.weak, spec.board, spec.strong_is_red)
            if spec.weak == OLD_HARD:
                old[colour_key].append(score)
            elif spec.weak in CAREFUL_OPPONENTS:
                (careful if spec.opening_plies else empty)[colour_key].append(score)
            else:
                scores[(spec.strong, spec.weak)].append(score)
                kind = spec.board if spec.board in ("7x6 classic", "7x6 popout") else "other sizes"
                by_board[(spec.strong, spec.weak, kind)].append(score)
        if not args.only_careful:
            thinks.extend(pool.submit(think_on_big_boards, 15).result())
    if scores:
        print_level_table(scores, by_board)
    if careful:
        print_colour_table(
            f"Hard v careful players, {args.opening_plies} random opening plies (W-D-L)", careful
        )
    if empty:
        print_colour_table("Hard v careful players from the empty board (W-D-L)", empty)
    if old:
        print_colour_table(f"Hard v the Hard of {args.old_hard} (W-D-L)", old)
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
