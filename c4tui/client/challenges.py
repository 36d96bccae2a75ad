"""A game a challenge began (spec §5.5), as a client follows it.

ACCEPT's answer and BEGIN do not name the room the server opened for the game
(``challenge-<n>``), yet coming back after a drop needs it (REJOIN names it):
it is the room among the challenges' where the two players play.
"""

from __future__ import annotations

import asyncio

from c4tui.client import words
from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.protocols import lobby as wire

#: What the server names the rooms of accepted challenges and rematches.
CHALLENGE_ROOMS = "challenge-"


async def room_of(link: LobbyLink, begin: wire.Begin) -> str:
    """The name of the room ``begin``'s game is played in (its players' only one)."""
    names = [n for n in await link.room_names(wire.Mode.VIEWER) if n.startswith(CHALLENGE_ROOMS)]
    answers = await asyncio.gather(*(link.room_info(name) for name in names))
    for name, answer in zip(names, answers, strict=True):
        room = RoomSummary.of(name, answer)
        if room is not None and (room.red, room.yellow) == (begin.red, begin.yellow):
            return name
    return f"{begin.red} vs {begin.yellow}"  # gone already (a forfeit): a name for people


async def challenge_game(link: LobbyLink, begin: wire.Begin) -> tuple[RoomGame, str]:
    """The game ``begin`` starts (a challenge or a rematch accepted), and its room's name."""
    room = await room_of(link, begin)
    return await room_game_from(link, begin, room), room


async def why_declined(link: LobbyLink, user: str) -> str:
    """DECLINED from ``user`` in words that say which: declined, or no longer free.

    The server sends DECLINED for both; PLAYERS says whether ``user`` is still free.
    Raises NetworkError, ProtocolError, TimeoutError.
    """
    entry = next((entry for entry in await link.players() if entry.user == user), None)
    return words.declined_or_not_free(user, free=entry is not None and not entry.busy)
