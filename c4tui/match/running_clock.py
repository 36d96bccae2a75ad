"""A timed game's clock here (against the computer, or two players at one keyboard), running.

The lobby's pure clock (``lobby.clock.GameClock``: the mover's time runs from when
its turn began, a move adds the increment) is run here on this machine's steady
clock, so that a game at home keeps time exactly as a lobby's does. The computer's
thinking counts: its turn begins when it is asked. The driver races each move
against the mover's flag (``MatchClock.move_in_time``); a flag that falls first ends
the game, lost on time, and cancels the move being made (the computer's search too).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from c4tui.client.clocks import ClockReading
from c4tui.engine import Move, Player
from c4tui.lobby.clock import GameClock
from c4tui.lobby.table import Seat
from c4tui.match.timing import HomeClock


class MatchClock:
    """Both players' times in one game here, the mover's running on ``now``'s clock.

    ``now``: a steady clock in seconds (``time.monotonic``, the one ``GameClocks`` reads
    too); a test may pass its own and move time by hand.
    """

    def __init__(self, control: HomeClock, now: Callable[[], float] = time.monotonic) -> None:
        self.control = control
        self._now = now
        self._running: GameClock | None = None  # None until the game starts
        self._stopped: ClockReading | None = None  # the times as they stood at the end

    def start(self, mover: Player) -> None:
        """A game begins (or begins again) with ``mover`` to move: both full, its time running."""
        full = (self.control.initial_ms, self.control.initial_ms)
        self._running = GameClock.resumed(self.control, full, _seat(mover), self._now())
        self._stopped = None

    def moved(self) -> None:
        """The mover has moved: its thinking taken off, the increment added, the other's running."""
        if self._running is not None and self._stopped is None:
            self._running = self._running.after_move(self._now())

    def stop(self) -> None:
        """The game ended: both times stand still as they are now."""
        if self._stopped is None:
            self._stopped = self.reading().stopped(self._now())

    def seconds_left(self) -> float:
        """How long the mover has until its flag falls (0 once it has)."""
        if self._running is None:
            return self.control.initial_ms / 1000
        return max(0.0, self._running.deadline - self._now())

    def reading(self) -> ClockReading:
        """Both times now, as ``GameClocks`` and the console show them."""
        now = self._now()
        if self._stopped is not None:
            return self._stopped
        if self._running is None:
            full = self.control.initial_ms
            return ClockReading(full, full, None, now)
        red, yellow = self._running.left_ms(now)
        mover = Player.RED if self._running.mover is Seat.FIRST else Player.YELLOW
        return ClockReading(red, yellow, mover, now)

    async def move_in_time(self, moving: Awaitable[Move]) -> Move | None:
        """``moving``'s move, the clock moved on (``moved``); None if the mover's flag falls first.

        ``moving`` is then cancelled: a person's wait, the computer's search with it.
        """
        limit = asyncio.timeout(self.seconds_left())
        try:
            async with limit:
                move = await moving
            self.moved()
            return move
        except TimeoutError:
            if limit.expired():
                return None
            raise  # a time limit of the seat's own (a connection's): not the clock's


def _seat(player: Player) -> Seat:
    """The lobby clock's name for ``player``'s side: RED moves first."""
    return Seat.FIRST if player is Player.RED else Seat.SECOND
