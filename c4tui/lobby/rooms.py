"""Rooms of the lobby protocol (spec/protocols.md §4): who is where, and each room's game.

Every method takes a member and a parsed request and returns the ``Outbox``: the
messages to send, to whom, in order. A member is in at most one room; the
creator is RED and waits; the second player starts the game (BEGIN); viewers
may join before or during it; the game's end (a win, a draw, a forfeit, a
player leaving) deletes the room.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from c4tui.engine import GameState, Player, Rules
from c4tui.protocols import lobby as wire
from c4tui.protocols.limits import MAX_ROOMS

#: (recipient, message) in the order they must be sent.
Outbox = list[tuple["Member", str]]
Game = tuple[int, int, Rules]


@dataclass(eq=False)
class Member:
    """One logged-in connection; ``room`` is where it is (None: the lobby itself)."""

    name: str
    room: Room | None = None


@dataclass(eq=False)
class Room:
    """A room: its settings, its players (RED is the creator) and viewers, and its game."""

    name: str
    game: Game
    red: Member
    number: int
    yellow: Member | None = None
    viewers: list[Member] = field(default_factory=list)
    state: GameState = field(init=False)

    def __post_init__(self) -> None:
        self.state = GameState.new(*self.game)

    @property
    def playing(self) -> bool:
        """True once the second player has joined (BEGIN was sent)."""
        return self.yellow is not None

    @property
    def members(self) -> list[Member]:
        """Everyone in the room: players first, then viewers."""
        players = [self.red] if self.yellow is None else [self.red, self.yellow]
        return players + self.viewers

    def player(self, colour: Player) -> Member | None:
        """The member playing ``colour``."""
        return self.red if colour is Player.RED else self.yellow

    def colour_of(self, member: Member) -> Player | None:
        """The colour ``member`` plays here (None for a viewer)."""
        if member is self.red:
            return Player.RED
        return Player.YELLOW if member is self.yellow else None

    def to_all(self, message: str) -> Outbox:
        """``message`` for everyone in the room."""
        return [(member, message) for member in self.members]


class Lobby:
    """Every room, and what each request does to them."""

    def __init__(self, max_rooms: int = MAX_ROOMS) -> None:
        self.max_rooms = max_rooms
        self.rooms: dict[str, Room] = {}
        self._numbers = itertools.count(1)
        self._quick_names = itertools.count(1)

    # ----- looking ---------------------------------------------------------------

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
            *wire.game_fields(room.game),
            room.red.name,
            room.yellow.name if room.yellow else "",
            str(len(room.viewers)),
            "playing" if room.playing else "waiting",
        )

    # ----- entering --------------------------------------------------------------

    def create(self, member: Member, request: wire.Create) -> Outbox:
        """Create a room and wait in it as RED."""
        status = self._create_problem(member, request.room)
        if status:
            return [(member, wire.ack("CREATE", status))]
        self._open(member, request.room, request.game)
        return [(member, wire.ack("CREATE", 0))]

    def _create_problem(self, member: Member, name: str) -> int:
        if member.room is not None:
            return 4
        if name in self.rooms:
            return 2
        if len(self.rooms) >= self.max_rooms:
            return 3
        return 0

    def _open(self, member: Member, name: str, game: Game) -> Room:
        room = Room(name, game, member, next(self._numbers))
        self.rooms[name] = room
        member.room = room
        return room

    def join(self, member: Member, request: wire.Join) -> Outbox:
        """Join as the second player (the game begins) or as a viewer."""
        room = self.rooms.get(request.room)
        if member.room is not None:
            return [(member, wire.ack("JOIN", 3))]
        if room is None:
            return [(member, wire.ack("JOIN", 1))]
        if request.mode is wire.Mode.PLAYER:
            if room.playing:
                return [(member, wire.ack("JOIN", 2))]
            return [(member, wire.ack("JOIN", 0)), *self._begin(room, member)]
        room.viewers.append(member)
        member.room = room
        return [(member, wire.ack("JOIN", 0)), *self._catch_up(room, member)]

    def _begin(self, room: Room, yellow: Member) -> Outbox:
        room.yellow = yellow
        yellow.room = room
        return room.to_all(wire.begin(room.red.name, yellow.name, room.game))

    def _catch_up(self, room: Room, viewer: Member) -> Outbox:
        """What a viewer joining a game in progress must see: who plays, and the board."""
        if not room.playing:
            return []  # BEGIN will come when the second player joins
        to_move = room.player(room.state.turn)
        other = room.player(room.state.turn.other)
        assert to_move is not None and other is not None
        return [
            (viewer, wire.in_progress(to_move.name, other.name, room.game)),
            (viewer, wire.board_status(room.state)),
        ]

    def quick_play(self, member: Member, game: Game) -> Outbox:
        """Join the oldest waiting room with exactly ``game``, or open one and wait."""
        if member.room is not None:
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

    def play(self, member: Member, request: wire.Play) -> Outbox:
        """A move: BOARDSTATUS to all, GAMEEND to all at the end, or INVALID to the mover."""
        room = member.room
        if room is None:
            return [(member, wire.NOROOM)]
        problem = self._move_problem(room, member, request)
        if problem is not None:
            return [(member, wire.invalid(problem))]
        assert request.move is not None
        room.state = room.state.play(request.move)
        if room.state.is_over:
            return self._end(room, self._result(room))
        return room.to_all(wire.board_status(room.state))

    def _move_problem(self, room: Room, member: Member, request: wire.Play) -> str | None:
        colour = room.colour_of(member)
        if colour is None:
            return "viewers cannot move"
        if not room.playing:
            return "the game has not begun: wait for a second player"
        if colour is not room.state.turn:
            return "not your turn"
        if request.move is None:
            return f"{request.text[:20]!r} is not a column number"
        return room.state.refusal(request.move)

    def _result(self, room: Room) -> str:
        winner = room.state.winner
        if winner is None:
            return wire.game_end(room.state, 1, None)
        player = room.player(winner)
        assert player is not None
        return wire.game_end(room.state, 0, player.name)

    def forfeit(self, member: Member) -> Outbox:
        """FORFEIT: the other player wins (status 2)."""
        room = member.room
        if room is None:
            return [(member, wire.NOROOM)]
        colour = room.colour_of(member)
        if colour is None:
            return [(member, wire.invalid("viewers cannot forfeit"))]
        if not room.playing:
            return [(member, wire.invalid("the game has not begun"))]
        return self._forfeited(room, colour)

    def _forfeited(self, room: Room, loser: Player) -> Outbox:
        winner = room.player(loser.other)
        assert winner is not None
        return self._end(room, wire.game_end(room.state, 2, winner.name))

    def _end(self, room: Room, message: str) -> Outbox:
        """Tell everyone how it ended and delete the room."""
        outbox = room.to_all(message)
        self._close(room)
        return outbox

    def _close(self, room: Room) -> None:
        for member in room.members:
            member.room = None
        self.rooms.pop(room.name, None)

    def chat(self, member: Member, text: str) -> Outbox:
        """CHAT:<user>:<text> to everyone in the sender's room."""
        if member.room is None:
            return [(member, wire.NOROOM)]
        return member.room.to_all(wire.chat(member.name, text))

    # ----- leaving ---------------------------------------------------------------

    def leave(self, member: Member) -> Outbox:
        """The member's connection is gone: a player forfeits, a waiting creator's room closes."""
        room = member.room
        if room is None:
            return []
        if member in room.viewers:
            room.viewers.remove(member)
            member.room = None
            return []
        colour = room.colour_of(member)
        if room.playing and colour is not None:
            outbox = self._forfeited(room, colour)
            return [(m, text) for m, text in outbox if m is not member]
        self._close(room)  # a waiting creator left: its viewers are in no room now
        return []
