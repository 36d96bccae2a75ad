"""What each column's drop leads to: proven where the solver can, estimated by search elsewhere.

The app shows one short label under each column ("W3", "D", "L5") and the hint
uses the best column. Counting is in the mover's own moves: "win in 3" means
the mover's third move from now (this one included) makes four; "loss in 5"
means the opponent's fifth move from now does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

from c4tui.ai.best_line import best_column
from c4tui.ai.perfect import exact_scores, has_exact_play
from c4tui.ai.search import DECIDED, WIN, CancelFlag, SearchAborted, SearchResult, search
from c4tui.engine import GameState, Move, MoveKind

#: Search scores this far from 0 (in its threat units) count as clearly better or worse.
CLEAR_EDGE = 60


class Outcome(Enum):
    """What a move leads to, as far as is known."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    BETTER = "looks good"
    EVEN = "looks even"
    WORSE = "looks bad"


@dataclass(frozen=True)
class ColumnVerdict:
    """One column's outcome; ``moves`` counts to the end for a win or a loss."""

    outcome: Outcome
    moves: int = 0
    score: int = 0  # for ranking columns: higher is better for the mover

    @property
    def label(self) -> str:
        """At most three characters, for under the column."""
        short = {
            Outcome.WIN: f"W{self.moves}",
            Outcome.LOSS: f"L{self.moves}",
            Outcome.DRAW: "D",
            Outcome.BETTER: "+",
            Outcome.EVEN: "=",
            Outcome.WORSE: "-",
        }[self.outcome]
        return short if len(short) <= 3 else short[0] + "+"

    @property
    def words(self) -> str:
        """For a sentence: "win in 3", "draw", "looks good"."""
        if self.outcome in (Outcome.WIN, Outcome.LOSS):
            return f"{self.outcome.value} in {self.moves}"
        return str(self.outcome.value)


@dataclass(frozen=True)
class Analysis:
    """Every column's verdict (None: no drop there) and whether they are proven."""

    exact: bool
    columns: tuple[ColumnVerdict | None, ...]

    def best_column(self) -> int:
        """The best column, nearest the centre among equals (raises ValueError if none)."""
        return best_column([None if v is None else v.score for v in self.columns])

    def best_columns(self) -> frozenset[int]:
        """Every column whose label is as good as the best one's: equals, as the row shows them."""
        best = self.columns[self.best_column()]
        return frozenset(c for c, v in enumerate(self.columns) if _alike(v, best))

    def all_alike(self) -> bool:
        """True when no column can be told from another: each is one of the best."""
        return len(self.best_columns()) == sum(v is not None for v in self.columns)

    def hint(self, depth: int) -> SearchResult:
        """The best column as a hint, with what the analysis knows of it (a win, a loss)."""
        column = self.best_column()
        verdict = self.columns[column]
        assert verdict is not None  # the best column is a playable one
        outlook = {Outcome.WIN: WIN, Outcome.LOSS: -WIN}.get(verdict.outcome, 0)
        return SearchResult(Move.drop(column), outlook, depth, 0)


def _alike(verdict: ColumnVerdict | None, other: ColumnVerdict | None) -> bool:
    """Two verdicts that read the same under the board (the same outcome, as soon)."""
    if verdict is None or other is None:
        return False
    return (verdict.outcome, verdict.moves) == (other.outcome, other.moves)


def analyse_columns(state: GameState, seconds: float, cancel: CancelFlag | None = None) -> Analysis:
    """Each drop's outcome: exact where the solver can prove it in time, else by search.

    Raises ValueError if the game is over, SearchAborted if ``cancel`` is set.
    """
    if state.is_over:
        raise ValueError("the game is over: there is nothing to analyse")
    started = time.perf_counter()
    deadline = None if has_exact_play(state) else started + seconds / 2
    scores = exact_scores(state, cancel, deadline)
    if scores is not None:
        return Analysis(True, tuple(_exact_verdict(state, s) for s in scores))
    remaining = max(0.05, seconds - (time.perf_counter() - started))
    return _estimate(state, remaining, cancel)


def proven_hint(state: GameState, cancel: CancelFlag | None = None) -> SearchResult | None:
    """The best drop and its proven outcome where the solver answers at once, else None."""
    if state.is_over or not has_exact_play(state):
        return None
    return analyse_columns(state, 0.0, cancel).hint(state.columns * state.rows)


def _exact_verdict(state: GameState, score: int | None) -> ColumnVerdict | None:
    """A solver score turned into moves: the winner's k-th disc makes four."""
    if score is None:
        return None
    if score == 0:
        return ColumnVerdict(Outcome.DRAW)
    cells = state.columns * state.rows
    winner_disc = (cells + 1) // 2 + 1 - abs(score)
    played = state.disc_count
    if score > 0:
        return ColumnVerdict(Outcome.WIN, winner_disc - played // 2, score)
    return ColumnVerdict(Outcome.LOSS, winner_disc - (played + 1) // 2, score)


def _estimate(state: GameState, seconds: float, cancel: CancelFlag | None) -> Analysis:
    """A search after each drop, each with an equal share of the time."""
    drops = [move for move in state.legal_moves() if move.kind is MoveKind.DROP]
    share = seconds / max(1, len(drops))
    verdicts: list[ColumnVerdict | None] = [None] * state.columns
    for move in drops:
        if cancel is not None and cancel.is_set():
            raise SearchAborted
        verdicts[move.column] = _search_verdict(state.play(move), state, share, cancel)
    return Analysis(False, tuple(verdicts))


def move_verdict(
    before: GameState, move: Move, seconds: float, cancel: CancelFlag | None = None
) -> ColumnVerdict:
    """The search's verdict on any one move (a pop too), as the analysis judges a drop.

    Raises SearchAborted if ``cancel`` is set.
    """
    return _search_verdict(before.play(move), before, seconds, cancel)


def _search_verdict(
    after: GameState, before: GameState, seconds: float, cancel: CancelFlag | None
) -> ColumnVerdict:
    """The verdict on one drop from a search of the position after it."""
    if after.winner is before.turn:
        return ColumnVerdict(Outcome.WIN, 1, WIN)
    if after.winner is not None:
        return ColumnVerdict(Outcome.LOSS, 1, -WIN)  # a pop can complete the opponent's line
    if after.is_over:
        return ColumnVerdict(Outcome.DRAW)
    return _verdict_from_search(-search(after, seconds, cancel=cancel).score)


def _verdict_from_search(score: int) -> ColumnVerdict:
    """A search score (for the mover, after its drop) as a verdict."""
    plies = WIN - abs(score) + 1  # from the position after the drop to the last move
    if score >= DECIDED:
        return ColumnVerdict(Outcome.WIN, 1 + plies // 2, score)
    if score <= -DECIDED:
        return ColumnVerdict(Outcome.LOSS, (plies + 1) // 2, score)
    if abs(score) < CLEAR_EDGE:
        return ColumnVerdict(Outcome.EVEN, 0, score)
    return ColumnVerdict(Outcome.BETTER if score > 0 else Outcome.WORSE, 0, score)
