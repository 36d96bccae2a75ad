"""The lobby's room list as its table shows it: one row of words per room."""

from __future__ import annotations

from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.match.settings import describe_game
from c4tui.protocols import lobby as wire
from c4tui.ui.widgets.room_table import Row


async def room_rows(link: LobbyLink, tictactoe: bool) -> list[Row]:
    """Every room on ``link``'s server. Raises NetworkError, ProtocolError, TimeoutError."""
    return await (_tictactoe_rows(link) if tictactoe else _lobby_rows(link))


async def _lobby_rows(link: LobbyLink) -> list[Row]:
    """Each room's row: name, board, players, viewers, state."""
    return [_row(room) for room in await link.rooms()]


def _row(room: RoomSummary) -> Row:
    return room.name, describe_game(*room.game), room.players, room.viewers, room.state


async def _tictactoe_rows(link: LobbyLink) -> list[Row]:
    """Rows from the two room lists (the protocol says no more of a room)."""
    every = await link.room_names(wire.Mode.VIEWER)
    waiting = set(await link.room_names(wire.Mode.PLAYER))
    return [
        (name, "tic-tac-toe", "waiting for a player" if name in waiting else "playing")
        for name in every
    ]
