"""Rooms of the lobby protocol (spec/protocols.md §4): who is where, and each room's game.

Every method takes a member and what it asked for and returns the ``Outbox``: the
messages to send, to whom, in order. A member is in at most one room; the creator
waits in the seat of its colour (``seating``, §5.6); the second player starts the
game (BEGIN); viewers may join before or during it; the game's end deletes the room.
A player who drops after BEGIN may be *away*, not beaten (§5.1): with a grace period
the game waits, the player comes back (``rejoin``, ``take_over``) or, when the
server's timer says so (``expire``), loses by forfeit. A timed room's clock (§5.4) is
the ``Timekeeper``'s, from the time the server passes in (``out_of_time``: its
frequent check). What is played, and its words, is the ``RoomKind``'s (``kinds``):
Connect Four in the lobby, tic-tac-toe on INFO1112's port, in the same rooms.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

from c4tui.lobby.blocks import Blocks
from c4tui.lobby.challenges import Challenges
from c4tui.lobby.journal import EndReason, GameBegan, GameEvent, GameFinished, MoveMade
from c4tui.lobby.room import Member, Outbox, Room
from c4tui.lobby.seating import creator_plays_red, open_to, quick_pick
from c4tui.lobby.table import RoomKind, Seat
from c4tui.lobby.table_talk import TableTalk
from c4tui.lobby.timekeeper import Timekeeper, no_time
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from c4tui.protocols.limits import MAX_ROOMS
from c4tui.protocols.terms import CASUAL, Terms

#: A room's settings (the board's size and rules; nothing for tic-tac-toe).
S = TypeVar("S")
#: A move in the rooms' game.
M = TypeVar("M")


class Lobby(Generic[S, M]):
    """Every room, who is in which, and what each request does to them.

    Generic over the game's settings and moves, so that a move of one kind of game
    cannot reach another's rooms (the type checker says so).
    """

    def __init__(
        self,
        kind: RoomKind[S, M],
        max_rooms: int = MAX_ROOMS,
        grace: float | None = None,
        *,
        now: Callable[[], float] | None = None,
        coin: random.Random | None = None,
    ) -> None:
        """``grace``: seconds a player who drops out of a game has to come back (§5.1).

        None keeps the INFO1112 handout's rules (tic-tac-toe): a player who leaves
        forfeits at once, and a second login is a stranger to the first one's game.
        0 forfeits a dropped player at once too, but a second login takes the game over.
        ``now``: seconds on a steady clock (the server's), for timed rooms' clocks and the
        challenges' rematch window (§5.5); None: time does not pass, and there are no rematches.
        ``coin``: decides random colours when a game begins (§5.6; tests pass a seeded one).
        """
        self.kind = kind
        self.max_rooms = max_rooms
        self.grace = grace
        self.coin = coin or random.Random()
        self.rooms: dict[str, Room[S, M]] = {}
        self.blocks = Blocks()  # who blocks whom (§7): the server's, to keep players apart
        self._where: dict[Member, Room[S, M]] = {}  # members in a room (absent: the lobby)
        self._away: dict[str, Room[S, M]] = {}  # users away from a game, by name
        self._departures = itertools.count(1)  # who left first, when both are away
        self._numbers = itertools.count(1)
        self._quick_names = itertools.count(1)
        self._journal: list[GameEvent[S, M]] = []
        self._challenge_names = itertools.count(1)
        self.challenges = Challenges(self, now)
        self.clocks = Timekeeper(now or no_time)
        self.talk = TableTalk(self, now or no_time)  # draws, takebacks, aborts, claims (§5.6)

    def take_journal(self) -> list[GameEvent[S, M]]:
        """What happened to the games since the last call, oldest first (the server keeps it)."""
        journal, self._journal = self._journal, []
        return journal

    # ----- looking ---------------------------------------------------------------

    def room_of(self, member: Member) -> Room[S, M] | None:
        """The room ``member`` is in (None: the lobby itself)."""
        return self._where.get(member)

    def room_names(self, mode: wire.Mode, asker: Member | None = None) -> list[str]:
        """PLAYER: rooms whose creator waits (for ``asker``: none across a block); VIEWER: all."""
        if mode is wire.Mode.VIEWER:
            return list(self.rooms)
        return [room.name for room in open_to(self.rooms.values(), asker, self.blocks)]

    def room_info(self, name: str) -> str:
        """ROOMINFO's answer for the room called ``name``."""
        room = self.rooms.get(name)
        return wire.ack("ROOMINFO", 1) if room is None else room.info(self.kind)

    # ----- entering --------------------------------------------------------------

    def create(
        self,
        member: Member,
        name: str,
        settings: S,
        terms: Terms = CASUAL,
        colour: Colour = Colour.RED,
    ) -> Outbox:
        """Create a room and wait in it, in the seat of ``colour`` (random: red's, until BEGIN)."""
        status = self._create_problem(member, name)
        if status:
            return [(member, wire.ack("CREATE", status))]
        self._open(member, name, settings, terms, colour)
        return [(member, wire.ack("CREATE", 0))]

    def _create_problem(self, member: Member, name: str) -> int:
        if member in self._where:
            return 4
        if name in self.rooms:
            return 2
        if len(self.rooms) >= self.max_rooms:
            return 3
        return 0

    def _open(
        self, member: Member, name: str, settings: S, terms: Terms, colour: Colour
    ) -> Room[S, M]:
        table = self.kind.new_table(settings)
        room = Room.opened(name, settings, member, next(self._numbers), table, terms, colour)
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
            if not open_to([room], member, self.blocks):  # across a block: as if not there
                return [(member, wire.ack("JOIN", 1))]
            return [(member, wire.ack("JOIN", 0)), *self._begin(room, member)]
        self._watch(room, member)
        return [(member, wire.ack("JOIN", 0)), *self._catch_up(room, member)]

    def _watch(self, room: Room[S, M], viewer: Member) -> None:
        room.viewers.append(viewer)
        self._where[viewer] = room

    def _begin(self, room: Room[S, M], joiner: Member, wish: Colour = Colour.RANDOM) -> Outbox:
        """``joiner`` sits down (its colour ``wish`` counts if the creator's is random): BEGIN."""
        room.sit(joiner, creator_plays_red(room.colour, wish, self.coin))
        self._where[joiner] = room
        red, yellow = room.seated(Seat.FIRST).name, room.seated(Seat.SECOND).name
        self._journal.append(GameBegan(room.name, red, yellow, room.game, room.terms))
        self.clocks.start(room)
        self.talk.began(room)
        begin = room.to_all(self.kind.begin(red, yellow, room.game))
        return begin + self.clocks.told(room, room.members)

    def _catch_up(self, room: Room[S, M], viewer: Member) -> Outbox:
        """What a viewer joining a game in progress must see: who plays, and the board."""
        if not room.playing:
            return []  # BEGIN will come when the second player joins
        to_move, other = (
            room.seated(room.state.seat_to_move),
            room.seated(room.state.seat_to_move.other),
        )
        return [
            (viewer, self.kind.in_progress(to_move.name, other.name, room.game)),
            (viewer, room.state.board_status()),
            *self.clocks.told(room, [viewer]),
        ]

    def quick_play(
        self, member: Member, game: S, terms: Terms = CASUAL, colour: Colour = Colour.RANDOM
    ) -> Outbox:
        """Join the waiting room ``quick_pick`` chooses (``game``, ``terms``), or open one."""
        if member in self._where:
            return [(member, wire.ack("QUICKPLAY", 1))]
        room = quick_pick(self.rooms.values(), member, colour, game, terms, blocks=self.blocks)
        if room is not None:
            begun = self._begin(room, member, colour)
            return [(member, wire.ack("QUICKPLAY", 0, room.name)), *begun]
        if len(self.rooms) >= self.max_rooms:
            return [(member, wire.ack("QUICKPLAY", 1))]
        name = self._fresh_name("quick", self._quick_names)
        self._open(member, name, game, terms, colour)
        return [(member, wire.ack("QUICKPLAY", 0, name))]

    def _fresh_name(self, prefix: str, numbers: Iterator[int]) -> str:
        """``<prefix>-<n>``: the next number whose room does not exist."""
        return next(name for n in numbers if (name := f"{prefix}-{n}") not in self.rooms)

    def pair(
        self, red: Member, yellow: Member, game: S, terms: Terms, viewers: Iterable[Member] = ()
    ) -> Outbox | None:
        """A challenge accepted: both sit down in a new room ``challenge-<n>`` (BEGIN to all).

        Both must be in no room, as must ``viewers`` (a rematch's, who follow the game,
        §5.6); None when there is no room left.
        """
        if len(self.rooms) >= self.max_rooms:
            return None
        room = self._open(
            red, self._fresh_name("challenge", self._challenge_names), game, terms, Colour.RED
        )
        for viewer in viewers:
            self._watch(room, viewer)
        return self._begin(room, yellow)

    # ----- playing ---------------------------------------------------------------

    def play(self, member: Member, move: M | None, unreadable: str | None = None) -> Outbox:
        """A move: the board to all, GAMEEND to all at the end, or a refusal to the mover.

        ``unreadable`` says why the move could not be read (``move`` is then None).
        """
        room = self._where.get(member)
        if room is None:
            return [(member, wire.NOROOM)]
        problem = self._move_problem(room, member)
        if problem is None and self.clocks.has_fallen(room):
            return self._lost_on_time(room)  # too late: the flag fell before the move came
        problem = problem or unreadable
        if problem is None and move is not None:
            problem = room.state.refusal(move)
            if problem is None:
                return self.talk.moving(room) + self._played(room, move)  # declines first
        assert problem is not None, "a move that could not be read comes with the reason"
        return [(member, room.state.refused(problem))]

    def _played(self, room: Room[S, M], move: M) -> Outbox:
        """The board to all after ``move`` (a legal one), or GAMEEND if it ends the game."""
        room.state = room.state.play(move)
        room.plies += 1
        left = self.clocks.moved(room)  # as kept, so told: the time telling takes is nobody's
        self._journal.append(MoveMade(room.name, room.plies, move, left))
        if room.state.is_over:
            return self._end(room, self._result(room))
        return room.to_all(room.state.board_status()) + self.clocks.told(room, room.members, left)

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

    def out_of_time(self) -> Outbox:
        """Every game whose player to move ran out of time ends (GAMEEND :3); IDLE where due.

        The server calls this often (every 50 ms); it looks only at rooms whose flag is due.
        """
        return [
            message
            for room in self.clocks.fallen(self.rooms)
            for message in self._lost_on_time(room)
        ] + self.talk.idle_warnings()

    def _lost_on_time(self, room: Room[S, M]) -> Outbox:
        """The player to move in ``room`` ran out of time: the other wins (status 3)."""
        winner = room.seated(room.state.seat_to_move.other)
        self._journal.append(GameFinished(room.name, winner.name, EndReason.TIME))
        return self._end(room, room.state.game_end(3, winner.name))

    def _end(self, room: Room[S, M], message: str) -> Outbox:
        """Tell everyone how it ended and delete the room."""
        outbox = room.to_all(message)
        self._close(room)
        self.challenges.finished(room)
        return outbox

    def _close(self, room: Room[S, M]) -> None:
        for member in room.members:
            self._where.pop(member, None)
        for seat in room.away:
            self._away.pop(room.seated(seat).name, None)
        self.rooms.pop(room.name, None)
        self.talk.forget(room)

    def chat(self, member: Member, text: str) -> Outbox:
        """CHAT:<user>:<text> to everyone in the sender's room (none: its finished one's, §5.6)."""
        room = self._where.get(member)
        if room is None:
            return self.challenges.chat_after(member, text)
        return self.blocks.heard(room.members, member.name, wire.chat(member.name, text))

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
            if self.grace:
                return self._went_away(room, seat)
            outbox = self._forfeited(room, seat, EndReason.DISCONNECT)
            return [(m, text) for m, text in outbox if m is not member]
        self._close(room)  # a waiting creator left: its viewers are in no room now
        return []

    # ----- away and back (§5.1) --------------------------------------------------

    def _went_away(self, room: Room[S, M], seat: Seat) -> Outbox:
        """The player in ``seat`` dropped out: the game waits, the others hear for how long."""
        player = room.seated(seat)
        room.away[seat] = next(self._departures)
        self.talk.went_away(room, seat)
        del self._where[player]
        self._away[player.name] = room
        return room.to_all(wire.away(player.name, math.ceil(self.grace or 0)))

    def is_away(self, user: str) -> bool:
        """True while ``user`` is away from an unfinished game (its grace runs)."""
        return user in self._away

    def away_from_room_of(self, member: Member) -> list[str]:
        """Who is away from the game ``member`` is in (a player back while the other is not)."""
        room = self._where.get(member)
        return [] if room is None else [room.seated(seat).name for seat in room.away]

    def rejoin(self, member: Member) -> Outbox:
        """``member`` logged in: back in the game it was away from, if any (BACK to the others)."""
        room = self._away.pop(member.name, None)
        if room is None:
            return []
        seat = room.away_seat(member.name)
        assert seat is not None, "an away user's room keeps its seat"
        others = room.to_all(wire.back(member.name))
        del room.away[seat]
        return [*self._seat(room, seat, member), *others]

    def _seat(self, room: Room[S, M], seat: Seat, member: Member) -> Outbox:
        """Put ``member`` in ``seat`` of a game under way; REJOIN and the game, to it."""
        if seat is Seat.FIRST:
            room.red = member
        else:
            room.yellow = member
        self._where[member] = room
        return [(member, wire.rejoin(room.name)), *self._catch_up(room, member)]

    def take_over(self, older: Member, newer: Member) -> Outbox:
        """A second login of ``older``'s user: ``newer`` takes its seat in a game under way.

        Anywhere else (a viewer, a creator still waiting, the handout's rooms) the older
        member just leaves, and ``newer`` comes back to a game it was away from, if any.
        """
        room = self._where.get(older)
        seat = None if room is None else room.seat_of(older)
        if room is None or seat is None or not room.playing or self.grace is None:
            return [*self.leave(older), *self.rejoin(newer)]
        del self._where[older]
        return self._seat(room, seat, newer)

    def expire(self, user: str) -> Outbox:
        """``user``'s grace has run out: it loses by forfeit (GAMEEND status 2, to all).

        When both players are away, the one who left first loses; after a restart both
        left at once, and a game neither came back to is aborted (status 5, nobody's
        fault). Nothing happens if ``user`` is back, or its game is over.
        """
        room = self._away.get(user)
        if room is None:
            return []
        seat = room.away_seat(user)
        assert seat is not None, "an away user's room keeps its seat"
        if room.away.get(seat.other, math.inf) < room.away[seat]:
            seat = seat.other
        elif room.away.get(seat.other) == room.away[seat]:
            self._journal.append(GameFinished(room.name, None, EndReason.ABORTED))
            return self._end(room, room.state.game_end(5, None))
        return self._forfeited(room, seat, EndReason.DISCONNECT)

    def restore(
        self,
        name: str,
        players: tuple[str, str],
        settings: S,
        moves: Iterable[M],
        *,
        terms: Terms = CASUAL,
        left: tuple[int, int] | None = None,
    ) -> Room[S, M]:
        """A game that had begun before a restart, both players away until they log in.

        ``moves`` were legal when they were played; the server starts both graces. A
        timed game's clocks are as they stood after its last move (``left``: RED's and
        YELLOW's milliseconds; None: no move yet), the mover's running from now.
        """
        table = self.kind.new_table(settings)
        room = Room.restored(name, settings, players, next(self._numbers), table, terms, moves)
        departure = next(self._departures)
        room.away = {Seat.FIRST: departure, Seat.SECOND: departure}
        self.talk.began(room)  # both away from now
        self.rooms[name] = room
        self._away.update(dict.fromkeys(players, room))
        self.clocks.resume(room, left)
        return room
