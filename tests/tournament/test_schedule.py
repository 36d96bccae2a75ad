"""The schedule: who meets whom, each opening with both colours, in an order the seed fixes."""

from __future__ import annotations

from collections import Counter

import pytest

from c4tui.tournament.schedule import make_schedule, opening_count, pairings

PLAYERS = ["ann", "bob", "cy", "dee"]


def test_a_round_robin_pairs_everyone_with_everyone_games_times() -> None:
    schedule = make_schedule(PLAYERS, 4, seed=1)
    assert len(schedule) == 6 * 4
    met = Counter(frozenset((game.red, game.yellow)) for game in schedule)
    assert set(met.values()) == {4} and len(met) == 6
    assert [game.number for game in schedule] == list(range(1, 25))


def test_a_gauntlet_pairs_the_first_with_each_other_one() -> None:
    schedule = make_schedule(PLAYERS, 2, gauntlet=True, seed=1)
    assert len(schedule) == 3 * 2
    assert all("ann" in (game.red, game.yellow) for game in schedule)
    assert pairings(PLAYERS, gauntlet=True) == [("ann", "bob"), ("ann", "cy"), ("ann", "dee")]


def test_each_opening_is_played_once_with_each_colour() -> None:
    schedule = make_schedule(PLAYERS, 4, seed=7)
    by_opening: dict[int, list[tuple[str, str]]] = {}
    for game in schedule:
        by_opening.setdefault(game.opening, []).append((game.red, game.yellow))
    assert len(by_opening) == opening_count(4, 4, gauntlet=False) == 12
    for (red, yellow), (red_again, yellow_again) in by_opening.values():
        assert (red, yellow) == (yellow_again, red_again)


def test_an_odd_number_plays_the_last_opening_once_and_alternates_who_is_red() -> None:
    schedule = make_schedule(PLAYERS, 3, seed=2)
    assert len(schedule) == 6 * 3
    once = Counter(game.opening for game in schedule)
    assert sorted(once.values()) == [1] * 6 + [2] * 6
    single = [game for game in schedule if once[game.opening] == 1]
    in_order = set(pairings(PLAYERS, gauntlet=False))
    first_is_red = [game for game in single if (game.red, game.yellow) in in_order]
    assert len(first_is_red) == 3  # half the pairings have their first-named player as red
    reds = Counter(game.red for game in schedule)
    assert max(reds.values()) - min(reds.values()) <= 1


def test_the_seed_fixes_the_order_and_another_seed_changes_it() -> None:
    assert make_schedule(PLAYERS, 4, seed=5) == make_schedule(PLAYERS, 4, seed=5)
    assert make_schedule(PLAYERS, 4, seed=5) != make_schedule(PLAYERS, 4, seed=6)


def test_every_pairing_plays_once_before_any_plays_twice() -> None:
    schedule = make_schedule(PLAYERS, 4, seed=3)
    first_pass = {frozenset((game.red, game.yellow)) for game in schedule[:6]}
    assert len(first_pass) == 6


@pytest.mark.parametrize(
    ("players", "games", "words"),
    [
        (["ann"], 2, "at least two"),
        (["ann", "ann"], 2, "name of its own"),
        (PLAYERS, 0, "one game"),
    ],
)
def test_what_is_no_tournament_is_refused(players: list[str], games: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_schedule(players, games)
