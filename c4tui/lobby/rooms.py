"""Rooms of the lobby protocol (spec/protocols.md §4): who is where, and each room's game.

Every method takes a member and what it asked for and returns the ``Outbox``:
the messages to send, to whom, in order. A member is in at most one room; the
creator takes the first seat and waits; the second player starts the game
(BEGIN); viewers may join before or during it; the game's end (a win, a draw, a
forfeit, a player leaving) deletes the room.

What is played in the rooms, and the words for it, is the ``RoomKind``'s
(``c4tui.lobby.kinds``): Connect Four in the lobby, tic-tac-toe on the port for
INFO1112 clients. The rooms themselves are the same for both.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Protocol, TypeVar

from c4tui.lobby.journal import EndReason, GameBegan, GameEvent, GameFinished, MoveMade
from c4tui.protocols import lobby as wire
from c4tui.protocols.limits import MAX_ROOMS

#: (recipient, message) in the order they must be sent.
Outbox = list[tuple["Member", str]]
#: A room's settings (the board's size and rules; nothing for tic-tac-toe).
S = TypeVar("S")
#: A move in the rooms' game.
M = TypeVar("M")
S_contra = TypeVar("S_contra", contravariant=True)
M_contra = TypeVar("M_contra", contravariant=True)


class Seat(Enum):
    """A player's place in a room: the creator's moves first."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Seat:
        """The opponent's seat."""
        return Seat.SECOND if self is Seat.FIRST else Seat.FIRST


class Table(Protocol[M_contra]):
    """A room's game, as the rooms need to see it: whose turn, how it ended, its words."""

    @property
    def seat_to_move(self) -> Seat:
        """Whose turn it is."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended (a win or a draw)."""

    @property
    def winning_seat(self) -> Seat | None:
        """Who won (None: nobody, yet or at all)."""

    @property
    def end_reason(self) -> EndReason | None:
        """How it ended on the board: a line, a full board, a repetition (None: not over)."""

    def refusal(self, move: M_contra) -> str | None:
        """Why ``move`` may not be played now (None: it may)."""

    def play(self, move: M_contra) -> Table[M_contra]:
        """The game after ``move`` (which ``refusal`` allowed)."""

    def board_status(self) -> str:
        """The board, to everyone after each move."""

    def game_end(self, status: int, winner: str | None) -> str:
        """GAMEEND: 0 a win, 1 a draw, 2 a forfeit."""

    def refused(self, reason: str) -> str:
        """The answer to a game message refused (to its sender only)."""


class RoomKind(Protocol[S_contra, M_contra]):
    """What is played in the rooms with which settings, and the protocol's words for them."""

    def new_table(self, settings: S_contra) -> Table[M_contra]:
        """A new game with a room's settings."""

    def settings_fields(self, settings: S_contra) -> list[str]:
        """The settings as ROOMINFO lists them."""

    def begin(self, first: str, second: str, settings: S_contra) -> str:
        """BEGIN, to everyone in the room."""

    def in_progress(self, to_move: str, other: str, settings: S_contra) -> str:
        """INPROGRESS, to a viewer joining a game under way (the board follows)."""


@dataclass(eq=False)
class Member:
    """One logged-in connection (where it is, the ``Lobby`` knows)."""

    name: str


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
    plies: int = 0  # moves played in its game

    @property
    def playing(self) -> bool:
        """True once the second player has joined (BEGIN was sent)."""
        return self.yellow is not None

    @property
    def members(self) -> list[Member]:
        """Everyone in the room: players first, then viewers."""
        players = [self.red] if self.yellow is None else [self.red, self.yellow]
        return players + self.viewers

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


class Lobby(Generic[S, M]):
    """Every room, who is in which, and what each request does to them.

    Generic over the game's settings and moves, so that a move of one kind of game
    cannot reach another's rooms (the type checker says so).
    """

    def __init__(self, kind: RoomKind[S, M], max_rooms: int = MAX_ROOMS) -> None:
        self.kind = kind
        self.max_rooms = max_rooms
        self.rooms: dict[str, Room[S, M]] = {}
        self._where: dict[Member, Room[S, M]] = {}  # members in a room (absent: the lobby)
        self._numbers = itertools.count(1)
        self._quick_names = itertools.count(1)
        self._journal: list[GameEvent[S, M]] = []

    def take_journal(self) -> list[GameEvent[S, M]]:
        """What happened to the games since the last call, oldest first (the server keeps it)."""
        journal, self._journal = self._journal, []
        return journal

    # ----- looking ---------------------------------------------------------------

    def room_of(self, member: Member) -> Room[S, M] | None:
        """The room ``member`` is in (None: the lobby itself)."""
        return self._where.get(member)

    def room_names(self, mode: wire.Mode) -> list[str]:
        """PLAYER: rooms whose creator waits; VIEWER: every room."""
        return [
            name
            for name, room in self.rooms.items()
            if mode is wire.Mode.VIEWER or not room.playing
        ]

    def room_info(self, name: str) -> str:
        """ROOMINFO's answer for the room called ``name``."""
        room = self.rooms.get(name)
        if room is None:
            return wire.ack("ROOMINFO", 1)
        return wire.ack(
            "ROOMINFO",
            0,
            *self.kind.settings_fields(room.game),
            room.red.name,
            room.yellow.name if room.yellow else "",
            str(len(room.viewers)),
            "playing" if room.playing else "waiting",
        )

    # ----- entering --------------------------------------------------------------

    def create(self, member: Member, name: str, settings: S) -> Outbox:
        """Create a room and wait in it in the first seat."""
        status = self._create_problem(member, name)
        if status:
            return [(member, wire.ack("CREATE", status))]
        self._open(member, name, settings)
        return [(member, wire.ack("CREATE", 0))]

    def _create_problem(self, member: Member, name: str) -> int:
        if member in self._where:
            return 4
        if name in self.rooms:
            return 2
        if len(self.rooms) >= self.max_rooms:
            return 3
        return 0

    def _open(self, member: Member, name: str, settings: S) -> Room[S, M]:
        room = Room(name, settings, member, next(self._numbers), self.kind.new_table(settings))
        self.rooms[name] = room
        self._where[member] = room
        return room

    def join(self, member: Member, name: str, mode: wire.Mode) -> Outbox:
        """Join as the second player (the game begins) or as a viewer."""
        room = self.rooms.get(name)
        if member in self._where:
            return [(member, wire.ack("JOIN", 3))]
        if room is None:
            return [(member, wire.ack("JOIN", 1))]
        if mode is wire.Mode.PLAYER:
            if room.playing:
                return [(member, wire.ack("JOIN", 2))]
            return [(member, wire.ack("JOIN", 0)), *self._begin(room, member)]
        room.viewers.append(member)
        self._where[member] = room
        return [(member, wire.ack("JOIN", 0)), *self._catch_up(room, member)]

    def _begin(self, room: Room[S, M], yellow: Member) -> Outbox:
        room.yellow = yellow
        self._where[yellow] = room
        self._journal.append(GameBegan(room.name, room.red.name, yellow.name, room.game))
        return room.to_all(self.kind.begin(room.red.name, yellow.name, room.game))

    def _catch_up(self, room: Room[S, M], viewer: Member) -> Outbox:
        """What a viewer joining a game in progress must see: who plays, and the board."""
        if not room.playing:
            return []  # BEGIN will come when the second player joins
        to_move = room.player(room.state.seat_to_move)
        other = room.player(room.state.seat_to_move.other)
        assert to_move is not None and other is not None
        return [
            (viewer, self.kind.in_progress(to_move.name, other.name, room.game)),
            (viewer, room.state.board_status()),
        ]

    def quick_play(self, member: Member, game: S) -> Outbox:
        """Join the oldest waiting room with exactly ``game``, or open one and wait."""
        if member in self._where:
            return [(member, wire.ack("QUICKPLAY", 1))]
        waiting = [r for r in self.rooms.values() if not r.playing and r.game == game]
        if waiting:
            room = min(waiting, key=lambda r: r.number)
            return [(member, wire.ack("QUICKPLAY", 0, room.name)), *self._begin(room, member)]
        if len(self.rooms) >= self.max_rooms:
            return [(member, wire.ack("QUICKPLAY", 1))]
        name = self._quick_name()
        self._open(member, name, game)
        return [(member, wire.ack("QUICKPLAY", 0, name))]

    def _quick_name(self) -> str:
        while (name := f"quick-{next(self._quick_names)}") in self.rooms:
            pass
        return name

    # ----- playing ---------------------------------------------------------------

    def play(self, member: Member, move: M | None, unreadable: str | None = None) -> Outbox:
        """A move: the board to all, GAMEEND to all at the end, or a refusal to the mover.

        ``unreadable`` says why the move could not be read (``move`` is then None).
        """
        room = self._where.get(member)
        if room is None:
            return [(member, wire.NOROOM)]
        problem = self._move_problem(room, member) or unreadable
        if problem is None and move is not None:
            problem = room.state.refusal(move)
            if problem is None:
                return self._played(room, move)
        assert problem is not None, "a move that could not be read comes with the reason"
        return [(member, room.state.refused(problem))]

    def _played(self, room: Room[S, M], move: M) -> Outbox:
        """The board to all after ``move`` (a legal one), or GAMEEND if it ends the game."""
        room.state = room.state.play(move)
        room.plies += 1
        self._journal.append(MoveMade(room.name, room.plies, move))
        if room.state.is_over:
            return self._end(room, self._result(room))
        return room.to_all(room.state.board_status())

    def _move_problem(self, room: Room[S, M], member: Member) -> str | None:
        seat = room.seat_of(member)
        if seat is None:
            return "viewers cannot move"
        if not room.playing:
            return "the game has not begun: wait for a second player"
        if seat is not room.state.seat_to_move:
            return "not your turn"
        return None

    def _result(self, room: Room[S, M]) -> str:
        winner = room.state.winning_seat
        reason = room.state.end_reason
        assert reason is not None, "a game that is over says how it ended"
        if winner is None:
            self._journal.append(GameFinished(room.name, None, reason))
            return room.state.game_end(1, None)
        player = room.player(winner)
        assert player is not None
        self._journal.append(GameFinished(room.name, player.name, reason))
        return room.state.game_end(0, player.name)

    def forfeit(self, member: Member) -> Outbox:
        """FORFEIT: the other player wins (status 2)."""
        room = self._where.get(member)
        if room is None:
            return [(member, wire.NOROOM)]
        seat = room.seat_of(member)
        if seat is None:
            return [(member, room.state.refused("viewers cannot forfeit"))]
        if not room.playing:
            return [(member, room.state.refused("the game has not begun"))]
        return self._forfeited(room, seat, EndReason.FORFEIT)

    def _forfeited(self, room: Room[S, M], loser: Seat, reason: EndReason) -> Outbox:
        """The player in ``loser``'s seat gave up or left (``reason``): the other wins."""
        winner = room.player(loser.other)
        assert winner is not None
        self._journal.append(GameFinished(room.name, winner.name, reason))
        return self._end(room, room.state.game_end(2, winner.name))

    def _end(self, room: Room[S, M], message: str) -> Outbox:
        """Tell everyone how it ended and delete the room."""
        outbox = room.to_all(message)
        self._close(room)
        return outbox

    def _close(self, room: Room[S, M]) -> None:
        for member in room.members:
            self._where.pop(member, None)
        self.rooms.pop(room.name, None)

    def chat(self, member: Member, text: str) -> Outbox:
        """CHAT:<user>:<text> to everyone in the sender's room."""
        room = self._where.get(member)
        if room is None:
            return [(member, wire.NOROOM)]
        return room.to_all(wire.chat(member.name, text))

    # ----- leaving ---------------------------------------------------------------

    def leave(self, member: Member) -> Outbox:
        """The member's connection is gone: a player forfeits, a waiting creator's room closes."""
        room = self._where.get(member)
        if room is None:
            return []
        if member in room.viewers:
            room.viewers.remove(member)
            del self._where[member]
            return []
        seat = room.seat_of(member)
        if room.playing and seat is not None:
            outbox = self._forfeited(room, seat, EndReason.DISCONNECT)
            return [(m, text) for m, text in outbox if m is not member]
        self._close(room)  # a waiting creator left: its viewers are in no room now
        return []
