"""A finished room's last minute in the pure rooms (spec §5.6): chat after GAMEEND for the
players and viewers still there, and a rematch taking the viewers along."""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import REMATCH_WINDOW
from tests.test_lobby_challenges import FakeClock

GAME = (4, 4, Rules.CLASSIC)
Rooms = Lobby[ConnectFourSettings, Move]


def a_finished_game(clock: FakeClock) -> tuple[Rooms, Member, Member, Member, Member]:
    """ann (red) and bob played in "r" watched by vic; bob forfeited. cid is online, elsewhere."""
    lobby: Rooms = Lobby(CONNECT_FOUR, now=clock)
    ann, bob, vic, cid = (Member(name) for name in ("ann", "bob", "vic", "cid"))
    for member in (ann, bob, vic, cid):
        lobby.challenges.logged_in(member)
    lobby.create(ann, "r", GAME)
    lobby.join(vic, "r", wire.Mode.VIEWER)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    lobby.forfeit(bob)
    return lobby, ann, bob, vic, cid


def test_the_players_and_viewers_chat_after_the_end_for_a_minute() -> None:
    clock = FakeClock()
    lobby, ann, bob, vic, cid = a_finished_game(clock)
    assert lobby.rooms == {} and lobby.room_of(ann) is None
    assert lobby.chat(bob, "gg") == [
        (ann, "CHAT:bob:gg"),
        (bob, "CHAT:bob:gg"),
        (vic, "CHAT:bob:gg"),
    ]
    assert lobby.chat(cid, "hi") == [(cid, "NOROOM")]  # not there
    clock.time += REMATCH_WINDOW
    assert len(lobby.chat(vic, "still?")) == 3
    clock.time += 0.001
    assert lobby.chat(vic, "too late") == [(vic, "NOROOM")]


def test_entering_another_room_ends_it_for_that_one_and_one_offline_hears_nothing() -> None:
    lobby, ann, bob, vic, _ = a_finished_game(FakeClock())
    lobby.create(vic, "elsewhere", GAME)
    assert lobby.chat(ann, "gg") == [(ann, "CHAT:ann:gg"), (bob, "CHAT:ann:gg")]  # vic is busy
    lobby.challenges.entered("vic")  # the server tells the challenges who entered a room
    assert lobby.chat(vic, "in my room") == [(vic, "CHAT:vic:in my room")]
    lobby.leave(vic)
    assert lobby.chat(vic, "back?") == [(vic, "NOROOM")]  # a room left does not let it back
    lobby.challenges.logged_out(bob)
    assert lobby.chat(ann, "bye") == [(ann, "CHAT:ann:bye")]
    again = Member("bob")
    lobby.challenges.logged_in(again)  # within the minute: still there
    assert lobby.chat(again, "sorry") == [(ann, "CHAT:bob:sorry"), (again, "CHAT:bob:sorry")]


def test_a_rematch_takes_the_viewers_still_there_along() -> None:
    lobby, ann, bob, vic, cid = a_finished_game(FakeClock())
    dee = Member("dee")
    lobby.challenges.logged_in(dee)
    lobby.challenges.rematch(ann)
    begun = lobby.challenges.accept(bob, "ann")
    begin = "BEGIN:bob:ann:4:4:classic"  # the colours swapped
    assert [(m.name, text) for m, text in begun if text.startswith("BEGIN")] == [
        ("bob", begin),
        ("ann", begin),
        ("vic", begin),
    ]
    room = lobby.room_of(vic)
    assert room is not None and room is lobby.room_of(ann) and room.viewers == [vic]
    assert lobby.room_of(dee) is None and lobby.room_of(cid) is None
    assert lobby.chat(vic, "again!") == [(m, "CHAT:vic:again!") for m in (bob, ann, vic)]


def test_a_viewer_who_went_elsewhere_does_not_follow_the_rematch() -> None:
    lobby, ann, bob, vic, _ = a_finished_game(FakeClock())
    lobby.quick_play(vic, GAME)
    lobby.challenges.entered("vic")
    lobby.challenges.rematch(bob)
    lobby.challenges.accept(ann, "bob")
    playing = lobby.room_of(ann)
    assert playing is not None and playing.viewers == [] and lobby.room_of(vic) is not playing
