"""Challenges and rematches in the pure rooms (§5.5): who is told what, and when they end."""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member
from c4tui.lobby.challenges import MAX_PENDING
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import REMATCH_WINDOW
from c4tui.protocols.terms import CASUAL, Clock, Terms

GAME = (7, 6, Rules.CLASSIC)
RATED = Terms(rated=True, clock=Clock(3, 2))
Rooms = Lobby[ConnectFourSettings, Move]


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.time = 100.0

    def __call__(self) -> float:
        return self.time


def online(lobby: Rooms, *names: str) -> list[Member]:
    members = [Member(name) for name in names]
    for member in members:
        lobby.challenges.logged_in(member)
    return members


def challenge_casually(lobby: Rooms, *asks: tuple[Member, str]) -> None:
    """Each challenger challenges its user to a casual 7 x 6 classic game."""
    for challenger, user in asks:
        lobby.challenges.challenge(challenger, user, GAME, CASUAL)


def test_a_challenge_reaches_the_user_and_accepting_it_begins_a_game() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob = online(lobby, "ann", "bob")
    assert lobby.challenges.challenge(ann, "bob", GAME, RATED) == [
        (ann, "CHALLENGE:ACKSTATUS:0"),
        (bob, "CHALLENGED:ann:7:6:classic:rated:3+2"),
    ]
    assert lobby.challenges.accept(bob, "ann") == [
        (bob, "ACCEPT:ACKSTATUS:0"),
        (ann, "BEGIN:ann:bob:7:6:classic"),
        (bob, "BEGIN:ann:bob:7:6:classic"),
        (ann, "CLOCK:180000:180000"),  # a timed challenge's clocks start with its BEGIN
        (bob, "CLOCK:180000:180000"),
    ]
    room = lobby.room_of(ann)
    assert room is not None and room.name == "challenge-1" and room.terms == RATED
    assert lobby.room_of(bob) is room
    assert lobby.challenges.accept(bob, "ann") == [(bob, "ACCEPT:ACKSTATUS:1")]  # used up


def test_refusals_oneself_strangers_busy_and_spam() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob, cid, dan, eve, fay = online(lobby, "ann", "bob", "cid", "dan", "eve", "fay")
    assert lobby.challenges.challenge(ann, "ann", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:1")]
    assert lobby.challenges.challenge(ann, "zed", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:1")]
    lobby.create(fay, "fay's", GAME)
    assert lobby.challenges.challenge(ann, "fay", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:2")]
    assert lobby.challenges.challenge(fay, "ann", GAME, CASUAL) == [(fay, "CHALLENGE:ACKSTATUS:2")]
    for user in ("bob", "cid", "dan")[:MAX_PENDING]:
        assert lobby.challenges.challenge(ann, user, GAME, CASUAL)[0][1] == "CHALLENGE:ACKSTATUS:0"
    assert lobby.challenges.challenge(ann, "eve", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:2")]
    again = lobby.challenges.challenge(ann, "bob", GAME, RATED)  # replaces the first one
    assert again == [(ann, "CHALLENGE:ACKSTATUS:0"), (bob, "CHALLENGED:ann:7:6:classic:rated:3+2")]
    assert len(lobby.challenges.pending()) == MAX_PENDING
    assert eve.name == "eve" and cid.name == "cid" and dan.name == "dan"


def test_declining_tells_the_challenger() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob = online(lobby, "ann", "bob")
    lobby.challenges.challenge(ann, "bob", GAME, CASUAL)
    assert lobby.challenges.decline(bob, "ann") == [
        (bob, "DECLINE:ACKSTATUS:0"),
        (ann, "DECLINED:bob"),
    ]
    assert lobby.challenges.decline(bob, "ann") == [(bob, "DECLINE:ACKSTATUS:0")]  # nothing left
    assert lobby.challenges.accept(bob, "ann") == [(bob, "ACCEPT:ACKSTATUS:1")]


def test_challenges_end_when_a_user_leaves_or_enters_a_room() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob, cid = online(lobby, "ann", "bob", "cid")
    challenge_casually(lobby, (ann, "bob"), (cid, "bob"))
    lobby.create(bob, "bob's", GAME)
    assert lobby.challenges.withdraw("bob") == [(ann, "DECLINED:bob"), (cid, "DECLINED:bob")]
    lobby.leave(bob)
    lobby.challenges.challenge(ann, "bob", GAME, CASUAL)
    assert lobby.challenges.logged_out(ann) == []  # the challenger's go, without a word
    assert lobby.challenges.accept(bob, "ann") == [(bob, "ACCEPT:ACKSTATUS:1")]


def test_an_accepted_challenge_ends_the_others_of_both_users() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob, cid = online(lobby, "ann", "bob", "cid")
    challenge_casually(lobby, (ann, "bob"), (ann, "cid"), (cid, "bob"))
    outbox = lobby.challenges.accept(bob, "ann")
    assert (cid, "DECLINED:bob") in outbox
    assert lobby.challenges.pending() == []
    assert lobby.challenges.accept(cid, "ann") == [(cid, "ACCEPT:ACKSTATUS:1")]


def test_accepting_a_challenger_now_busy_is_refused() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    ann, bob, cid = online(lobby, "ann", "bob", "cid")
    lobby.challenges.challenge(ann, "bob", GAME, CASUAL)
    lobby.quick_play(ann, GAME)  # the server withdraws on entering; here it has not yet
    assert lobby.challenges.accept(bob, "ann") == [(bob, "ACCEPT:ACKSTATUS:1")]
    assert cid.name == "cid"


def test_a_rematch_swaps_colours_within_the_window() -> None:
    clock = FakeClock()
    lobby: Rooms = Lobby(CONNECT_FOUR, now=clock)
    ann, bob = online(lobby, "ann", "bob")
    lobby.challenges.challenge(ann, "bob", GAME, RATED)
    lobby.challenges.accept(bob, "ann")
    lobby.forfeit(bob)
    clock.time += REMATCH_WINDOW - 1
    assert lobby.challenges.rematch(ann) == [
        (ann, "REMATCH:ACKSTATUS:0"),
        (bob, "CHALLENGED:ann:7:6:classic:rated:3+2"),
    ]
    outbox = lobby.challenges.accept(bob, "ann")
    assert outbox[0] == (bob, "ACCEPT:ACKSTATUS:0")
    assert outbox[1:] == [
        *[(member, "BEGIN:bob:ann:7:6:classic") for member in (bob, ann)],
        *[(member, "CLOCK:180000:180000") for member in (bob, ann)],  # a fresh 3+2
    ]


def test_both_asking_for_a_rematch_begins_it() -> None:
    clock = FakeClock()
    lobby: Rooms = Lobby(CONNECT_FOUR, now=clock)
    ann, bob = online(lobby, "ann", "bob")
    lobby.create(ann, "a", GAME)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    lobby.forfeit(ann)
    assert lobby.challenges.rematch(bob)[0] == (bob, "REMATCH:ACKSTATUS:0")
    assert lobby.challenges.rematch(ann) == [
        (ann, "REMATCH:ACKSTATUS:0"),
        *[(member, "BEGIN:bob:ann:7:6:classic") for member in (bob, ann)],
    ]


def test_a_rematch_too_late_without_a_game_or_a_clock_is_refused() -> None:
    clock = FakeClock()
    lobby: Rooms = Lobby(CONNECT_FOUR, now=clock)
    ann, bob, cid = online(lobby, "ann", "bob", "cid")
    assert lobby.challenges.rematch(ann) == [(ann, "REMATCH:ACKSTATUS:1")]
    lobby.create(ann, "a", GAME)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    lobby.forfeit(ann)
    lobby.create(bob, "b", GAME)  # the other is busy
    assert lobby.challenges.rematch(ann) == [(ann, "REMATCH:ACKSTATUS:1")]
    lobby.leave(bob)
    clock.time += REMATCH_WINDOW + 1
    assert lobby.challenges.rematch(ann) == [(ann, "REMATCH:ACKSTATUS:1")]
    untimed: Rooms = Lobby(CONNECT_FOUR)
    dan, eve = online(untimed, "dan", "eve")
    untimed.create(dan, "d", GAME)
    untimed.join(eve, "d", wire.Mode.PLAYER)
    untimed.forfeit(eve)
    assert untimed.challenges.rematch(dan) == [(dan, "REMATCH:ACKSTATUS:1")]
    assert cid.name == "cid"


def test_rated_quick_play_never_seats_two_bots() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    robo, droid, ann = Member("robo", bot=True), Member("droid", bot=True), Member("ann")
    lobby.quick_play(robo, GAME, RATED)
    assert lobby.quick_play(droid, GAME, RATED) == [(droid, "QUICKPLAY:ACKSTATUS:0:quick-2")]
    assert lobby.quick_play(ann, GAME, RATED)[0] == (ann, "QUICKPLAY:ACKSTATUS:0:quick-1")
    cas, ual = Member("cas", bot=True), Member("ual", bot=True)
    lobby.quick_play(cas, GAME)
    assert lobby.quick_play(ual, GAME)[0] == (ual, "QUICKPLAY:ACKSTATUS:0:quick-3")


def test_a_guest_is_no_ones_to_challenge() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR)
    (ann,) = online(lobby, "ann")
    guest = Member("guest-1", guest=True)  # §9: an ssh guest, who only watches
    lobby.challenges.logged_in(guest)
    assert lobby.challenges.challenge(ann, "guest-1", GAME, CASUAL) == [
        (ann, "CHALLENGE:ACKSTATUS:1")  # as for a user not online
    ]
    assert lobby.challenges.logged_out(guest) == []
