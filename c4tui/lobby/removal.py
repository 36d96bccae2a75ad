"""Taking a user out of the rooms at once (spec/protocols.md §7): banned, or deleted.

Whatever the user was doing ends by the rooms' own rules, as if it had given up:
its game in progress is forfeited (``GAMEEND:<cells>:2:<opponent>`` to everyone in
the room, journaled like any FORFEIT, so the server keeps it before it tells it),
whether the user sits there connected or is away in its grace; a room it created
and waits in closes (its viewers are then in no room, as when a waiting creator
leaves); as a viewer it just leaves. Pure, like the rooms: the server passes the
user's members (each connection logged in as it) and sends what comes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from c4tui.lobby.room import Member, Outbox
from c4tui.lobby.rooms import Lobby

#: The rooms' settings; a move in their game.
S = TypeVar("S")
M = TypeVar("M")


def removed(rooms: Lobby[S, M], user: str, members: Iterable[Member]) -> Outbox:
    """Take ``user`` (logged in as ``members``, if at all) out of every room: what to send.

    The members stay logged in: the server closes their connections afterwards.
    """
    outbox: Outbox = []
    for member in members:
        outbox += _taken_out(rooms, member)
    if rooms.is_away(user):
        outbox += _forfeited_away(rooms, user)
    return outbox


def _taken_out(rooms: Lobby[S, M], member: Member) -> Outbox:
    """``member`` leaves its room: a player forfeits its game, a waiting creator's room closes."""
    room = rooms.room_of(member)
    if room is None:
        return []
    if room.playing and room.seat_of(member) is not None:
        return rooms.forfeit(member)
    return rooms.leave(member)  # a viewer leaves; a room still waiting closes


def _forfeited_away(rooms: Lobby[S, M], user: str) -> Outbox:
    """``user`` is away from a game: it loses it now, not when its grace runs out.

    It is seated again first, as a member nobody's connection holds, and forfeits
    from there: the same FORFEIT as a player's, so the game ends, and is journaled,
    the one way. What sitting down again would say (REJOIN to it, BACK to the
    others) is never sent: it did not come back.
    """
    ghost = Member(user)
    rooms.rejoin(ghost)
    return [(member, message) for member, message in rooms.forfeit(ghost) if member is not ghost]
