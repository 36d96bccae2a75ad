"""Glicko-2 ratings (spec/protocols.md §5.3), from Glickman's paper.

"Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf): its worked example is a
test. Every account starts at 1500, deviation 350, volatility 0.06. The lobby rates after
each rated game, so a rating period is one game: ``rated`` takes the player's rating and
its results in the period and returns the new rating. Pure arithmetic: the server stores
the numbers in the same transaction that ends the game. The paper's steps fit in a page
and are written here with its names, rather than adding a dependency for them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.protocols.competition import PROVISIONAL_DEVIATION

#: Glicko-1's scale over Glicko-2's (step 2 of the paper).
SCALE = 173.7178
#: A new account (§5.3).
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The system constant τ: how much the volatility may change (the paper suggests 0.3–1.2).
TAU = 0.5
#: The convergence tolerance of the volatility's iteration (step 5).
_EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility on the Glicko-1 scale people read."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """True while the deviation is too high for the rating to be trusted."""
        return self.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True)
class Result:
    """One game against ``opponent`` (as rated before it): ``score`` 1 won, 0.5 drew, 0 lost."""

    opponent: Rating
    score: float


def rated(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """``player``'s rating after a period with ``results`` (none: only the deviation grows)."""
    mu, phi = _to_glicko2(player)
    if not results:
        grown = math.sqrt(phi**2 + player.volatility**2)
        return Rating(player.rating, grown * SCALE, player.volatility)
    opponents = [(*_to_glicko2(result.opponent), result.score) for result in results]
    weighted = [(_g(phi_j), _expected(mu, mu_j, phi_j), score) for mu_j, phi_j, score in opponents]
    variance = 1 / sum(g**2 * e * (1 - e) for g, e, _ in weighted)  # v, step 3
    improvement = sum(g * (score - e) for g, e, score in weighted)  # Δ / v, step 4
    volatility = _new_volatility(phi, variance, variance * improvement, player.volatility, tau)
    phi_star = math.sqrt(phi**2 + volatility**2)  # step 6
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / variance)  # step 7
    new_mu = mu + new_phi**2 * improvement
    return Rating(SCALE * new_mu + START_RATING, SCALE * new_phi, volatility)


def _to_glicko2(rating: Rating) -> tuple[float, float]:
    """μ and φ (step 2)."""
    return (rating.rating - START_RATING) / SCALE, rating.deviation / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(μ, μj, φj): the score expected against opponent j."""
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, variance: float, delta: float, sigma: float, tau: float) -> float:
    """σ' by the Illinois algorithm (step 5)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (
            ex * (delta**2 - phi**2 - variance - ex) / (2 * (phi**2 + variance + ex) ** 2)
            - (x - a) / tau**2
        )

    low = a
    if delta**2 > phi**2 + variance:
        high = math.log(delta**2 - phi**2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)
