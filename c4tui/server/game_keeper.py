"""Keeping the lobby's games: the rooms' journal, written to the store as it happens.

The rooms (``c4tui.lobby``) know games by their room's name; the store knows them
by number. The keeper holds the one map between the two for the games under way.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from c4tui.engine import Move
from c4tui.lobby.journal import GameBegan, GameEvent, GameFinished, MoveMade
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.server.store import LobbyStore

#: The rooms' settings; a move in their game.
S = TypeVar("S")
M = TypeVar("M")


class Keeper(Protocol[S, M]):
    """Something that keeps what happened to one kind of rooms' games."""

    async def keep(self, journal: list[GameEvent[S, M]]) -> None:
        """Keep ``journal`` (in order); everything is on disk when this returns."""


class GameKeeper:
    """Keeps the Connect Four rooms' games in the lobby's store.

    Args:
        store: where the games go.
    """

    def __init__(self, store: LobbyStore) -> None:
        self.store = store
        self._numbers: dict[str, int] = {}  # room -> its game's number, while it is played

    def number_of(self, room: str) -> int | None:
        """The number of the game under way in ``room`` (None: none is)."""
        return self._numbers.get(room)

    def adopt(self, room: str, number: int) -> None:
        """``room`` plays stored game ``number`` again (a game restored after a restart)."""
        self._numbers[room] = number

    async def keep(self, journal: list[GameEvent[ConnectFourSettings, Move]]) -> None:
        """Write each event to the store, in order, each committed before the next."""
        for event in journal:
            if isinstance(event, GameBegan):
                self._numbers[event.room] = await self.store.game_started(
                    event.room, event.red, event.yellow, event.settings
                )
            elif isinstance(event, MoveMade):
                await self.store.move_played(self._numbers[event.room], event.ply, event.move)
            elif isinstance(event, GameFinished):
                number = self._numbers.pop(event.room)
                await self.store.game_ended(number, event.winner, event.reason)
