"""Colours and quick play's choice in the pure rooms (spec §5.6): who sits where, and when."""

from __future__ import annotations

import random

import pytest

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from c4tui.protocols.terms import CASUAL, Terms

GAME = (7, 6, Rules.CLASSIC)
RATED = Terms(rated=True)
EMPTY = "0" * 42
Rooms = Lobby[ConnectFourSettings, Move]


def rooms(seed: int = 0) -> Rooms:
    return Lobby(CONNECT_FOUR, now=lambda: 0.0, coin=random.Random(seed))


def test_a_creator_who_chose_yellow_waits_in_yellows_seat_and_the_joiner_moves_first() -> None:
    lobby, ann, bob = rooms(), Member("ann"), Member("bob")
    assert lobby.create(ann, "r", GAME, CASUAL, Colour.YELLOW) == [(ann, "CREATE:ACKSTATUS:0")]
    assert lobby.room_info("r") == "ROOMINFO:ACKSTATUS:0:7:6:classic::ann:0:waiting:casual:-"
    assert lobby.room_names(wire.Mode.PLAYER) == ["r"]
    assert lobby.play(ann, Move.drop(0)) == [
        (ann, "INVALID:the game has not begun: wait for a second player")
    ]
    begun = lobby.join(bob, "r", wire.Mode.PLAYER)
    assert begun[1:] == [(bob, "BEGIN:bob:ann:7:6:classic"), (ann, "BEGIN:bob:ann:7:6:classic")]
    assert lobby.play(ann, Move.drop(0)) == [(ann, "INVALID:not your turn")]
    assert lobby.play(bob, Move.drop(0))[0] == (bob, "BOARDSTATUS:" + "0" * 35 + "1000000")
    assert lobby.room_info("r").split(":")[6:8] == ["bob", "ann"]


def test_a_yellow_creator_who_leaves_before_the_game_closes_its_room() -> None:
    lobby, ann, vic = rooms(), Member("ann"), Member("vic")
    lobby.create(ann, "r", GAME, CASUAL, Colour.YELLOW)
    lobby.join(vic, "r", wire.Mode.VIEWER)
    assert lobby.leave(ann) == [] and lobby.rooms == {} and lobby.room_of(vic) is None


def begun_red(lobby: Rooms, creator: Colour) -> str:
    """Who is red when ann creates with ``creator`` and bob joins."""
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", GAME, CASUAL, creator)
    assert lobby.room_info("r").split(":")[6:8] == ["ann", ""]  # random waits in red's seat
    begin = lobby.join(bob, "r", wire.Mode.PLAYER)[1][1]
    lobby.forfeit(ann)
    return begin.split(":")[1]


def test_random_is_decided_when_the_game_begins_by_the_coin_the_rooms_were_given() -> None:
    reds = [begun_red(rooms(seed), Colour.RANDOM) for seed in range(20)]
    assert set(reds) == {"ann", "bob"}
    assert reds == [begun_red(rooms(seed), Colour.RANDOM) for seed in range(20)]  # seeded


def test_quick_play_gives_random_colours() -> None:
    reds = set()
    for seed in range(20):
        lobby, ann, bob = rooms(seed), Member("ann"), Member("bob")
        lobby.quick_play(ann, GAME)
        assert lobby.room_info("quick-1").split(":")[6:8] == ["ann", ""]
        reds.add(lobby.quick_play(bob, GAME)[1][1].split(":")[1])
    assert reds == {"ann", "bob"}


@pytest.mark.parametrize(
    ("waiter", "seeker", "red"),
    [
        (Colour.YELLOW, Colour.RANDOM, "bob"),
        (Colour.RED, Colour.RANDOM, "ann"),
        (Colour.RANDOM, Colour.RED, "bob"),
        (Colour.RANDOM, Colour.YELLOW, "ann"),
    ],
)
def test_quick_play_honours_a_colour_asked_for(waiter: Colour, seeker: Colour, red: str) -> None:
    for seed in range(5):
        lobby, ann, bob = rooms(seed), Member("ann"), Member("bob")
        lobby.quick_play(ann, GAME, CASUAL, waiter)
        answer, begin = lobby.quick_play(bob, GAME, CASUAL, seeker)[:2]
        assert answer == (bob, "QUICKPLAY:ACKSTATUS:0:quick-1") and begin[1].split(":")[1] == red


def test_quick_play_seats_nobody_with_the_same_colour_wish() -> None:
    lobby, ann, bob = rooms(), Member("ann"), Member("bob")
    lobby.quick_play(ann, GAME, CASUAL, Colour.YELLOW)
    assert lobby.quick_play(bob, GAME, CASUAL, Colour.YELLOW) == [
        (bob, "QUICKPLAY:ACKSTATUS:0:quick-2")
    ]


def test_quick_play_prefers_a_waiting_person_to_a_bot() -> None:
    lobby = rooms()
    robo, ann, bob, cid = Member("robo", bot=True), Member("ann"), Member("bob"), Member("cid")
    lobby.quick_play(robo, GAME)  # the oldest room is the bot's
    lobby.create(ann, "anns", GAME)  # the same settings, waiting too
    assert lobby.quick_play(bob, GAME)[0] == (bob, "QUICKPLAY:ACKSTATUS:0:anns")
    assert lobby.quick_play(cid, GAME)[0] == (cid, "QUICKPLAY:ACKSTATUS:0:quick-1")  # then robo's


def test_a_challenger_who_chose_yellow_is_yellow_and_a_rematch_swaps_the_colours() -> None:
    lobby, ann, bob = rooms(), Member("ann"), Member("bob")
    for member in (ann, bob):
        lobby.challenges.logged_in(member)
    lobby.challenges.challenge(ann, "bob", GAME, CASUAL, Colour.YELLOW)
    accepted = lobby.challenges.accept(bob, "ann")
    assert (bob, "BEGIN:bob:ann:7:6:classic") in accepted
    lobby.forfeit(ann)
    lobby.challenges.rematch(ann)
    assert (ann, "BEGIN:ann:bob:7:6:classic") in lobby.challenges.accept(bob, "ann")


def test_a_random_challenge_is_decided_on_accept() -> None:
    reds = set()
    for seed in range(20):
        lobby, ann, bob = rooms(seed), Member("ann"), Member("bob")
        for member in (ann, bob):
            lobby.challenges.logged_in(member)
        lobby.challenges.challenge(ann, "bob", GAME, CASUAL, Colour.RANDOM)
        begin = [text for _, text in lobby.challenges.accept(bob, "ann") if "BEGIN" in text]
        reds.add(begin[0].split(":")[1])
    assert reds == {"ann", "bob"}


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("CREATE:r:yellow", wire.Create("r", (7, 6, Rules.POPOUT), CASUAL, Colour.YELLOW)),
        ("CREATE:r:7:6:classic:rated:random", wire.Create("r", GAME, RATED, Colour.RANDOM)),
        ("CREATE:red", wire.Create("red", (7, 6, Rules.POPOUT))),  # a room may be called red
        ("CREATE:r:7:6:classic", wire.Create("r", GAME, CASUAL, Colour.RED)),
        ("QUICKPLAY", wire.QuickPlay((7, 6, Rules.POPOUT), CASUAL, Colour.RANDOM)),
        ("QUICKPLAY:yellow", wire.QuickPlay((7, 6, Rules.POPOUT), CASUAL, Colour.YELLOW)),
        ("QUICKPLAY:7:6:classic:rated:red", wire.QuickPlay(GAME, RATED, Colour.RED)),
        (
            "CHALLENGE:bob:7:6:classic:casual:yellow",
            competition.Challenge("bob", GAME, CASUAL, Colour.YELLOW),
        ),
        ("CHALLENGE:red:7:6:classic:casual", competition.Challenge("red", GAME, CASUAL)),
        ("CHALLENGE:bob:7:6:classic:yellow", wire.BadFormat("CHALLENGE:ACKSTATUS:3")),
        ("CREATE:r:7:6:classic:purple", wire.BadFormat("CREATE:ACKSTATUS:4")),
        ("CREATE:r:yellow:red", wire.BadFormat("CREATE:ACKSTATUS:4")),
        ("QUICKPLAY:random:random", wire.BadFormat("QUICKPLAY:ACKSTATUS:1")),
    ],
)
def test_the_colour_is_an_optional_last_field(line: str, parsed: object) -> None:
    assert wire.parse_request(line) == parsed
