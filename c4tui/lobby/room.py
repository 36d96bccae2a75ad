"""One room of the lobby: its settings and terms, its players and viewers, its game.

The rooms (``c4tui.lobby.rooms``) keep these and say what each request does to
them; a room itself only knows who is in it and where each one sits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from c4tui.lobby.clock import GameClock
from c4tui.lobby.table import RoomKind, Seat, Table
from c4tui.protocols.colours import Colour
from c4tui.protocols.rooms import ack
from c4tui.protocols.terms import CASUAL, Terms, terms_fields

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
    ``guest``: an ssh visitor without an account (§9), who only watches: no one can
    challenge it (the server lets it ask for nothing else).
    """

    name: str
    bot: bool = False
    guest: bool = False


@dataclass(eq=False)
class Room(Generic[S, M]):
    """A room: its settings, its players and viewers, and its game.

    Its creator waits in the seat of the colour it asked for (red for random, until
    the game begins and the coin decides); the second player takes the other seat.
    """

    name: str
    game: S  # the settings it was created with
    red: Member | None  # the first seat's (None while a creator waits in yellow's)
    number: int
    state: Table[M]
    yellow: Member | None = None  # the second seat's
    viewers: list[Member] = field(default_factory=list)
    terms: Terms = CASUAL  # rated or casual, and its clock
    away: dict[Seat, int] = field(default_factory=dict)  # seats whose player left, in what order
    plies: int = 0  # moves played in its game
    clock: GameClock | None = None  # a timed game's clock, once it has begun
    colour: Colour = Colour.RED  # the creator's choice (§5.6)

    @classmethod
    def opened(  # noqa: PLR0917 (a room's every field but those of its game)
        cls,
        name: str,
        settings: S,
        creator: Member,
        number: int,
        table: Table[M],
        terms: Terms,
        colour: Colour,
    ) -> Room[S, M]:
        """A new room, its creator waiting in the seat of its ``colour``."""
        room = cls(name, settings, creator, number, table, terms=terms, colour=colour)
        if room.colour is Colour.YELLOW:
            room.red, room.yellow = None, creator
        return room

    @classmethod
    def restored(  # noqa: PLR0917 (as ``opened``, and the game's moves)
        cls,
        name: str,
        settings: S,
        players: tuple[str, str],
        number: int,
        table: Table[M],
        terms: Terms,
        moves: Iterable[M],
    ) -> Room[S, M]:
        """A game under way before a restart, ``moves`` played (they were legal then)."""
        red, yellow = Member(players[0]), Member(players[1])
        room = cls(name, settings, red, number, table, yellow, terms=terms)
        for move in moves:
            room.state = room.state.play(move)
            room.plies += 1  # numbered on from the stored moves (no GameBegan: it is stored)
        return room

    @property
    def playing(self) -> bool:
        """True once the second player has joined (BEGIN was sent)."""
        return self.red is not None and self.yellow is not None

    @property
    def waiter(self) -> Member:
        """The creator of a room still waiting, in whichever seat it took."""
        waiter = self.red or self.yellow
        assert waiter is not None, "a room has its creator"
        return waiter

    def who_is_there(self) -> list[str]:
        """ROOMINFO's red, yellow (empty while free: a creator waits in either), viewers, state."""
        names = [player.name if player else "" for player in (self.red, self.yellow)]
        return [*names, str(len(self.viewers)), "playing" if self.playing else "waiting"]

    def info(self, kind: RoomKind[S, M]) -> str:
        """ROOMINFO's answer: its board (as ``kind`` says it), who is there, its terms."""
        fields = [*kind.settings_fields(self.game), *self.who_is_there()]
        return ack("ROOMINFO", 0, *fields, *terms_fields(self.terms, always=True))

    def sit(self, joiner: Member, creator_red: bool) -> None:
        """The second player sits down: the creator takes red (or yellow), ``joiner`` the other."""
        creator = self.waiter
        self.red, self.yellow = (creator, joiner) if creator_red else (joiner, creator)

    @property
    def members(self) -> list[Member]:
        """Everyone in the room now: players first (not those away), then viewers."""
        players = [
            member
            for seat in Seat
            if seat not in self.away and (member := self.player(seat)) is not None
        ]
        return players + self.viewers

    def seated(self, seat: Seat) -> Member:
        """The player in ``seat``, which is taken (both are once the game has begun)."""
        player = self.player(seat)
        assert player is not None, "both seats are taken once the game has begun"
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
