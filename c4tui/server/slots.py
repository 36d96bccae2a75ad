"""How many clients the server serves at once, in all and from one address.

Both doors count here: the front door's connections, and the ssh door's visitors
(a visitor is a connection from its address, as a lobby client is), so one machine
cannot take every slot through either.
"""

from __future__ import annotations

from collections import Counter


class Slots:
    """At most ``most`` clients at once, and at most ``per_address`` from one address."""

    def __init__(self, most: int, per_address: int) -> None:
        self._most = most
        self._per_address = per_address
        self.serving = 0
        self._from: Counter[str] = Counter()

    def take_slot(self, group: str) -> str | None:
        """Count one more client from ``group`` (an address's; "": not counted by address).

        Why not, in words for the log, when over a limit: then nothing is counted.
        """
        if self.serving >= self._most:
            return f"refused: {self._most} connections already"
        if group and self._from[group] >= self._per_address:
            return f"refused: {self._per_address} connections from {group} already"
        self.serving += 1
        if group:
            self._from[group] += 1
        return None

    def free_slot(self, group: str) -> None:
        """The client counted by ``take_slot`` is gone."""
        self.serving -= 1
        if group:
            self._from[group] -= 1
            if not self._from[group]:
                del self._from[group]
