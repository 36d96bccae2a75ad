"""Glicko-2 (c4tui/lobby/ratings.py) against Glickman's worked example, and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.lobby.ratings import Rating, Result, rated


def test_glickmans_worked_example() -> None:
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300."""
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rated(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widen_the_deviation() -> None:
    after = rated(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation > 200 and after.volatility == 0.06


def test_a_new_account_is_provisional_until_it_has_played() -> None:
    player = Rating()
    assert player.provisional
    for _ in range(20):
        player = rated(player, [Result(Rating(1500, 60), 0.5)])
    assert not player.provisional and player.rating == pytest.approx(1500, abs=0.5)


ratings = st.builds(
    Rating,
    st.floats(800, 2400),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_raises_a_loss_lowers_a_draw_moves_towards_the_opponent(
    player: Rating, opponent: Rating
) -> None:
    won = rated(player, [Result(opponent, 1)])
    lost = rated(player, [Result(opponent, 0)])
    drew = rated(player, [Result(opponent, 0.5)])
    assert lost.rating < drew.rating < won.rating
    assert won.rating > player.rating > lost.rating
