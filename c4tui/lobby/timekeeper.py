"""The rooms' clocks (spec/protocols.md §5.4): started at BEGIN, moved by each move, told as CLOCK.

The ``Lobby`` asks the timekeeper at each of its steps (a game began, a move, a
player or viewer catching up, the server's frequent check); the timekeeper keeps
each timed room's ``GameClock`` on the room and every room's next flag fall in
one heap. Untimed rooms are left alone: every answer for them is empty.
The time comes from the ``now`` it is given (the server's steady clock; a fake
one in tests), so the rooms stay pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from c4tui.lobby.clock import Deadlines, GameClock
from c4tui.lobby.room import Member, Outbox, Room
from c4tui.protocols.competition import clock as clock_message

S = TypeVar("S")
M = TypeVar("M")


#: Deadlines kept for stale ones to be dropped: more than this many per room, plus the
#: allowance, and the heap is rebuilt from the rooms' own (each move leaves one behind).
STALE_FACTOR = 4
STALE_ALLOWANCE = 1024


def no_time() -> float:
    """The time for rooms that are never timed (tic-tac-toe's): it does not pass."""
    return 0.0


class Timekeeper:
    """Every timed room's clock, and when the next flag falls."""

    def __init__(self, now: Callable[[], float] = no_time) -> None:
        """``now``: seconds on a steady clock (the server passes ``time.monotonic``)."""
        self.now = now
        self._deadlines = Deadlines()

    @property
    def deadlines_kept(self) -> int:
        """How many deadlines the heap holds (stale ones included): what it costs in memory."""
        return len(self._deadlines)

    def start(self, room: Room[S, M]) -> None:
        """``room``'s game began: a timed room's clock starts, RED's time running."""
        if room.terms.clock is not None:
            self._set(room, GameClock.started(room.terms.clock, self.now()))

    def resume(self, room: Room[S, M], left: tuple[int, int] | None) -> None:
        """A restored game: the clocks as they stood at its last move, the mover's running.

        ``left``: RED's and YELLOW's milliseconds after that move (None: no move yet, full
        times). The mover's time runs again from now: a restart costs nobody time.
        """
        clock = room.terms.clock
        if clock is None:
            return
        full = (clock.initial_ms, clock.initial_ms)
        mover = room.state.seat_to_move
        self._set(room, GameClock.resumed(clock, left or full, mover, self.now()))

    def has_fallen(self, room: Room[S, M]) -> bool:
        """True if ``room``'s mover has run out of time (a move now comes too late)."""
        return room.clock is not None and room.clock.has_fallen(self.now())

    def moved(self, room: Room[S, M]) -> tuple[int, int] | None:
        """The mover moved in time: RED's and YELLOW's times after it (None: untimed)."""
        if room.clock is None:
            return None
        now = self.now()
        self._set(room, room.clock.after_move(now))
        return room.clock.left_ms(now)

    def taken_back(self, room: Room[S, M], clock: GameClock | None) -> None:
        """A move taken back (§5.6): ``clock`` is as before it, the mover's time running again."""
        if clock is not None:
            self._set(room, clock)

    def told(
        self, room: Room[S, M], members: Iterable[Member], left: tuple[int, int] | None = None
    ) -> Outbox:
        """CLOCK:<red ms>:<yellow ms> for each of ``members`` (nothing in an untimed room).

        ``left``: the times as a move left them (``moved``), told after it: the new
        mover's time runs from the move, not from whenever the telling reads the clock.
        """
        if room.clock is None:
            return []
        message = clock_message(*(left or room.clock.left_ms(self.now())))
        return [(member, message) for member in members]

    def fallen(self, rooms: Mapping[str, Room[S, M]]) -> list[Room[S, M]]:
        """The rooms of ``rooms`` whose mover has run out of time by now, soonest first."""
        now = self.now()
        if len(self._deadlines) > STALE_FACTOR * len(rooms) + STALE_ALLOWANCE:
            self._drop_stale(rooms)
        fallen: list[Room[S, M]] = []
        for number, name in self._deadlines.due(now):
            room = rooms.get(name)
            if room is None or room.number != number or room in fallen:
                continue  # that game is over; the name may be another room's now
            if room.clock is not None and room.clock.has_fallen(now):
                fallen.append(room)
        return fallen

    def _drop_stale(self, rooms: Mapping[str, Room[S, M]]) -> None:
        """Every move leaves its old deadline behind: keep only each timed room's own."""
        self._deadlines.replace(
            [(room.clock.deadline, room.number, room.name) for room in rooms.values() if room.clock]
        )

    def _set(self, room: Room[S, M], clock: GameClock) -> None:
        room.clock = clock
        self._deadlines.add(clock.deadline, room.number, room.name)
