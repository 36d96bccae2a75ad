"""Timed rooms (spec/protocols.md §5.4): the clock itself, CLOCK lines, and losing on time.

The rooms are pure: time is a fake clock here, moved by hand.
"""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member, Outbox, Seat
from c4tui.lobby.clock import Deadlines, GameClock
from c4tui.lobby.journal import EndReason, GameFinished, MoveMade
from c4tui.protocols import lobby as wire
from c4tui.protocols.terms import Clock, Terms

GAME = (7, 6, Rules.POPOUT)
BLITZ = Terms(rated=False, clock=Clock(3, 2))
Rooms = Lobby[tuple[int, int, Rules], Move]


class FakeTime:
    """A steady clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _said(outbox: Outbox, member: Member) -> list[str]:
    return [message for to, message in outbox if to is member]


def _timed_game(terms: Terms = BLITZ) -> tuple[Rooms, FakeTime, Member, Member, Outbox]:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, now=time)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", GAME, terms)
    begun = lobby.join(bob, "r", wire.Mode.PLAYER)
    return lobby, time, ann, bob, begun


# ----- the clock alone -------------------------------------------------------------


def test_the_movers_time_runs_and_a_move_adds_the_increment() -> None:
    clock = GameClock.started(Clock(1, 5), now=10.0)
    assert clock.left_ms(10.0) == (60_000, 60_000)
    assert clock.left_ms(12.5) == (57_500, 60_000)  # only RED's runs
    after = clock.after_move(12.5)
    assert after.mover is Seat.SECOND
    assert after.left_ms(12.5) == (62_500, 60_000)  # 57.5 s left, 5 s added
    assert after.left_ms(20.0) == (62_500, 52_500)
    assert after.deadline == 72.5


def test_a_flag_falls_at_the_deadline_and_times_never_go_below_zero() -> None:
    clock = GameClock.started(Clock(1, 0), now=0.0)
    assert not clock.has_fallen(59.999)
    assert clock.has_fallen(60.0)
    assert clock.left_ms(75.0) == (0, 60_000)
    assert clock.left_ms(-5.0) == (60_000, 60_000)  # a clock that went back takes nothing


def test_deadlines_come_due_soonest_first_and_once() -> None:
    deadlines = Deadlines()
    deadlines.add(30.0, 2, "b")
    deadlines.add(10.0, 1, "a")
    deadlines.add(50.0, 3, "c")
    assert deadlines.due(5.0) == []
    assert deadlines.due(30.0) == [(1, "a"), (2, "b")]
    assert deadlines.due(40.0) == []
    assert len(deadlines) == 1


# ----- timed rooms -----------------------------------------------------------------


def test_clock_follows_begin_and_every_board_with_the_increment_added() -> None:
    lobby, time, ann, bob, begun = _timed_game()
    assert _said(begun, ann) == ["BEGIN:ann:bob:7:6:popout", "CLOCK:180000:180000"]
    assert _said(begun, bob)[-1] == "CLOCK:180000:180000"
    time.now += 4.2
    moved = lobby.play(ann, Move.drop(3))
    assert _said(moved, bob)[1:] == ["CLOCK:177800:180000"]  # 180 - 4.2 + 2
    time.now += 10
    moved = lobby.play(bob, Move.drop(3))
    assert _said(moved, ann)[1:] == ["CLOCK:177800:172000"]
    journal = [event for event in lobby.take_journal() if isinstance(event, MoveMade)]
    assert [event.clock for event in journal] == [(177_800, 180_000), (177_800, 172_000)]


class TickingTime(FakeTime):
    """A steady clock that moves on a little each time it is read (a busy server)."""

    def __call__(self) -> float:
        self.now += 0.003
        return self.now


def test_the_clock_after_a_move_is_the_clock_at_the_move_however_long_the_telling() -> None:
    time = TickingTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, now=time)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", GAME, BLITZ)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    moved = lobby.play(ann, Move.drop(3))
    (clock,) = [line for line in _said(moved, bob) if line.startswith("CLOCK:")]
    assert clock.endswith(":180000")  # bob's turn begins with all his time: none used yet
    (kept,) = [event for event in lobby.take_journal() if isinstance(event, MoveMade)]
    assert clock == f"CLOCK:{kept.clock[0]}:{kept.clock[1]}"  # as told, so kept


def test_an_untimed_room_says_nothing_of_clocks() -> None:
    lobby, time, ann, bob, begun = _timed_game(Terms(rated=True))
    assert not any(message.startswith("CLOCK") for _, message in begun)
    time.now += 10_000
    assert not any(message.startswith("CLOCK") for _, message in lobby.out_of_time())  # IDLE only
    moved = lobby.play(ann, Move.drop(3))
    assert _said(moved, bob) == [moved[0][1]]
    assert lobby.take_journal()[-1] == MoveMade("r", 1, Move.drop(3), None)


def test_a_silent_player_loses_on_time_when_the_server_checks() -> None:
    lobby, time, ann, bob, _ = _timed_game(Terms(clock=Clock(1, 0)))
    lobby.play(ann, Move.drop(0))
    time.now += 59.9
    assert lobby.out_of_time() == []
    time.now += 0.1
    ended = lobby.out_of_time()
    assert _said(ended, ann) == [_said(ended, bob)[0]]
    assert _said(ended, ann)[0].endswith(":3:ann")
    assert lobby.take_journal()[-1] == GameFinished("r", "ann", EndReason.TIME)
    assert "r" not in lobby.rooms
    assert lobby.out_of_time() == []  # once


def test_a_move_after_the_flag_fell_loses_instead_of_being_played() -> None:
    lobby, time, ann, bob, _ = _timed_game(Terms(clock=Clock(1, 0)))
    time.now += 61
    late = lobby.play(ann, Move.drop(0))
    assert _said(late, bob) == [
        "GAMEEND:" + "0" * 42 + ":3:bob"
    ]  # the board as it was: the move was never played
    assert lobby.room_of(ann) is None


def test_an_away_players_clock_runs_on_its_turn() -> None:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=600, now=time)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", GAME, Terms(clock=Clock(1, 0)))
    lobby.join(bob, "r", wire.Mode.PLAYER)
    lobby.leave(ann)  # away, with ten minutes to come back, and to move
    time.now += 60
    ended = lobby.out_of_time()
    assert _said(ended, bob) == ["GAMEEND:" + "0" * 42 + ":3:bob"]


def test_viewers_and_returning_players_are_told_the_clocks() -> None:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=60, now=time)
    ann, bob, eve = Member("ann"), Member("bob"), Member("eve")
    lobby.create(ann, "r", GAME, BLITZ)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    time.now += 1
    lobby.play(ann, Move.drop(0))
    time.now += 3
    joined = lobby.join(eve, "r", wire.Mode.VIEWER)
    assert [m.split(":")[0] for m in _said(joined, eve)] == [
        "JOIN",
        "INPROGRESS",
        "BOARDSTATUS",
        "CLOCK",
    ]
    assert _said(joined, eve)[-1] == "CLOCK:181000:177000"
    lobby.leave(bob)
    time.now += 5
    back = lobby.rejoin(Member("bob"))
    assert back[3] == (back[0][0], "CLOCK:181000:172000")


def test_a_restored_game_keeps_its_clocks_and_the_mover_runs_from_the_restore() -> None:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=60, now=time)
    room = lobby.restore(
        "r", ("ann", "bob"), GAME, [Move.drop(0)], terms=BLITZ, left=(175_000, 90_000)
    )
    assert room.clock is not None
    time.now += 30
    assert room.clock.left_ms(time.now) == (175_000, 60_000)  # yellow to move
    time.now += 60
    ended = lobby.out_of_time()
    assert ended == []  # both away: nobody to tell, but the game is over
    assert lobby.take_journal() == [GameFinished("r", "ann", EndReason.TIME)]
    assert "r" not in lobby.rooms


def test_a_closed_rooms_deadline_does_not_end_a_new_room_of_the_same_name() -> None:
    lobby, time, ann, bob, _ = _timed_game(Terms(clock=Clock(1, 0)))
    lobby.forfeit(ann)
    lobby.create(ann, "r", GAME, Terms(clock=Clock(2, 0)))
    lobby.join(bob, "r", wire.Mode.PLAYER)
    time.now += 61
    assert lobby.out_of_time() == []
    time.now += 60
    assert _said(lobby.out_of_time(), ann)[0].endswith(":3:bob")


def test_stale_deadlines_are_dropped_as_games_leave_them_behind() -> None:
    lobby, time, ann, bob, _ = _timed_game(Terms(clock=Clock(60, 0)))
    for _ in range(1100):  # each game ended by a forfeit leaves its deadline behind
        lobby.forfeit(ann)
        lobby.create(ann, "r", GAME, Terms(clock=Clock(60, 0)))
        lobby.join(bob, "r", wire.Mode.PLAYER)
    assert lobby.out_of_time() == []
    assert lobby.clocks.deadlines_kept == 1  # r's own
    time.now += 3600
    assert _said(lobby.out_of_time(), ann)[0].endswith(":3:bob")
