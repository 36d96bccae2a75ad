"""A banned or deleted user taken out of the rooms at once (spec/protocols.md §7), pure."""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member
from c4tui.lobby.journal import EndReason, GameFinished
from c4tui.lobby.removal import removed
from c4tui.protocols import lobby as wire

GAME = (4, 4, Rules.CLASSIC)
EMPTY = "0" * 16
Rooms = Lobby[tuple[int, int, Rules], Move]


def a_game(grace: float | None = 30) -> tuple[Rooms, Member, Member, Member]:
    """ann (red) and bob (yellow) playing room "a", vic watching; the journal so far taken."""
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=grace)
    ann, bob, vic = Member("ann"), Member("bob"), Member("vic")
    lobby.create(ann, "a", GAME)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    lobby.play(ann, Move.drop(0))
    lobby.take_journal()
    return lobby, ann, bob, vic


def test_a_seated_player_forfeits_its_game_to_everyone_there_kept_as_a_forfeit() -> None:
    lobby, ann, bob, vic = a_game()
    board = "0" * 12 + "1000"
    assert removed(lobby, "bob", [bob]) == [
        (ann, f"GAMEEND:{board}:2:ann"),
        (bob, f"GAMEEND:{board}:2:ann"),
        (vic, f"GAMEEND:{board}:2:ann"),
    ]
    assert lobby.take_journal() == [GameFinished("a", "ann", EndReason.FORFEIT)]
    assert lobby.rooms == {} and lobby.room_of(ann) is None and lobby.room_of(vic) is None


def test_a_player_away_in_its_grace_loses_at_once_without_coming_back() -> None:
    lobby, ann, bob, vic = a_game()
    lobby.leave(ann)  # away: its grace runs
    outbox = removed(lobby, "ann", [])
    board = "0" * 12 + "1000"
    assert outbox == [(bob, f"GAMEEND:{board}:2:bob"), (vic, f"GAMEEND:{board}:2:bob")]
    assert not any(text.startswith(("BACK", "REJOIN")) for _, text in outbox)
    assert lobby.take_journal() == [GameFinished("a", "bob", EndReason.FORFEIT)]
    assert not lobby.is_away("ann") and lobby.expire("ann") == []  # its late timer: nothing
    assert lobby.rejoin(Member("ann")) == []


def test_after_a_restart_the_other_wins_even_while_away_too() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=30)
    lobby.restore("a", ("ann", "bob"), GAME, [Move.drop(0)])
    assert removed(lobby, "ann", []) == []  # nobody is there to be told
    assert lobby.take_journal() == [GameFinished("a", "bob", EndReason.FORFEIT)]
    assert lobby.rooms == {} and not lobby.is_away("bob")  # not aborted when bob's grace ends
    assert lobby.expire("bob") == []


def test_a_waiting_creators_room_closes_and_its_viewers_are_in_no_room() -> None:
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=30)
    ann, vic = Member("ann"), Member("vic")
    lobby.create(ann, "a", GAME)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    assert removed(lobby, "ann", [ann]) == []
    assert lobby.rooms == {} and lobby.room_of(vic) is None and lobby.take_journal() == []
    bob = Member("bob")
    assert lobby.join(bob, "a", wire.Mode.PLAYER) == [(bob, "JOIN:ACKSTATUS:1")]


def test_a_viewer_just_leaves_and_the_game_goes_on() -> None:
    lobby, ann, bob, vic = a_game()
    assert removed(lobby, "vic", [vic]) == []
    assert lobby.room_of(vic) is None and lobby.take_journal() == []
    board = "BOARDSTATUS:" + "0" * 12 + "1200"
    assert lobby.play(bob, Move.drop(1)) == [(ann, board), (bob, board)]


def test_someone_in_no_room_and_not_away_changes_nothing() -> None:
    lobby, ann, bob, _ = a_game()
    zed = Member("zed")
    assert removed(lobby, "zed", [zed]) == [] and removed(lobby, "nobody", []) == []
    assert lobby.take_journal() == [] and lobby.room_of(ann) is lobby.room_of(bob) is not None


def test_a_user_with_no_grace_rules_loses_the_same_way() -> None:
    lobby, ann, _, _ = a_game(grace=None)
    outbox = removed(lobby, "ann", [ann])
    assert [text for _, text in outbox] == ["GAMEEND:" + "0" * 12 + "1000:2:bob"] * 3
    assert lobby.take_journal() == [GameFinished("a", "bob", EndReason.FORFEIT)]
