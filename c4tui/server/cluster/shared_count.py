"""§7's registration limit on a cluster: one count per address for every node, in Redis.

The node that leads serves the lobby's REGISTERs, but each node's tic-tac-toe port
makes accounts in the same store, so the count cannot live in one node's memory: it
is a sorted set per address in Redis (``Bus.take``). A node that cannot reach Redis
counts alone meanwhile (its clients are being cut off anyway, ``bus.py``), so a REGISTER
is never refused for the bus's sake, nor let through uncounted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from c4tui.lobby.rates import SlidingWindow
from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import BusLost
from c4tui.server.counting import CountedHere

log = logging.getLogger("c4tui.server")


class CountedOnTheBus:
    """A ``Counting`` every node shares: ``limit`` events per key in ``seconds``."""

    def __init__(
        self, bus: Bus, window: str, limit: int, seconds: float, now: Callable[[], float]
    ) -> None:
        self._bus = bus
        self._window = window
        self._seconds = seconds
        self._here = CountedHere(SlidingWindow(limit, seconds), now)  # while Redis is away
        self._lost = False

    @property
    def limit(self) -> int:
        """The most a key may have in the window (0: no limit)."""
        return self._here.limit

    async def take(self, key: str) -> bool:
        """Redis's answer; this node's own count if Redis does not answer (said once)."""
        if not self.limit:
            return True
        try:
            taken = await self._bus.take(self._window, key, self.limit, self._seconds)
        except BusLost as error:
            if not self._lost:
                log.warning("%s counted on this node alone for now: %s", self._window, error)
            self._lost = True
            return await self._here.take(key)
        self._lost = False
        return taken
