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
    waits at least 1 s after the attempt, then 2, 4 … up to 30 s, and any answer
    for that user meanwhile, even a right one, waits until the one before it is out
    (``turn``). A success clears the user's count. The waits are the logging-in
    connections' own: other users are never delayed.
    """

    def __init__(self) -> None:
        self._by_user: dict[str, int] = {}
        #: While a user is slowed, when its latest answer goes out (``time.monotonic``).
        self._turns: dict[str, float] = {}

    def failed(self, user: str, connection_failures: int) -> float:
        """Count a failure; the seconds its answer must wait (from the attempt on)."""
        self._by_user[user] = self._by_user.get(user, 0) + 1
        return delay_for(max(self._by_user[user], connection_failures))

    def turn(self, user: str, earliest: float, now: float) -> float:
        """When an answer to ``user``'s login goes out: at ``earliest``, or after its last.

        While a user is slowed, every answer, right or wrong, waits its turn: a right
        password answered at once among slowed wrong ones would tell a guesser which
        one it was, by the time alone.
        """
        at = max(earliest, self._turns.get(user, now))
        if at > now:
            self._turns[user] = at
        else:
            self._turns.pop(user, None)  # not slowed: nothing to remember
        return at

    def succeeded(self, user: str) -> None:
        """A good login clears the user's count."""
        self._by_user.pop(user, None)


def delay_for(failures: int) -> float:
    """0 for the first two failures, then 1, 2, 4 … seconds, at most MAX_DELAY."""
    if failures <= FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY, 2.0 ** (failures - FREE_FAILURES - 1))
