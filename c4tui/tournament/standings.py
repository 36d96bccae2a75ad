"""The standings: each player's games, score, failures and Elo with a 95 % interval.

The Elo, relative to the field (the players' mean is 0), is worked out in two steps.

1. **Each player's performance.** Its score ``p`` (a win 1, a draw ½, a loss 0,
   averaged over its ``n`` games) is turned into an Elo difference against its
   average opponent with the logistic curve, ``d(p) = -400 · log10(1/p - 1)``
   (75 % is +191, 50 % is 0, 25 % is -191).
2. **Onto one scale.** A player's rating is its difference plus its opponents'
   mean rating, ``r_i = d_i + mean(r_opponent over its games)``, with the field's
   mean 0; the equations are solved by damped iteration. In a round robin this
   only scales the differences by ``(k - 1) / k`` for ``k`` players (two players at
   75 % / 25 % get +96 and -96, 191 apart); in a gauntlet each other player is
   placed against the first one.

The interval is the normal approximation: the standard error of the player's score
is ``s = sd / sqrt(n)``, with ``sd`` the standard deviation of its per-game scores
(draws counted as ½), carried to Elo through the curve's slope at ``p`` (the delta
method): ``elo_error = 1.96 · s · 400 / (ln 10 · p · (1 - p))``, the half-width of
the 95 % interval. A score of 0 % or 100 % has no finite Elo (``-inf`` / ``+inf``)
nor error; results.json writes them as null, the table as ``-inf`` / ``+inf``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

#: How far the interval reaches: 1.96 standard errors either side is 95 %.
Z_95 = 1.96
#: Most rounds of the damped iteration that puts the ratings on one scale.
ROUNDS = 2000
#: The iteration stops once no rating moves by more than this many Elo points.
SETTLED = 1e-6


class Outcome(Enum):
    """How a game ended for red: what the standings count."""

    RED = "red"
    YELLOW = "yellow"
    DRAW = "draw"


class Reason(Enum):
    """Why a game ended, as results.json says it."""

    FOUR = "four"
    FULL = "full"
    REPETITION = "repetition"
    CRASH = "crash"
    TIME = "time"
    ILLEGAL = "illegal"

    @property
    def is_failure(self) -> bool:
        """True when the loser lost by failing, not by the rules."""
        return self in FAILURES


#: The reasons that are a program's failure, in the table's order.
FAILURES = (Reason.CRASH, Reason.TIME, Reason.ILLEGAL)


@dataclass(frozen=True)
class Played:
    """A finished game as the standings see it."""

    red: str
    yellow: str
    outcome: Outcome
    reason: Reason

    def score_of(self, player: str) -> float:
        """``player``'s points from this game: 1, ½ or 0."""
        if self.outcome is Outcome.DRAW:
            return 0.5
        winner = self.red if self.outcome is Outcome.RED else self.yellow
        return 1.0 if winner == player else 0.0

    def loser(self) -> str | None:
        """Who lost (None: a draw)."""
        if self.outcome is Outcome.DRAW:
            return None
        return self.yellow if self.outcome is Outcome.RED else self.red

    def failed_by(self, name: str) -> bool:
        """True when ``name`` failed in this game: it lost by a failure, or both failed (a draw)."""
        if self.reason not in FAILURES:
            return False
        both = self.outcome is Outcome.DRAW and name in (self.red, self.yellow)
        return self.loser() == name or both


class ReviewedMistake(Protocol):
    """One of a player's costliest mistakes, as the solver's review (``review.py``) gives it."""

    def words_with_game(self) -> str:
        """``game 7, move 9: win → loss``."""
        ...

    def to_json(self) -> Mapping[str, int | str]:
        """Its entry in results.json's ``mistakes``."""
        ...


class Review(Protocol):
    """The solver's verdict on a player's moves (7 × 6 classic): ``review.PlayerReview``."""

    @property
    def accuracy(self) -> float | None:
        """The share of its moves that kept the best outcome (0 to 1); None: none judged."""
        ...

    @property
    def mistakes(self) -> Sequence[ReviewedMistake]:
        """Its costliest mistakes, costliest first."""
        ...


@dataclass(frozen=True)
class NoReview:
    """A player whose moves were not reviewed (not 7 × 6 classic, or not yet)."""

    accuracy: None = None
    mistakes: tuple[ReviewedMistake, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One player's line of the table."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    elo_error: float
    failures: dict[Reason, int] = field(default_factory=dict)
    review: Review = NoReview()

    @property
    def score(self) -> float:
        """Points: a win 1, a draw ½."""
        return self.wins + self.draws / 2


def elo_difference(score: float) -> float:
    """The Elo difference that expects ``score`` (0 to 1): 0.75 → +191; ±inf at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_error(scores: Sequence[float]) -> float:
    """Half the 95 % interval of the Elo difference that ``scores`` (one per game) show.

    inf at 0 % or 100 % (or without games); 0 when every game was a draw (the normal
    approximation sees no spread).
    """
    if not scores:
        return math.inf
    mean = sum(scores) / len(scores)
    if mean <= 0 or mean >= 1:
        return math.inf
    variance = max(0.0, sum(score * score for score in scores) / len(scores) - mean * mean)
    slope = 400 / (math.log(10) * mean * (1 - mean))  # Elo per unit of score at ``mean``
    return Z_95 * math.sqrt(variance / len(scores)) * slope


def ratings(players: Sequence[str], games: Sequence[Played]) -> dict[str, float]:
    """Each player's Elo on one scale, the field's mean 0 (see the module's docstring).

    A player at 0 % or 100 % is ``-inf`` or ``+inf``; for placing the others, its
    score counts as half a game short of it.
    """
    scores = {name: [game.score_of(name) for game in _of(name, games)] for name in players}
    opponents = {name: [_opponent(game, name) for game in _of(name, games)] for name in players}
    difference = {name: elo_difference(_clamped(scores[name])) for name in players}
    rating = dict.fromkeys(players, 0.0)
    for _ in range(ROUNDS):
        new = {
            name: difference[name] + _mean([rating[other] for other in opponents[name]])
            for name in players
        }
        damped = {name: (rating[name] + new[name]) / 2 for name in players}
        centre = _mean(list(damped.values()))
        damped = {name: value - centre for name, value in damped.items()}
        moved = max(abs(damped[name] - rating[name]) for name in players)
        rating = damped
        if moved < SETTLED:
            break
    for name in players:
        if scores[name] and _mean(scores[name]) in (0.0, 1.0):
            rating[name] = elo_difference(_mean(scores[name]))
    return rating


def standings(
    players: Sequence[str],
    games: Sequence[Played],
    reviews: Mapping[str, Review] | None = None,
) -> list[Standing]:
    """The table: every player, best score first (then best Elo, then name)."""
    rating = ratings(players, games)
    table = [_standing(name, games, rating[name], (reviews or {}).get(name)) for name in players]
    return sorted(table, key=lambda line: (-line.score, -line.elo, line.name))


def _standing(name: str, games: Sequence[Played], elo: float, review: Review | None) -> Standing:
    own = _of(name, games)
    points = [game.score_of(name) for game in own]
    failures = {
        reason: sum(1 for game in own if game.reason is reason and game.failed_by(name))
        for reason in FAILURES
    }
    return Standing(
        name,
        games=len(own),
        wins=points.count(1.0),
        draws=points.count(0.5),
        losses=points.count(0.0),
        elo=elo,
        elo_error=elo_error(points),
        failures=failures,
        review=review or NoReview(),
    )


def _of(name: str, games: Iterable[Played]) -> list[Played]:
    return [game for game in games if name in (game.red, game.yellow)]


def _opponent(game: Played, name: str) -> str:
    return game.yellow if game.red == name else game.red


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _clamped(scores: Sequence[float]) -> float:
    """The mean score kept half a game inside 0 and 1, so it has a finite Elo."""
    if not scores:
        return 0.5
    edge = 0.5 / len(scores)
    return min(1 - edge, max(edge, _mean(scores)))
