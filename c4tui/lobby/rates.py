"""How often one may do a thing: a sliding window per key (spec/protocols.md §7's limits).

The server counts REGISTERs per address (IPv6: per /64, ``net.address.address_group``)
in an hour and CHAT lines per user in ten seconds, each with one ``SlidingWindow``.
Exact, not bucketed: at most ``limit`` events of a key fall in any ``seconds`` long
stretch of time, and an event refused is not counted (so one who waits gets through
again as soon as its oldest event leaves the window, however hard it kept trying).
Memory stays bounded by what happened within the last window: a key's old events,
and keys with none left, are dropped as time passes. Pure: time is passed in.
"""

from __future__ import annotations

from collections import deque


class SlidingWindow:
    """At most ``limit`` events per key in any ``seconds``; a ``limit`` of 0 counts nothing."""

    def __init__(self, limit: int, seconds: float) -> None:
        if limit < 0 or seconds <= 0:
            raise ValueError(f"a limit of {limit} in {seconds} s makes no sense")
        self.limit = limit
        self.seconds = seconds
        self._events: dict[str, deque[float]] = {}  # each key's, oldest first, within the window
        self._sweep_at = 0.0  # when keys whose events all left the window are dropped

    @property
    def on(self) -> bool:
        """Whether anything is limited (``limit`` 0 turns the window off)."""
        return self.limit > 0

    def take(self, key: str, now: float) -> bool:
        """Count an event of ``key`` at ``now`` if the window has room; False (uncounted) if not."""
        if not self.on:
            return True
        self._sweep(now)
        events = self._events.setdefault(key, deque())
        _forget_before(events, now - self.seconds)
        if len(events) >= self.limit:
            return False
        events.append(now)
        return True

    def used(self, key: str, now: float) -> int:
        """How many of ``key``'s events are in the window ending at ``now``."""
        events = self._events.get(key, deque())
        return sum(1 for when in events if when > now - self.seconds)

    def __len__(self) -> int:
        """How many keys are remembered (for tests: it stays bounded)."""
        return len(self._events)

    def _sweep(self, now: float) -> None:
        """Once per window's length, drop every key with no event left in the window."""
        if now < self._sweep_at:
            return
        self._sweep_at = now + self.seconds
        for key, events in list(self._events.items()):
            _forget_before(events, now - self.seconds)
            if not events:
                del self._events[key]


def _forget_before(events: deque[float], start: float) -> None:
    """Drop the events at or before ``start`` (they have left the window)."""
    while events and events[0] <= start:
        events.popleft()
