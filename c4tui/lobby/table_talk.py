"""What the two players of a game may agree on or ask for at the table (spec/protocols.md §5.6).

Draw offers (DRAW, DECLINEDRAW), takebacks (TAKEBACK, DECLINETAKEBACK), an abort
before both players have moved (ABORT) and a claim against an opponent away 30 s
or, in a game without a clock, idle 10 minutes (CLAIM; IDLE warns at 5). Part of
the rooms (``Lobby.talk``): the ``Lobby`` tells it when a game begins, before each
move, when a player goes away and when a room closes.

Pure: the time comes from the ``now`` the rooms were given (the server's steady
clock), and the server asks for the idle warnings as often as for fallen flags.
A helper of the ``Lobby`` (like ``Challenges``, but inside its games): it ends a
game with the Lobby's own steps (``_end``, ``_forfeited``, its journal).

What this server chose where the spec is silent:
- every request is answered ``<COMMAND>:ACKSTATUS:<n>`` first (0: done);
- a draw offer stands until the offered player answers or moves (a move declines
  it: DRAWDECLINED to the offerer); the offerer's own move leaves it standing;
- a takeback is of the last move only, once: the move before it cannot be taken
  back in turn until another move is played (TAKEBACK then answers :1);
- a claim against an away opponent ends as a disconnect (GAME's reason
  ``disconnect``), one against an idle opponent as a forfeit (``forfeit``);
- a request that comes after the mover's flag fell (before the server's look saw
  it) finds the game lost on time, as a move would (``_too_late``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Generic, TypeVar

from c4tui.lobby.clock import GameClock
from c4tui.lobby.journal import EndReason, GameFinished, MoveTakenBack
from c4tui.lobby.room import Member, Outbox, Room
from c4tui.lobby.table import Seat, Table
from c4tui.protocols import table_talk as words
from c4tui.protocols.rooms import ack
from c4tui.protocols.table_talk import (  # the table's times: the clients' too
    AWAY_BEFORE_CLAIM,
    BOTH_MOVED,
    IDLE_BEFORE_CLAIM,
    IDLE_WARNING,
)

if TYPE_CHECKING:
    from c4tui.lobby.rooms import Lobby

S = TypeVar("S")
M = TypeVar("M")


class Offer(Enum):
    """What one player may offer the other: its decline's command, and what the offerer hears."""

    DRAW = ("DECLINEDRAW", words.DrawDeclined)
    TAKEBACK = ("DECLINETAKEBACK", words.TakebackDeclined)

    def __init__(self, decline: str, declined: type[words.About]) -> None:
        self.decline = decline
        self.declined = declined


@dataclass(frozen=True)
class Before(Generic[M]):
    """A room as it stood before its last move: what a takeback brings back.

    And the table's talk as it stood then, which a move the store could not keep
    brings back too (``unmove``): the offers that move declined, the move before it.
    """

    table: Table[M]
    clock: GameClock | None
    mover: Seat  # who played that move (and asked to take it back)
    offers: dict[Offer, Seat] = field(default_factory=dict)
    previous: Before[M] | None = None  # the move before's (without its own previous)
    turn_began: float = 0.0


@dataclass
class Talk(Generic[M]):
    """One game's offers and turns: who offers what, and since when the mover thinks."""

    turn_began: float
    offers: dict[Offer, Seat] = field(default_factory=dict)  # who offers what, standing
    before: Before[M] | None = None  # before the last move, while it may be taken back
    warned: bool = False  # IDLE was said this turn
    away_since: dict[Seat, float] = field(default_factory=dict)


class TableTalk(Generic[S, M]):
    """Every game's offers, takebacks and claims; the rooms ask it at each of their steps."""

    def __init__(self, rooms: Lobby[S, M], now: Callable[[], float]) -> None:
        self.rooms = rooms
        self.now = now
        self._talks: dict[Room[S, M], Talk[M]] = {}

    # ----- what the rooms tell it ---------------------------------------------------

    def began(self, room: Room[S, M]) -> None:
        """``room``'s game began (or was restored, both away): the mover's turn starts now."""
        now = self.now()
        self._talks[room] = Talk(now, away_since=dict.fromkeys(room.away, now))

    def moving(self, room: Room[S, M]) -> Outbox:
        """A legal move is about to be played: what it declines (to the offerers), kept to undo."""
        talk = self._talk(room)
        mover = room.state.seat_to_move
        previous = None if talk.before is None else replace(talk.before, previous=None)
        standing = Before(room.state, self._standing(room.clock), mover, dict(talk.offers))
        declined: Outbox = []
        for offer in Offer:  # a draw's decline first, then a takeback's, whatever came first
            offerer = talk.offers.get(offer)
            if offerer is mover.other:  # the offered player moves: that declines it
                del talk.offers[offer]
                told = offer.declined(room.seated(mover).name).line
                declined.append((room.seated(offerer), told))
        talk.before = replace(standing, previous=previous, turn_began=talk.turn_began)
        talk.turn_began, talk.warned = self.now(), False
        return declined

    def _standing(self, clock: GameClock | None) -> GameClock | None:
        """``clock`` as it stands now: what a takeback gives back (the thinking stays spent)."""
        if clock is None:
            return None
        red, yellow = clock.left_ms(self.now())
        return replace(clock, red_ms=red, yellow_ms=yellow, since=self.now())

    def went_away(self, room: Room[S, M], seat: Seat) -> None:
        """The player in ``seat`` dropped out of ``room``'s game now."""
        self._talk(room).away_since[seat] = self.now()

    def forget(self, room: Room[S, M]) -> None:
        """``room`` closed."""
        self._talks.pop(room, None)

    def _talk(self, room: Room[S, M]) -> Talk[M]:
        talk = self._talks.get(room)
        if talk is None:  # a room the rooms never said began: timed from now
            talk = self._talks[room] = Talk(self.now())
        return talk

    # ----- what players ask ---------------------------------------------------------

    def _seat(self, member: Member) -> tuple[Room[S, M], Seat] | None:
        """``member``'s game under way and seat (None: it is in none, or watches)."""
        room = self.rooms.room_of(member)
        seat = None if room is None or not room.playing else room.seat_of(member)
        return None if room is None or seat is None else (room, seat)

    def _too_late(self, member: Member, command: str) -> Outbox | None:
        """``command``'s game already lost on time: :1, then its end (None: it was not).

        The flag fell before the request came and the server's frequent look has not seen
        it yet: as for a move then (``Lobby.play``), the game is lost on time, so a player
        out of time escapes the loss by no draw, takeback, abort or claim.
        """
        room = self.rooms.room_of(member)
        if room is None or not room.playing or not self.rooms.clocks.has_fallen(room):
            return None
        return [(member, ack(command, 1)), *self.rooms._lost_on_time(room)]

    def offer_draw(self, member: Member) -> Outbox:
        """DRAW: an offer to everyone else, or the other's offer accepted (GAMEEND :4)."""
        if (late := self._too_late(member, "DRAW")) is not None:
            return late
        seated = self._seat(member)
        if seated is None or seated[0].plies < BOTH_MOVED:
            return [(member, ack("DRAW", 1))]
        room, seat = seated
        talk = self._talk(room)
        if talk.offers.get(Offer.DRAW) is seat:
            return [(member, ack("DRAW", 2))]
        if talk.offers.get(Offer.DRAW) is seat.other:
            ended = self._called_off(room, words.DRAW_AGREED, EndReason.AGREEMENT)
            return [(member, ack("DRAW", 0)), *ended]
        talk.offers[Offer.DRAW] = seat
        offer = words.DrawOffered(member.name).line
        return [(member, ack("DRAW", 0)), *[(m, offer) for m in room.members if m is not member]]

    def decline(self, member: Member, offer: Offer) -> Outbox:
        """DECLINEDRAW or DECLINETAKEBACK: the other's offer refused (told to it); :1 none."""
        if (late := self._too_late(member, offer.decline)) is not None:
            return late
        seated = self._seat(member)
        if seated is None or self._talk(seated[0]).offers.get(offer) is not seated[1].other:
            return [(member, ack(offer.decline, 1))]
        room, seat = seated
        del self._talk(room).offers[offer]
        told = offer.declined(member.name).line
        return [(member, ack(offer.decline, 0)), (room.seated(seat.other), told)]

    def take_back(self, member: Member) -> Outbox:
        """TAKEBACK: asked of the other by the last mover, or the other's asking agreed to."""
        if (late := self._too_late(member, "TAKEBACK")) is not None:
            return late
        seated = self._seat(member)
        talk = None if seated is None else self._talk(seated[0])
        if seated is None or talk is None or talk.before is None:
            return [(member, ack("TAKEBACK", 1))]
        room, seat = seated
        if talk.offers.get(Offer.TAKEBACK) is seat.other:
            return [(member, ack("TAKEBACK", 0)), *self._taken_back(room, talk, talk.before)]
        if talk.before.mover is not seat:
            return [(member, ack("TAKEBACK", 1))]  # the last move is the other's
        if talk.offers.get(Offer.TAKEBACK) is seat:
            return [(member, ack("TAKEBACK", 2))]
        talk.offers[Offer.TAKEBACK] = seat
        offer = words.TakebackOffered(member.name).line
        return [(member, ack("TAKEBACK", 0)), (room.seated(seat.other), offer)]

    def _taken_back(self, room: Room[S, M], talk: Talk[M], before: Before[M]) -> Outbox:
        """The last move undone and journaled: the board as before it, to all, and the clock."""
        self.rooms._journal.append(MoveTakenBack(room.name, room.plies))
        self._undo(room, talk, before)
        return room.to_all(room.state.board_status()) + self.rooms.clocks.told(room, room.members)

    def unmove(self, name: str) -> bool:
        """The last move in room ``name`` could not be kept: the room as before it, told nobody.

        Its table talk too: the offers it declined stand, the move before it may be taken
        back, the mover's turn (and IDLE's count) began when it did. False if that cannot
        be (the room is gone, or its last move is not the one to undo).
        """
        room = self.rooms.rooms.get(name)
        talk = None if room is None else self._talks.get(room)
        if room is None or talk is None or talk.before is None:
            return False
        before = talk.before
        self._undo(room, talk, before)
        talk.offers, talk.before, talk.turn_began = (
            dict(before.offers),
            before.previous,
            before.turn_began,
        )
        return True

    def _undo(self, room: Room[S, M], talk: Talk[M], before: Before[M]) -> None:
        """``room`` as ``before`` its last move, the clock too (the mover's running from now)."""
        room.state, room.plies = before.table, room.plies - 1
        clock = None if before.clock is None else replace(before.clock, since=self.now())
        self.rooms.clocks.taken_back(room, clock)
        talk.before = None
        talk.offers.clear()
        talk.turn_began, talk.warned = self.now(), False

    def abort(self, member: Member) -> Outbox:
        """ABORT: before both players have moved, the game is called off (GAMEEND :5)."""
        if (late := self._too_late(member, "ABORT")) is not None:
            return late
        seated = self._seat(member)
        if seated is None or seated[0].plies >= BOTH_MOVED:
            return [(member, ack("ABORT", 1))]
        ended = self._called_off(seated[0], words.ABORTED, EndReason.ABORTED)
        return [(member, ack("ABORT", 0)), *ended]

    def claim(self, member: Member) -> Outbox:
        """CLAIM: the game won against an opponent away 30 s, or idle 10 minutes untimed."""
        if (late := self._too_late(member, "CLAIM")) is not None:
            return late
        seated = self._seat(member)
        reason = None if seated is None else self._claimable(*seated)
        if seated is None or reason is None:
            return [(member, ack("CLAIM", 1))]
        room, seat = seated
        return [(member, ack("CLAIM", 0)), *self.rooms._forfeited(room, seat.other, reason)]

    def _called_off(self, room: Room[S, M], status: int, reason: EndReason) -> Outbox:
        """The game ends with nobody winning (a draw agreed, an abort): GAMEEND to all."""
        self.rooms._journal.append(GameFinished(room.name, None, reason))
        return self.rooms._end(room, room.state.game_end(status, None))

    def _claimable(self, room: Room[S, M], seat: Seat) -> EndReason | None:
        """Why the player in ``seat`` may claim ``room``'s game now (None: it may not)."""
        talk, now = self._talk(room), self.now()
        away = talk.away_since.get(seat.other)
        if seat.other in room.away and away is not None and now - away >= AWAY_BEFORE_CLAIM:
            return EndReason.DISCONNECT
        idle = room.clock is None and room.state.seat_to_move is seat.other
        if idle and seat.other not in room.away and now - talk.turn_began >= IDLE_BEFORE_CLAIM:
            return EndReason.FORFEIT
        return None

    # ----- the server's frequent look ---------------------------------------------------

    def idle_warnings(self) -> Outbox:
        """IDLE:<user> to each room without a clock whose mover has not moved for 5 minutes."""
        now, outbox = self.now(), []
        for room, talk in self._talks.items():
            if talk.warned or room.clock is not None or now - talk.turn_began < IDLE_WARNING:
                continue
            if not room.playing or room.terms.clock is not None:
                continue
            talk.warned = True
            outbox += room.to_all(words.Idle(room.seated(room.state.seat_to_move).name).line)
        return outbox
