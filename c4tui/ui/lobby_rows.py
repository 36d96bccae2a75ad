"""The lobby's lists as its tables show them: one row of words per room, and per player.

Whom we block (BLOCKS, §7) is asked with the lists, so a block made anywhere (a
profile, a game) is marked at the next refresh: ``[blocked]`` after the name, in
words (no colour needed), dimmed by the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.match.settings import describe_game
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import PlayerEntry
from c4tui.ui.widgets.player_table import BOT_MARK, player_row
from c4tui.ui.widgets.room_table import BLOCKED_MARK, Row


async def lobby_rows(
    link: LobbyLink, tictactoe: bool
) -> tuple[list[Row], list[Row], frozenset[str]]:
    """The rooms' rows, the players' (who is online: none on tic-tac-toe), whom we block (folded).

    Raises NetworkError, ProtocolError, TimeoutError.
    """
    if tictactoe:
        return await _tictactoe_rows(link), [], frozenset()
    rooms, players, blocks = await asyncio.gather(link.rooms(), link.players(), link.blocks())
    blocked = frozenset(user.casefold() for user in blocks or ())  # None: from before §7
    online = {entry.user: entry for entry in players}
    rows = [player_row(entry, entry.user.casefold() in blocked) for entry in players]
    return [_row(room, online, blocked) for room in rooms], rows, blocked


def _row(room: RoomSummary, online: Mapping[str, PlayerEntry], blocked: frozenset[str]) -> Row:
    """Name, board, players with their ratings, viewers, state, and the terms (rated 3+2)."""
    red, yellow = _rated(room.red, online, blocked), _rated(room.yellow, online, blocked)
    waiter = _rated(room.waiter, online, blocked)
    players = f"{waiter} waits" if room.waiter else f"{red} vs {yellow}"
    board = describe_game(*room.game)
    return room.name, board, players, room.viewers, room.state, room.terms.words


def _rated(user: str, online: Mapping[str, PlayerEntry], blocked: frozenset[str]) -> str:
    """``ann 1512``, ``robo 1800 [bot]``, ``ann 1512 [blocked]``; a player away: no rating."""
    entry = online.get(user)
    said = user if entry is None else f"{user} {entry.rating}"
    if entry is not None and entry.bot:
        said += f" {BOT_MARK}"
    return f"{said} {BLOCKED_MARK}" if user and user.casefold() in blocked else said


async def _tictactoe_rows(link: LobbyLink) -> list[Row]:
    """Rows from the two room lists (the protocol says no more of a room)."""
    every = await link.room_names(wire.Mode.VIEWER)
    waiting = set(await link.room_names(wire.Mode.PLAYER))
    return [
        (name, "tic-tac-toe", "waiting for a player" if name in waiting else "playing")
        for name in every
    ]
