"""Standings and Elo: known values, symmetry, an interval that shrinks with games, failures."""

from __future__ import annotations

import math

import pytest

from c4tui.tournament.standings import (
    NoReview,
    Outcome,
    Played,
    Reason,
    elo_difference,
    elo_error,
    ratings,
    standings,
)
from tests.tournament.reviews import Judged, Slip


def games_between(
    red: str, yellow: str, outcomes: str, reason: Reason = Reason.FOUR
) -> list[Played]:
    """Games ``red`` vs ``yellow``: ``outcomes`` letters r, y, d (who won, or a draw)."""
    kinds = {"r": Outcome.RED, "y": Outcome.YELLOW, "d": Outcome.DRAW}
    return [Played(red, yellow, kinds[o], Reason.FULL if o == "d" else reason) for o in outcomes]


def test_a_75_percent_score_is_191_elo_and_the_curve_is_symmetric() -> None:
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.5) == 0
    for score in (0.1, 0.3, 0.64, 0.9):
        assert elo_difference(score) == pytest.approx(-elo_difference(1 - score))
    assert elo_difference(0.0) == -math.inf and elo_difference(1.0) == math.inf


def test_the_interval_shrinks_with_more_games() -> None:
    few = elo_error([1, 1, 1, 0] * 5)
    many = elo_error([1, 1, 1, 0] * 50)
    assert math.isfinite(few) and many < few
    assert many == pytest.approx(few / math.sqrt(10), rel=0.25)


def test_draws_count_as_half_and_narrow_the_interval() -> None:
    assert elo_error([1, 0] * 20) > elo_error([0.5] * 10 + [1, 0] * 15) > 0
    assert elo_error([0.5] * 40) == 0  # no spread at all: the normal approximation sees none


def test_the_interval_is_the_score_s_standard_error_carried_to_elo() -> None:
    # One win, one loss: a score of ½ ± 1.96 · 0.354, 400 / (ln 10 · ¼) Elo per unit.
    assert elo_error([1, 0]) == pytest.approx(1.96 * 0.5 / math.sqrt(2) * 694.87, rel=1e-3)
    assert elo_error([1, 1]) == elo_error([0, 0]) == elo_error([]) == math.inf


def test_two_players_at_75_and_25_percent_are_191_apart_around_zero() -> None:
    rating = ratings(["a", "b"], games_between("a", "b", "rrry"))
    assert rating["a"] == pytest.approx(190.85 / 2, abs=0.01)
    assert rating["b"] == pytest.approx(-rating["a"])


def test_the_field_s_mean_is_zero_and_a_clean_sweep_is_infinite() -> None:
    games = (
        games_between("a", "b", "rryd")
        + games_between("b", "c", "rrrr")
        + games_between("a", "c", "rrrr")
    )
    rating = ratings(["a", "b", "c"], games)
    assert rating["c"] == -math.inf
    table = standings(["a", "b", "c"], games)
    assert [line.name for line in table] == ["a", "b", "c"]
    assert math.isfinite(rating["a"]) and math.isfinite(rating["b"])
    fair = ratings(
        ["a", "b", "c"],
        games_between("a", "b", "rydd")
        + games_between("b", "c", "ry")
        + games_between("a", "c", "yr"),
    )
    assert sum(fair.values()) == pytest.approx(0, abs=1e-6)


def test_wins_draws_losses_score_and_failures_of_the_loser_only() -> None:
    games = games_between("a", "b", "ry") + games_between("b", "a", "r", Reason.CRASH)
    games += games_between("a", "b", "d") + games_between("a", "b", "y", Reason.TIME)
    games += games_between("b", "a", "y", Reason.ILLEGAL)
    table = {line.name: line for line in standings(["a", "b"], games)}
    a, b = table["a"], table["b"]
    assert (a.games, a.wins, a.draws, a.losses, a.score) == (6, 2, 1, 3, 2.5)
    assert (b.wins, b.draws, b.losses, b.score) == (3, 1, 2, 3.5)
    assert {reason.value: count for reason, count in a.failures.items()} == {
        "crash": 1,
        "time": 1,
        "illegal": 0,
    }
    assert {reason.value: count for reason, count in b.failures.items()} == {
        "crash": 0,
        "time": 0,
        "illegal": 1,
    }


def test_a_review_is_carried_to_its_player_and_none_by_default() -> None:
    games = games_between("a", "b", "ry")
    review = Judged(0.875, (Slip(1, 9, "win", "loss"),))
    table = {line.name: line for line in standings(["a", "b"], games, {"a": review})}
    assert table["a"].review == review
    assert table["b"].review == NoReview()
    assert table["b"].review.accuracy is None and not table["b"].review.mistakes
