"""A position set up by hand becomes a game with its drops played: against the menu's
opponent with the person taking the side to move, or two people when the opponent cannot
take a game up in the middle."""

from __future__ import annotations

import pytest

from c4tui.engine import GameState, Player, PositionError, Rules
from c4tui.engine.picture import read_picture
from c4tui.match.record import set_up_record
from c4tui.match.settings import MatchSettings

YELLOW_TO_MOVE = "......./......./......./......./...o.../..xx..."


def test_the_computer_plays_the_side_not_to_move() -> None:
    setup = read_picture(YELLOW_TO_MOVE)
    settings = MatchSettings(opponent="computer", options={"level": "easy"})
    record = set_up_record(setup, settings)
    assert (record.opponent, record.options["level"], record.person) == (
        "computer",
        "easy",
        Player.YELLOW,
    )
    reached = GameState.new(7, 6).play_all(record.moves)
    assert (reached.red, reached.yellow) == (setup.state().red, setup.state().yellow)


def test_two_people_take_both_sides() -> None:
    record = set_up_record(read_picture(YELLOW_TO_MOVE), MatchSettings(opponent="human"))
    assert (record.opponent, record.person) == ("human", None)


@pytest.mark.parametrize("opponent", ["network", "program"])
def test_an_opponent_that_cannot_start_mid_game_gives_way_to_two_people(opponent: str) -> None:
    record = set_up_record(read_picture(YELLOW_TO_MOVE), MatchSettings(opponent=opponent))
    assert (record.opponent, record.options, record.person) == ("human", {}, None)


def test_the_records_size_and_rules_are_the_positions() -> None:
    setup = read_picture("..../..../..../xo..", Rules.POPOUT)
    record = set_up_record(setup, MatchSettings(columns=7, rows=6))
    assert (record.columns, record.rows, record.rules, len(record.moves)) == (
        4,
        4,
        Rules.POPOUT,
        2,
    )


def test_a_won_position_makes_no_record() -> None:
    won = read_picture("......./......./......./......./ooo..../xxxx...")
    with pytest.raises(PositionError, match="RED already has four in a row at a1–d1"):
        set_up_record(won, MatchSettings())
