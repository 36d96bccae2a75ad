"""Away, not beaten (spec/protocols.md §5.1), in the rooms alone: no sockets, no clock."""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, TIC_TAC_TOE, Lobby, Member
from c4tui.lobby.journal import EndReason, GameFinished
from c4tui.protocols import lobby as wire

GAME = (4, 4, Rules.CLASSIC)
EMPTY = "0" * 16


def a_game(grace: float | None = 30) -> tuple[Lobby[tuple[int, int, Rules], Move], Member, Member]:
    """ann (red) and bob (yellow) playing room "a" on a lobby with ``grace``."""
    lobby = Lobby(CONNECT_FOUR, grace=grace)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "a", GAME)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    return lobby, ann, bob


def test_a_dropped_player_is_away_and_comes_back_to_the_same_game() -> None:
    lobby, ann, bob = a_game()
    vic = Member("vic")
    lobby.join(vic, "a", wire.Mode.VIEWER)
    lobby.play(ann, Move.drop(0))
    assert lobby.leave(bob) == [(ann, "AWAY:bob:30"), (vic, "AWAY:bob:30")]
    assert lobby.is_away("bob") and lobby.room_of(bob) is None
    assert lobby.room_info("a") == "ROOMINFO:ACKSTATUS:0:4:4:classic:ann:bob:1:playing:casual:-"
    again = Member("bob")
    board = "0" * 12 + "1000"
    assert lobby.rejoin(again) == [
        (again, "REJOIN:a"),
        (again, "INPROGRESS:bob:ann:4:4:classic"),
        (again, f"BOARDSTATUS:{board}"),
        (ann, "BACK:bob"),
        (vic, "BACK:bob"),
    ]
    assert not lobby.is_away("bob") and lobby.expire("bob") == []  # a late timer: nothing
    assert lobby.play(again, Move.drop(1))[0] == (ann, "BOARDSTATUS:" + "0" * 12 + "1200")


def test_the_other_player_may_move_while_its_opponent_is_away() -> None:
    lobby, ann, bob = a_game()
    lobby.leave(bob)
    assert lobby.play(ann, Move.drop(0)) == [(ann, "BOARDSTATUS:" + "0" * 12 + "1000")]
    assert lobby.play(ann, Move.drop(0)) == [(ann, "INVALID:not your turn")]  # then it waits


def test_the_grace_running_out_forfeits_the_game() -> None:
    lobby, ann, bob = a_game()
    lobby.leave(ann)
    assert lobby.expire("ann") == [(bob, f"GAMEEND:{EMPTY}:2:bob")]
    assert lobby.rooms == {} and not lobby.is_away("ann") and lobby.rejoin(Member("ann")) == []


def test_when_both_are_away_the_first_to_leave_loses() -> None:
    lobby, ann, bob = a_game()
    vic = Member("vic")
    lobby.join(vic, "a", wire.Mode.VIEWER)
    lobby.leave(bob)
    assert lobby.leave(ann) == [(vic, "AWAY:ann:30")]
    assert lobby.away_from_room_of(vic) == ["bob", "ann"]
    assert lobby.expire("ann") == [(vic, f"GAMEEND:{EMPTY}:2:ann")]  # bob left first
    assert lobby.expire("bob") == [] and lobby.rooms == {}


def test_a_second_login_takes_the_game_over_without_a_word_to_the_others() -> None:
    lobby, ann, _ = a_game()
    newer = Member("ann")
    assert lobby.take_over(ann, newer) == [
        (newer, "REJOIN:a"),
        (newer, "INPROGRESS:ann:bob:4:4:classic"),
        (newer, f"BOARDSTATUS:{EMPTY}"),
    ]
    assert lobby.room_of(ann) is None and lobby.room_of(newer) is lobby.rooms["a"]
    assert lobby.play(newer, Move.drop(0))[0][1].startswith("BOARDSTATUS:")


def test_a_second_login_of_a_waiting_creator_or_viewer_just_leaves() -> None:
    lobby = Lobby(CONNECT_FOUR, grace=30)
    ann, vic = Member("ann"), Member("vic")
    lobby.create(ann, "a", GAME)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    assert lobby.take_over(vic, Member("vic")) == []
    assert lobby.take_over(ann, Member("ann")) == [] and lobby.rooms == {}


def test_without_grace_a_dropped_player_forfeits_at_once() -> None:
    for grace in (0, None):
        lobby, ann, bob = a_game(grace)
        assert lobby.leave(bob) == [(ann, f"GAMEEND:{EMPTY}:2:ann")]
        assert not lobby.is_away("bob")


def test_the_handouts_rooms_keep_their_rules_on_a_second_login() -> None:
    lobby = Lobby(TIC_TAC_TOE)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "t", None)
    lobby.join(bob, "t", wire.Mode.PLAYER)
    assert lobby.take_over(ann, Member("ann")) == [(bob, "GAMEEND:000000000:2:bob")]


def test_a_game_restored_after_a_restart_waits_for_both_players() -> None:
    lobby: Lobby[tuple[int, int, Rules], Move] = Lobby(CONNECT_FOUR, grace=30)
    room = lobby.restore("a", ("ann", "bob"), GAME, [Move.drop(0), Move.drop(1)])
    assert room.members == [] and lobby.is_away("ann") and lobby.is_away("bob")
    ann = Member("ann")
    assert lobby.rejoin(ann)[1:] == [
        (ann, "INPROGRESS:ann:bob:4:4:classic"),
        (ann, "BOARDSTATUS:" + "0" * 12 + "1200"),
    ]
    lobby.leave(ann)
    assert lobby.expire("bob") == []  # ann left after the restart: ann loses first


def test_a_restored_game_neither_player_came_back_to_is_aborted_not_forfeited() -> None:
    lobby: Lobby[tuple[int, int, Rules], Move] = Lobby(CONNECT_FOUR, grace=30)
    lobby.restore("a", ("ann", "bob"), GAME, [Move.drop(0)])
    vic = Member("vic")
    lobby.join(vic, "a", wire.Mode.VIEWER)
    assert lobby.expire("ann") == [(vic, "GAMEEND:" + "0" * 12 + "1000:5")]  # nobody's fault
    assert lobby.rooms == {} and not lobby.is_away("bob") and lobby.expire("bob") == []
    finished = lobby.take_journal()[-1]
    assert isinstance(finished, GameFinished)
    assert (finished.winner, finished.reason) == (None, EndReason.ABORTED)


def test_a_restored_game_one_player_came_back_to_is_won_by_that_player() -> None:
    lobby: Lobby[tuple[int, int, Rules], Move] = Lobby(CONNECT_FOUR, grace=30)
    lobby.restore("a", ("ann", "bob"), GAME, [Move.drop(0)])
    bob = Member("bob")
    lobby.rejoin(bob)
    assert lobby.expire("ann") == [(bob, "GAMEEND:" + "0" * 12 + "1000:2:bob")]


def test_a_client_over_the_limits_hears_the_same_bye_as_any_other() -> None:
    assert wire.SPEC.refusal_when_full == wire.bye(wire.ByeReason.FULL) == "BYE:full"
