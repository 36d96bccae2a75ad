"""One room of the lobby: its settings and terms, its players and viewers, its game.

The rooms (``c4tui.lobby.rooms``) keep these and say what each request does to
them; a room itself only knows who is in it and where each one sits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from c4tui.lobby.clock import GameClock
from c4tui.lobby.table import Seat, Table
from c4tui.protocols.terms import CASUAL, Terms

#: (recipient, message) in the order they must be sent.
Outbox = list[tuple["Member", str]]
#: A room's settings (the board's size and rules; nothing for tic-tac-toe).
S = TypeVar("S")
#: A move in the rooms' game.
M = TypeVar("M")


@dataclass(eq=False)
class Member:
    """One logged-in connection (where it is, the ``Lobby`` knows).

    ``bot``: the account is a bot (§5.5): quick play never seats two in a rated room.
    """

    name: str
    bot: bool = False


@dataclass(eq=False)
class Room(Generic[S, M]):
    """A room: its settings, its players (RED is the creator) and viewers, and its game."""

    name: str
    game: S  # the settings it was created with
    red: Member  # the first seat's
    number: int
    state: Table[M]
    yellow: Member | None = None  # the second seat's
    viewers: list[Member] = field(default_factory=list)
    terms: Terms = CASUAL  # rated or casual, and its clock
    away: dict[Seat, int] = field(default_factory=dict)  # seats whose player left, in what order
    plies: int = 0  # moves played in its game
    clock: GameClock | None = None  # a timed game's clock, once it has begun

    @property
    def playing(self) -> bool:
        """True once the second player has joined (BEGIN was sent)."""
        return self.yellow is not None

    @property
    def members(self) -> list[Member]:
        """Everyone in the room now: players first (not those away), then viewers."""
        seats = [Seat.FIRST] if self.yellow is None else [Seat.FIRST, Seat.SECOND]
        players = [self.seated(seat) for seat in seats if seat not in self.away]
        return players + self.viewers

    def seated(self, seat: Seat) -> Member:
        """The player in ``seat``, which is taken (the second one once the game has begun)."""
        player = self.player(seat)
        assert player is not None, "the second seat is taken once the game has begun"
        return player

    def away_seat(self, user: str) -> Seat | None:
        """The seat of ``user`` if it is away from this room (None: it is not)."""
        return next((seat for seat in self.away if self.seated(seat).name == user), None)

    def player(self, seat: Seat) -> Member | None:
        """The member in ``seat``."""
        return self.red if seat is Seat.FIRST else self.yellow

    def seat_of(self, member: Member) -> Seat | None:
        """The seat ``member`` plays from here (None for a viewer)."""
        if member is self.red:
            return Seat.FIRST
        return Seat.SECOND if member is self.yellow else None

    def to_all(self, message: str) -> Outbox:
        """``message`` for everyone in the room."""
        return [(member, message) for member in self.members]
