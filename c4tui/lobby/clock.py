"""A timed game's clock (spec/protocols.md §5.4): each player's time, the mover's running.

The server's clock decides: the mover's time runs from the moment its turn was
announced (BEGIN, or the BOARDSTATUS of the move before); a move subtracts what
it took and adds the increment; a player whose time is gone has lost on time.
Pure: every instant is passed in (``now``, in seconds on any steady clock), never
read here, so the rooms stay free of clocks and tests can move time themselves.

``Deadlines`` keeps every timed room's next flag fall in a heap, so the server's
frequent check costs nothing while no flag is due, however many rooms there are.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Protocol

from c4tui.lobby.table import Seat


class TimeControl(Protocol):
    """What a clock starts from: each player's time and a move's increment, in milliseconds.

    A lobby game's ``protocols.terms.Clock`` (§5.4), or a game's here (``match.timing``).
    """

    @property
    def initial_ms(self) -> int:
        """Each player's time at the start."""

    @property
    def increment_ms(self) -> int:
        """What a move adds to its player's time."""


@dataclass(frozen=True)
class GameClock:
    """Both players' times as they stood when ``mover``'s turn began at ``since``.

    ``red_ms``/``yellow_ms``: milliseconds each had left then; only the mover's runs.
    """

    increment_ms: int
    red_ms: int
    yellow_ms: int
    mover: Seat
    since: float

    @classmethod
    def started(cls, clock: TimeControl, now: float) -> GameClock:
        """A new game's clock: both players' full time, RED's running from ``now``."""
        return cls(clock.increment_ms, clock.initial_ms, clock.initial_ms, Seat.FIRST, now)

    @classmethod
    def resumed(
        cls, clock: TimeControl, left: tuple[int, int], mover: Seat, now: float
    ) -> GameClock:
        """A clock as it stood at a game's last move (``left``: RED's, YELLOW's), running again."""
        return cls(clock.increment_ms, left[0], left[1], mover, now)

    def _stood(self, seat: Seat) -> int:
        """What ``seat`` had left when the mover's turn began."""
        return self.red_ms if seat is Seat.FIRST else self.yellow_ms

    def left_ms(self, now: float) -> tuple[int, int]:
        """Milliseconds RED and YELLOW have at ``now`` (never below 0)."""
        used = self._used_ms(now)
        red = self.red_ms - (used if self.mover is Seat.FIRST else 0)
        yellow = self.yellow_ms - (used if self.mover is Seat.SECOND else 0)
        return max(0, red), max(0, yellow)

    def _used_ms(self, now: float) -> int:
        """How long the mover has thought so far (a clock that went back counts as none)."""
        return max(0, round((now - self.since) * 1000))

    @property
    def deadline(self) -> float:
        """The instant the mover's flag falls unless it moves first."""
        return self.since + self._stood(self.mover) / 1000

    def has_fallen(self, now: float) -> bool:
        """True if the mover's time ran out at or before ``now``."""
        return now >= self.deadline

    def after_move(self, now: float) -> GameClock:
        """The clock once the mover has moved at ``now``: the other's time running.

        The mover's thinking is subtracted and its increment added; the caller has
        checked ``has_fallen`` first (a move after the flag fell is not played).
        """
        red, yellow = self.left_ms(now)
        if self.mover is Seat.FIRST:
            red += self.increment_ms
        else:
            yellow += self.increment_ms
        return GameClock(self.increment_ms, red, yellow, self.mover.other, now)


class Deadlines:
    """When each timed room's mover runs out, soonest first, for a cheap frequent check.

    A room's deadline moves with every move; rather than finding its old entry, a
    new one is pushed and stale ones are skipped when they come up (``due``).
    """

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, str]] = []  # (deadline, room number, room name)

    def __len__(self) -> int:
        return len(self._heap)

    def add(self, deadline: float, number: int, room: str) -> None:
        """Room ``room`` (the ``number``-th opened) must be looked at by ``deadline``."""
        heapq.heappush(self._heap, (deadline, number, room))

    def replace(self, entries: list[tuple[float, int, str]]) -> None:
        """Keep only ``entries`` (deadline, number, room): the live ones, stale ones dropped."""
        heapq.heapify(entries)
        self._heap = entries

    def due(self, now: float) -> list[tuple[int, str]]:
        """Rooms whose deadline has come by ``now`` (number, name), each taken off the heap.

        Some may be stale (the room moved on, or is gone): the caller checks each.
        """
        due: list[tuple[int, str]] = []
        while self._heap and self._heap[0][0] <= now:
            _, number, room = heapq.heappop(self._heap)
            due.append((number, room))
        return due
