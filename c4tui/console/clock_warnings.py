"""``console --lobby`` warns as the player's own clock runs low in a timed game (§5.4).

A person reading a scrolling transcript does not watch the clocks printed under each
board; once at ``WARNING_S`` and once at ``LAST_WARNING_S`` seconds left of their own
time, a line says so. The times are the server's last CLOCK, the mover's running since.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from c4tui.client.clocks import ClockReading
from c4tui.engine import Player

#: Seconds of our own time left at the first warning.
WARNING_S = 30
#: Seconds of our own time left at the last warning.
LAST_WARNING_S = 10


class LowTimeWarnings:
    """Says each mark of ``mine``'s time as it is passed, once a game; ``close`` stops it."""

    def __init__(
        self,
        mine: Player,
        say: Callable[[str], None],
        marks_s: tuple[float, ...] = (WARNING_S, LAST_WARNING_S),
    ) -> None:
        self._mine = mine
        self._say = say
        self._marks = sorted(marks_s, reverse=True)  # still to pass, highest first
        self._timer: asyncio.TimerHandle | None = None

    def heard(self, reading: ClockReading) -> None:
        """A CLOCK came: warn of the marks passed, and time the next if our clock runs."""
        self.close()
        left_s = reading.left_ms(self._mine, time.monotonic()) / 1000
        passed = [mark for mark in self._marks if mark >= left_s]
        if passed:
            self._marks = [mark for mark in self._marks if mark < left_s]
            self._say(f"Your clock: {passed[-1]:g} seconds left.")
        if self._marks and reading.mover is self._mine:
            wait = left_s - self._marks[0]
            self._timer = asyncio.get_running_loop().call_later(wait, self.heard, reading)

    def close(self) -> None:
        """No more warnings until the next CLOCK (the game ended, or a new reading came)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
