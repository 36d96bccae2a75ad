"""``create`` and ``quick`` at ``lobby>``: a name, a board, terms and colour, each part optional."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4tui.console.lobby_help import DEFAULT_GAME
from c4tui.console.room_requests import RoomRequest, parse_create, parse_quick
from c4tui.engine import Rules
from c4tui.protocols.colours import Colour
from c4tui.protocols.terms import CASUAL, Clock, Terms


@pytest.mark.parametrize(
    ("typed", "request_"),
    [
        ("r1", RoomRequest("r1", DEFAULT_GAME)),
        ("my room 9 7 popout", RoomRequest("my room", (9, 7, Rules.POPOUT))),
        ("r1 rated", RoomRequest("r1", DEFAULT_GAME, Terms(rated=True))),
        ("r1 3+2", RoomRequest("r1", DEFAULT_GAME, Terms(clock=Clock(3, 2)))),
        (
            "blitz 8 8 classic rated 1+0",
            RoomRequest("blitz", (8, 8, Rules.CLASSIC), Terms(True, Clock(1, 0))),
        ),
        ("7 6 classic", RoomRequest("7 6 classic", DEFAULT_GAME)),  # a name, as before
        ("", None),
        ("rated 3+2", None),  # no name
        ("r1 0+5", None),  # a clock out of bounds is wrong, not a name
        ("r1 61+0", None),
        ("r1 yellow", RoomRequest("r1", DEFAULT_GAME, colour=Colour.YELLOW)),
        (
            "r1 5 4 popout rated 3+2 random",
            RoomRequest("r1", (5, 4, Rules.POPOUT), Terms(True, Clock(3, 2)), Colour.RANDOM),
        ),
        ("red", None),  # a colour alone: no name
        ("yellow r1", RoomRequest("yellow r1", DEFAULT_GAME)),  # a colour only comes last
    ],
)
def test_create(typed: str, request_: RoomRequest | None) -> None:
    assert parse_create(typed) == request_


@pytest.mark.parametrize(
    ("typed", "request_"),
    [
        ("", RoomRequest("", DEFAULT_GAME)),
        (
            "9 7 popout casual 15+10",
            RoomRequest("", (9, 7, Rules.POPOUT), Terms(False, Clock(15, 10))),
        ),
        ("rated", RoomRequest("", DEFAULT_GAME, Terms(rated=True))),
        ("7 6", None),
        ("somewhere", None),
        ("3+x", None),
    ],
)
def test_quick(typed: str, request_: RoomRequest | None) -> None:
    random = request_ if request_ is None else replace(request_, colour=Colour.RANDOM)
    assert parse_quick(typed) == random  # quick play's colours are random unless wished


def test_quick_takes_a_colour_wish_and_challenge_its_own_default() -> None:
    assert parse_quick("4 4 classic yellow") == RoomRequest(
        "", (4, 4, Rules.CLASSIC), colour=Colour.YELLOW
    )
    assert parse_quick("rated", Colour.RED) == RoomRequest("", DEFAULT_GAME, Terms(rated=True))


def test_the_terms_are_described_unless_casual_and_the_colour_always() -> None:
    assert RoomRequest("r", DEFAULT_GAME, CASUAL).described == " (you play red)"
    rated = RoomRequest("r", DEFAULT_GAME, Terms(True, Clock(3, 2)), Colour.RANDOM)
    assert rated.described == " (rated 3+2, colours decided when the game begins)"
