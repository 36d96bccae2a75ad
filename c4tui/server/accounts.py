"""Logging in: failed logins are slowed down, per connection and per user, and nobody else.

The accounts themselves are kept by the lobby's store (``c4tui.server.store``).
"""

from __future__ import annotations

#: Failures allowed before answers slow down; the delay then doubles up to this.
FREE_FAILURES = 2
MAX_DELAY = 30.0
#: A user's failures are forgotten after this long without another (seconds)...
FORGET_AFTER = 3600.0
#: ...and the throttle remembers at most this many users: LOGINs for made-up names,
#: however many, cannot make a public server's memory grow without end (§7).
MAX_REMEMBERED = 100_000


class LoginThrottle:
    """Slows failed logins down, per connection and per user, and nobody else.

    From the third failure (on a connection, or for a user) each failed answer
    waits at least 1 s after the attempt, then 2, 4 … up to 30 s, and any answer
    for that user meanwhile, even a right one, waits until the one before it is out
    (``turn``). A success clears the user's count. The waits are the logging-in
    connections' own: other users are never delayed.

    What it remembers is bounded: a user's count goes after an hour without a
    failure, and past ``MAX_REMEMBERED`` users the longest quiet goes first — by
    then its delays (at most 30 s) are long over.
    """

    def __init__(self) -> None:
        #: Per user: failures, and when the last was (``time.monotonic``); the least
        #: recently failed first (a failure moves its user to the end).
        self._by_user: dict[str, tuple[int, float]] = {}
        #: While a user is slowed, when its latest answer goes out (``time.monotonic``).
        self._turns: dict[str, float] = {}

    def failed(self, user: str, connection_failures: int, now: float) -> float:
        """Count a failure at ``now``; the seconds its answer must wait (from the attempt on)."""
        self._forget_before(now - FORGET_AFTER)
        count = self._by_user.pop(user, (0, now))[0] + 1
        self._by_user[user] = (count, now)
        while len(self._by_user) > MAX_REMEMBERED:
            del self._by_user[next(iter(self._by_user))]
        return delay_for(max(count, connection_failures))

    def turn(self, user: str, earliest: float, now: float) -> float:
        """When an answer to ``user``'s login goes out: at ``earliest``, or after its last.

        While a user is slowed, every answer, right or wrong, waits its turn: a right
        password answered at once among slowed wrong ones would tell a guesser which
        one it was, by the time alone.
        """
        at = max(earliest, self._turns.get(user, now))
        if at > now:
            self._turns.pop(user, None)  # kept in the order set: the front was set first
            self._turns[user] = at
        else:
            self._turns.pop(user, None)  # not slowed: nothing to remember
        self._forget_turns_before(now)
        return at

    def succeeded(self, user: str) -> None:
        """A good login clears the user's count."""
        self._by_user.pop(user, None)

    def remembered(self) -> int:
        """How many users the throttle holds anything for (its memory's measure)."""
        return len(self._by_user.keys() | self._turns.keys())

    def _forget_before(self, moment: float) -> None:
        """Drop the counts of users whose last failure came before ``moment``."""
        while self._by_user:
            oldest = next(iter(self._by_user))
            if self._by_user[oldest][1] >= moment:
                return
            del self._by_user[oldest]

    def _forget_turns_before(self, moment: float) -> None:
        """Drop turns that are out already, from the front (the first set).

        It stops at the first still to come, so a turn that is out can stay a while
        behind it: at most the longest wait there is, never for ever.
        """
        while self._turns:
            first = next(iter(self._turns))
            if self._turns[first] > moment:
                return
            del self._turns[first]


def delay_for(failures: int) -> float:
    """0 for the first two failures, then 1, 2, 4 … seconds, at most MAX_DELAY."""
    if failures <= FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY, 2.0 ** (failures - FREE_FAILURES - 1))
