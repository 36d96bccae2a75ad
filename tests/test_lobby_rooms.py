"""The lobby's rooms without sockets: who is told what, and when rooms go away."""

from __future__ import annotations

from typing import get_args

import pytest

from c4tui.engine import Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.protocols.keys import KeyRequest
from c4tui.protocols.public import PublicRequest
from c4tui.protocols.puzzles import PuzzleRequest
from c4tui.server.dialects import LOBBY, Dialect
from c4tui.server.standing import STANDING_REQUESTS
from c4tui.server.tictactoe import TICTACTOE

GAME = (4, 4, Rules.CLASSIC)


def test_a_smaller_limit_of_rooms_is_kept() -> None:
    lobby = Lobby(CONNECT_FOUR, max_rooms=2)
    ann, bob, cid = Member("ann"), Member("bob"), Member("cid")
    assert lobby.create(ann, "a", GAME) == [(ann, "CREATE:ACKSTATUS:0")]
    assert lobby.create(bob, "b", GAME) == [(bob, "CREATE:ACKSTATUS:0")]
    assert lobby.create(cid, "c", GAME) == [(cid, "CREATE:ACKSTATUS:3")]
    assert lobby.quick_play(cid, GAME) == [(cid, "QUICKPLAY:ACKSTATUS:0:a")] + [
        (member, "BEGIN:ann:cid:4:4:classic") for member in (ann, cid)
    ]


def test_leaving_a_waiting_room_deletes_it_and_frees_its_viewers() -> None:
    lobby = Lobby(CONNECT_FOUR)
    ann, vic = Member("ann"), Member("vic")
    lobby.create(ann, "a", GAME)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    assert lobby.leave(ann) == []  # nobody to tell: the game never began
    assert lobby.rooms == {} and lobby.room_of(vic) is None
    assert lobby.chat(vic, "anyone?") == [(vic, "NOROOM")]


def test_a_viewer_leaving_changes_nothing_for_the_players() -> None:
    lobby = Lobby(CONNECT_FOUR)
    ann, bob, vic = Member("ann"), Member("bob"), Member("vic")
    lobby.create(ann, "a", GAME)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    assert lobby.leave(vic) == []
    assert lobby.room_info("a") == "ROOMINFO:ACKSTATUS:0:4:4:classic:ann:bob:0:playing:casual:-"
    outbox = lobby.leave(bob)  # a player leaving forfeits, to those who remain
    assert outbox == [(ann, f"GAMEEND:{'0' * 16}:2:ann")]
    assert lobby.rooms == {}


@pytest.mark.parametrize(
    ("dialect", "requests"), [(LOBBY, wire.Request), (TICTACTOE, ttt_wire.Request)]
)
def test_every_room_request_of_a_dialect_has_an_act(dialect: object, requests: object) -> None:
    """The table dispatches every request but the accounts' and the store's (not the rooms')."""
    assert isinstance(dialect, Dialect)
    answered_by_the_store = {wire.Register, wire.Login, wire.History, wire.GameLookup}
    answered_by_the_store |= {*STANDING_REQUESTS, competition.Players, *get_args(PublicRequest)}
    answered_by_the_store |= set(get_args(PuzzleRequest))  # §8
    answered_by_the_store |= set(get_args(KeyRequest))  # §9 (KEYGUEST too)
    assert dialect.kinds == set(get_args(requests)) - answered_by_the_store
