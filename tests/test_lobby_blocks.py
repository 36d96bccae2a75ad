"""Blocks in the pure rooms (spec §7): who blocks whom, and how the rooms keep them apart.

While A blocks B: B's chat never reaches A (in a room, and in a finished room's last
minute); a challenge either way is :1; quick play never pairs them; ROOMLIST:PLAYER
hides a waiting room of either from the other and JOIN:<room>:PLAYER of it is :1;
watching stays allowed. Each effect is shown on its own, then hypothesis plays random
lobbies with random blocks and checks that no game ever begins across one and no chat
line ever reaches its blocker.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member, Outbox
from c4tui.lobby.blocks import Blocks
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import REMATCH_WINDOW
from c4tui.protocols.terms import CASUAL
from c4tui.server.dialects import LOBBY
from tests.test_lobby_challenges import FakeClock

GAME = (4, 4, Rules.CLASSIC)
Rooms = Lobby[ConnectFourSettings, Move]
USERS = ("ann", "bob", "cid", "dee")


def lobby_of(*names: str, clock: FakeClock | None = None) -> tuple[Rooms, list[Member]]:
    """Rooms with ``names`` logged in (challenges reach them)."""
    lobby: Rooms = Lobby(CONNECT_FOUR, now=clock)
    members = [Member(name) for name in names]
    for member in members:
        lobby.challenges.logged_in(member)
    return lobby, members


# ----- the table of blocks -------------------------------------------------------------

operations = st.lists(
    st.tuples(
        st.sampled_from(["add", "remove", "forget", "set_of", "load"]),
        st.sampled_from(USERS),
        st.sampled_from(USERS),
        st.sets(st.tuples(st.sampled_from(USERS), st.sampled_from(USERS)), max_size=4),
    ),
    max_size=30,
)


@given(operations)
def test_the_table_agrees_with_a_set_of_pairs(steps: list) -> None:
    """Every change and every question, against the plainest model: a set of (blocker, blocked)."""
    blocks, model = Blocks(), set[tuple[str, str]]()
    for operation, one, other, pairs in steps:
        if operation == "add":
            blocks.add(one, other)
            model.add((one, other))
        elif operation == "remove":
            assert blocks.remove(one, other) == ((one, other) in model)
            model.discard((one, other))
        elif operation == "forget":
            blocks.forget(one)
            model = {pair for pair in model if one not in pair}
        elif operation == "set_of":
            users = {blocked for _, blocked in pairs}
            blocks.set_of(one, users)
            model = {pair for pair in model if pair[0] != one} | {(one, user) for user in users}
        else:
            blocks.load(pairs)
            model = set(pairs)
        assert blocks.pairs() == sorted(model)
        for user in USERS:
            assert blocks.of(user) == sorted(b for a, b in model if a == user)
            assert blocks.count(user) == len(blocks.of(user))
            for target in USERS:
                assert blocks.blocks(user, target) == ((user, target) in model)
                assert blocks.between(user, target) == bool(
                    {(user, target), (target, user)} & model
                )


def test_a_table_starts_from_the_stores_pairs() -> None:
    blocks = Blocks([("ann", "bob"), ("cid", "ann")])
    assert blocks.of("ann") == ["bob"] and blocks.between("ann", "cid")
    assert not blocks.blocks("bob", "ann") and blocks.count("dee") == 0


# ----- chat ----------------------------------------------------------------------------


def test_the_blocked_ones_chat_never_reaches_the_blocker_in_a_room() -> None:
    lobby, (ann, bob, vic) = lobby_of("ann", "bob", "vic")
    lobby.create(ann, "r", GAME)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    lobby.join(vic, "r", wire.Mode.VIEWER)
    lobby.blocks.add("ann", "bob")
    assert lobby.chat(bob, "hi") == [(bob, "CHAT:bob:hi"), (vic, "CHAT:bob:hi")]
    said = "CHAT:ann:bob cannot hear me say this? he can"
    assert lobby.chat(ann, said.removeprefix("CHAT:ann:")) == [
        (ann, said),
        (bob, said),
        (vic, said),
    ]
    lobby.blocks.remove("ann", "bob")
    assert len(lobby.chat(bob, "again")) == 3


def test_nor_in_a_finished_rooms_last_minute() -> None:
    clock = FakeClock()
    lobby, (ann, bob, vic) = lobby_of("ann", "bob", "vic", clock=clock)
    lobby.create(ann, "r", GAME)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    lobby.join(vic, "r", wire.Mode.VIEWER)
    lobby.forfeit(ann)
    lobby.blocks.add("vic", "bob")
    assert lobby.chat(bob, "gg") == [(ann, "CHAT:bob:gg"), (bob, "CHAT:bob:gg")]
    assert len(lobby.chat(vic, "gg")) == 3  # the blocker's words still reach the blocked


# ----- challenges and rematches --------------------------------------------------------


def test_a_challenge_either_way_is_as_for_a_user_not_there() -> None:
    lobby, (ann, bob, cid) = lobby_of("ann", "bob", "cid")
    lobby.blocks.add("ann", "bob")
    assert lobby.challenges.challenge(bob, "ann", GAME, CASUAL) == [(bob, "CHALLENGE:ACKSTATUS:1")]
    assert lobby.challenges.challenge(ann, "bob", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:1")]
    lobby.create(cid, "busy", GAME)
    lobby.blocks.add("cid", "ann")  # :1 comes before busy (:2), as for one not there
    assert lobby.challenges.challenge(ann, "cid", GAME, CASUAL) == [(ann, "CHALLENGE:ACKSTATUS:1")]
    lobby.blocks.remove("ann", "bob")
    assert lobby.challenges.challenge(bob, "ann", GAME, CASUAL)[0] == (bob, "CHALLENGE:ACKSTATUS:0")


def test_a_block_ends_the_challenges_between_the_two() -> None:
    lobby, (ann, bob, cid) = lobby_of("ann", "bob", "cid")
    lobby.challenges.challenge(bob, "ann", GAME, CASUAL)
    lobby.challenges.challenge(ann, "bob", GAME, CASUAL)
    lobby.challenges.challenge(cid, "ann", GAME, CASUAL)
    lobby.blocks.add("ann", "bob")
    assert lobby.challenges.blocked("ann", "bob") == [(bob, "DECLINED:ann")]  # as if ann went
    assert [(p.challenger, p.challenged) for p in lobby.challenges.pending()] == [("cid", "ann")]
    assert lobby.challenges.accept(bob, "ann") == [(bob, "ACCEPT:ACKSTATUS:1")]
    assert lobby.challenges.blocked("ann", "bob") == []  # nothing left to end


def test_an_accept_across_a_block_begins_no_game() -> None:
    """Even a challenge the server did not end (the rooms' own rule, whoever forgets)."""
    lobby, (ann, bob) = lobby_of("ann", "bob")
    lobby.challenges.challenge(bob, "ann", GAME, CASUAL)
    lobby.blocks.add("bob", "ann")
    assert lobby.challenges.accept(ann, "bob") == [(ann, "ACCEPT:ACKSTATUS:1")]
    assert lobby.rooms == {}


def test_no_rematch_across_a_block() -> None:
    """Chosen: a block made after a game ends its rematch (REMATCH :1, either way round)."""
    clock = FakeClock()
    lobby, (ann, bob) = lobby_of("ann", "bob", clock=clock)
    lobby.create(ann, "r", GAME)
    lobby.join(bob, "r", wire.Mode.PLAYER)
    lobby.forfeit(bob)
    assert lobby.challenges.rematch(bob)[0] == (bob, "REMATCH:ACKSTATUS:0")
    lobby.blocks.add("ann", "bob")
    assert lobby.challenges.rematch(ann) == [(ann, "REMATCH:ACKSTATUS:1")]  # bob asked first
    assert lobby.challenges.rematch(bob) == [(bob, "REMATCH:ACKSTATUS:1")]
    lobby.blocks.remove("ann", "bob")
    clock.time += REMATCH_WINDOW / 2
    assert lobby.challenges.rematch(ann)[0] == (ann, "REMATCH:ACKSTATUS:0")


# ----- seats: quick play, the room list, joining; watching -----------------------------


def test_quick_play_never_pairs_them() -> None:
    lobby, (ann, bob, cid) = lobby_of("ann", "bob", "cid")
    lobby.blocks.add("bob", "ann")
    assert lobby.quick_play(ann, GAME) == [(ann, "QUICKPLAY:ACKSTATUS:0:quick-1")]
    assert lobby.quick_play(bob, GAME) == [(bob, "QUICKPLAY:ACKSTATUS:0:quick-2")]  # its own
    answer, *begun = lobby.quick_play(cid, GAME)
    assert answer == (cid, "QUICKPLAY:ACKSTATUS:0:quick-1") and begun  # the oldest for cid


def test_the_room_list_hides_a_waiting_room_across_a_block_both_ways() -> None:
    lobby, (ann, bob, cid) = lobby_of("ann", "bob", "cid")
    lobby.create(ann, "ann's", GAME)
    lobby.create(bob, "bob's", GAME)
    lobby.blocks.add("ann", "bob")
    assert lobby.room_names(wire.Mode.PLAYER, bob) == ["bob's"]  # its own still waits
    assert lobby.room_names(wire.Mode.PLAYER, ann) == ["ann's"]  # chosen: both ways
    assert lobby.room_names(wire.Mode.PLAYER, cid) == ["ann's", "bob's"]
    assert lobby.room_names(wire.Mode.VIEWER, bob) == ["ann's", "bob's"]
    lobby.leave(bob)
    assert LOBBY.dispatch(lobby, bob, wire.RoomList(wire.Mode.PLAYER)) == [
        (bob, "ROOMLIST:ACKSTATUS:0:")
    ]


def test_joining_to_play_is_refused_and_watching_allowed() -> None:
    lobby, (ann, bob, cid) = lobby_of("ann", "bob", "cid")
    lobby.create(ann, "r", GAME)
    lobby.blocks.add("ann", "bob")
    assert lobby.join(bob, "r", wire.Mode.PLAYER) == [(bob, "JOIN:ACKSTATUS:1")]
    assert lobby.join(bob, "r", wire.Mode.VIEWER) == [(bob, "JOIN:ACKSTATUS:0")]
    assert lobby.join(cid, "r", wire.Mode.PLAYER)[0] == (cid, "JOIN:ACKSTATUS:0")
    assert bob in lobby.rooms["r"].members  # bob sees the game begin, as a viewer
    lobby.leave(bob)
    assert lobby.join(bob, "r", wire.Mode.PLAYER) == [(bob, "JOIN:ACKSTATUS:2")]  # as for anyone
    assert lobby.join(bob, "r", wire.Mode.VIEWER)[:1] == [(bob, "JOIN:ACKSTATUS:0")]
    lobby.create(cid, "c", GAME)
    lobby.blocks.add("bob", "cid")  # the blocker cannot sit down with the blocked either
    lobby.leave(bob)
    assert lobby.join(bob, "c", wire.Mode.PLAYER) == [(bob, "JOIN:ACKSTATUS:1")]


# ----- random lobbies ------------------------------------------------------------------

ACTS: dict[str, Callable[[Rooms, Member, str], Outbox]] = {
    "create": lambda lobby, me, other: lobby.create(me, f"{me.name}'s", GAME),
    "join": lambda lobby, me, other: lobby.join(me, f"{other}'s", wire.Mode.PLAYER),
    "view": lambda lobby, me, other: lobby.join(me, f"{other}'s", wire.Mode.VIEWER),
    "quick": lambda lobby, me, other: lobby.quick_play(me, GAME),
    "challenge": lambda lobby, me, other: lobby.challenges.challenge(me, other, GAME, CASUAL),
    "accept": lambda lobby, me, other: lobby.challenges.accept(me, other),
    "rematch": lambda lobby, me, other: lobby.challenges.rematch(me),
    "forfeit": lambda lobby, me, other: lobby.forfeit(me),
    "chat": lambda lobby, me, other: lobby.chat(me, "hi"),
    "leave": lambda lobby, me, other: [*lobby.leave(me), *lobby.challenges.logged_out(me)],
}


def _nothing_across_a_block(blocks: Blocks, outbox: Outbox) -> None:
    """No BEGIN pairs two apart, no CHAT reaches its blocker, no CHALLENGED crosses a block."""
    for to, message in outbox:
        word, *fields = message.split(":")
        if word == "BEGIN":
            assert not blocks.between(fields[0], fields[1]), message
        elif word == "CHAT":
            assert not blocks.blocks(to.name, fields[0]), (to, message)
        elif word == "CHALLENGED":
            assert not blocks.between(to.name, fields[0]), (to, message)


@settings(max_examples=300)
@given(
    st.sets(st.tuples(st.sampled_from(USERS), st.sampled_from(USERS)), max_size=5),
    st.lists(
        st.tuples(st.sampled_from(sorted(ACTS)), st.sampled_from(USERS), st.sampled_from(USERS)),
        max_size=40,
    ),
)
def test_no_game_begins_and_no_chat_arrives_across_a_block(
    pairs: set[tuple[str, str]], acts: list[tuple[str, str, str]]
) -> None:
    lobby, members = lobby_of(*USERS, clock=FakeClock())
    lobby.blocks.load(pairs)
    member = dict(zip(USERS, members, strict=True))
    for act, who, other in acts:
        _nothing_across_a_block(lobby.blocks, ACTS[act](lobby, member[who], other))
        if act == "leave":  # and logs in again
            member[who] = Member(who)
            lobby.challenges.logged_in(member[who])
        for room in lobby.rooms.values():
            if room.red is not None and room.yellow is not None:
                assert not lobby.blocks.between(room.red.name, room.yellow.name)
