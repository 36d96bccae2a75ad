"""Where §7's registration limit is counted: in this process, or on a cluster's bus.

A REGISTER may come in on any port of any node: the lobby's (served by the node that
leads) or a node's own tic-tac-toe port. One address's hour must be one count for all
of them, so the services ask a ``Counting`` — ``CountedHere`` on one server,
``c4tui.server.cluster.shared_count.CountedOnTheBus`` on a cluster.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from c4tui.lobby.rates import SlidingWindow


class Counting(Protocol):
    """At most ``limit`` events per key in a window; ``limit`` 0 counts nothing."""

    @property
    def limit(self) -> int:
        """The most events a key may have in the window (0: no limit)."""
        ...

    async def take(self, key: str) -> bool:
        """Count an event of ``key`` if the window has room; False (not counted) if not."""
        ...


class CountedHere:
    """A ``SlidingWindow`` on this server's clock: every port of one server shares it."""

    def __init__(self, window: SlidingWindow, now: Callable[[], float]) -> None:
        self.window = window
        self._now = now

    @property
    def limit(self) -> int:
        """The window's limit."""
        return self.window.limit

    async def take(self, key: str) -> bool:
        """The window's answer, now."""
        return self.window.take(key, self._now())
