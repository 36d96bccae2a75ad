"""Acts the store could not keep: a move refused to its sender and told to nobody (§5.6's trial).

Committed before announced (``LobbyService.announce``) means a write that fails
must not be announced either: everyone would be told of a move that is not on disk,
and a client left out of step when the server comes back without it. When the
write of several acts at once fails, each is tried alone; a move that still cannot
be kept is taken back in the rooms (``TableTalk.unmove``, the takeback's own undo)
and its sender alone hears ``INVALID``, so it may simply try again.

An act that cannot be undone so (a game's beginning or end, a takeback, a move
with the end it brought) has happened in the rooms already: it is told all the
same, with an error in the log, since clients told nothing would wait for ever
on a room that is gone (and the look for fallen flags, which announces such ends,
must go on). The store then lacks it: a game whose end was not kept is restored
after a restart as under way, and aborted if nobody comes back to it (§5.6).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from c4tui.lobby import Lobby, Member, Outbox
from c4tui.lobby.journal import GameEvent, MoveMade
from c4tui.protocols import lobby as wire
from c4tui.server.store import NewRatings

log = logging.getLogger("c4tui.server")

#: What the sender of a move the store could not keep is told (INVALID's reason).
NOT_KEPT = "the server could not save that move: it was not played, try again"
S = TypeVar("S")
M = TypeVar("M")


class Keeper(Protocol[S, M]):
    """Something that keeps what happened to one kind of rooms' games (the lobby's store)."""

    async def keep(self, journal: Sequence[GameEvent[S, M]]) -> Sequence[NewRatings]:
        """Keep ``journal``, in order; everything is on disk when this returns.

        What the ratings became, for each rated game that ended (§5.3's RATING).
        """


@dataclass(frozen=True)
class Act(Generic[S, M]):
    """One act of the rooms waiting to be announced: what it did to the games, its answer."""

    journal: list[GameEvent[S, M]]
    outbox: Outbox
    by: Member | None = None  # who asked for it (None: the server's own, a timer's)


async def keep_each(
    keeper: Keeper[S, M], rooms: Lobby[S, M], acts: Sequence[Act[S, M]]
) -> tuple[list[Outbox], list[NewRatings]]:
    """Keep ``acts`` one by one after their write together failed: what to deliver, and ratings.

    A lone move that cannot be kept is undone and refused to its sender; anything else
    that cannot be kept is told all the same (see the module), its failure logged.
    """
    outboxes: list[Outbox] = []
    rated: list[NewRatings] = []
    for act in acts:
        try:
            rated += await keeper.keep(act.journal) if act.journal else []
        except Exception as error:
            refusal = _refused(rooms, act)
            if refusal is not None:
                log.warning("a move in %s could not be kept (%s): refused", act.journal[0], error)
                outboxes.append(refusal)
                continue
            log.error("%s could not be kept (%s): told all the same", act.journal, error)
        outboxes.append(act.outbox)
    return outboxes, rated


def _refused(rooms: Lobby[S, M], act: Act[S, M]) -> Outbox | None:
    """INVALID to the sender of ``act``'s move, once it is undone (None: it cannot be)."""
    if act.by is None or len(act.journal) != 1 or not isinstance(act.journal[0], MoveMade):
        return None
    if not rooms.talk.unmove(act.journal[0].room):
        return None
    return [(act.by, wire.invalid(NOT_KEPT))]
