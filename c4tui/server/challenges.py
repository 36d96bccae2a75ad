"""Who is online, as the lobby's player list shows it (PLAYERS, c4tui's own, beside §5.5).

Challenges themselves are the rooms' (``c4tui.lobby.challenges``), dispatched by
the lobby's dialect like every room request, so the game an ACCEPT begins is
kept before its BEGIN is sent. PLAYERS needs the store (each player's rating and
whether it is a bot), so the server answers it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from c4tui.protocols.competition import MAX_PLAYERS_LISTED, PlayerEntry, players

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyService

S = TypeVar("S")
M = TypeVar("M")


async def players_answer(service: LobbyService[S, M]) -> str:
    """PLAYERS' answer: every logged-in user, by name, with rating, free or busy, human or bot.

    A player is busy in a room (waiting, playing, watching) or away from a game;
    at most ``MAX_PLAYERS_LISTED`` are listed, the first by name. A guest (§9), who only
    watches and whom no one may challenge, is no player: it is not listed.
    """
    online = [member for member in service.online() if not member.guest]  # §9: no one's rival
    members = sorted(online, key=lambda member: member.name)[:MAX_PLAYERS_LISTED]
    ratings = await service.store.ratings([member.name for member in members])
    entries = []
    for member in members:
        rating, bot = ratings.get(member.name, (0.0, member.bot))
        busy = service.rooms.challenges.busy(member.name)
        entries.append(PlayerEntry(member.name, round(rating), busy, bot))
    return players(entries)
