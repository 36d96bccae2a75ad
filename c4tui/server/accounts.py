"""Logging in: failed logins are slowed down, per connection and per user, and nobody else.

The accounts themselves are kept by the lobby's store (``c4tui.server.store``).
"""

from __future__ import annotations

#: Failures allowed before answers slow down; the delay then doubles up to this.
FREE_FAILURES = 2
MAX_DELAY = 30.0


class LoginThrottle:
    """Slows failed logins down, per connection and per user, and nobody else.

    From the third failure (on a connection, or for a user) each failed answer
    waits at least 1 s after the attempt, then 2, 4 … up to 30 s. A success
    clears the user's count. The wait is the failing connection's own.
    """

    def __init__(self) -> None:
        self._by_user: dict[str, int] = {}

    def failed(self, user: str, connection_failures: int) -> float:
        """Count a failure; the seconds its answer must wait (from the attempt on)."""
        self._by_user[user] = self._by_user.get(user, 0) + 1
        return delay_for(max(self._by_user[user], connection_failures))

    def succeeded(self, user: str) -> None:
        """A good login clears the user's count."""
        self._by_user.pop(user, None)


def delay_for(failures: int) -> float:
    """0 for the first two failures, then 1, 2, 4 … seconds, at most MAX_DELAY."""
    if failures <= FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY, 2.0 ** (failures - FREE_FAILURES - 1))
