"""Who blocks whom (spec/protocols.md §7), in memory, for the rooms to consult.

While A blocks B, the rooms keep them apart: B's chat never reaches A (in a room,
and in a finished room's last minute); a challenge either way is answered as for a
user who is not there, and so is an ACCEPT of one sent before, or a REMATCH of a
game they played before; quick play never pairs them; a waiting room of either is
not listed to the other as one to play in, nor joined as its second player. Either
may still watch the other's games, and chat there (only A stops hearing B).

What this server chose where §7 is silent: the seating rules hold both ways (no
game between them begins while either blocks the other, so a game never carries
chat one way only), a JOIN of a full room is "already has 2 players" as for
anyone, and a block ends the challenges pending between the two (``Challenges``).

The server keeps the blocks in its store and loads them here when it opens (and
when a cluster's node takes the lobby over); only the server changes them. Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from c4tui.lobby.room import Member, Outbox


class Blocks:
    """Every block, both ways round: whom each user blocks, and who blocks each user."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        """``pairs``: (blocker, blocked), as the store lists them."""
        self._of: dict[str, set[str]] = {}  # blocker -> whom it blocks
        self._by: dict[str, set[str]] = {}  # blocked -> who blocks it
        self.load(pairs)

    def load(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Forget every block, then hold ``pairs`` (the store's, when the lobby opens)."""
        self._of.clear()
        self._by.clear()
        for blocker, blocked in pairs:
            self.add(blocker, blocked)

    def add(self, blocker: str, blocked: str) -> None:
        """``blocker`` blocks ``blocked`` from now on (again: no change)."""
        self._of.setdefault(blocker, set()).add(blocked)
        self._by.setdefault(blocked, set()).add(blocker)

    def remove(self, blocker: str, blocked: str) -> bool:
        """``blocker`` no longer blocks ``blocked``; False if it did not."""
        if not self.blocks(blocker, blocked):
            return False
        _discard(self._of, blocker, blocked)
        _discard(self._by, blocked, blocker)
        return True

    def set_of(self, blocker: str, blocked: Iterable[str]) -> None:
        """Whom ``blocker`` blocks is exactly ``blocked`` (as its store says after a change)."""
        for user in self.of(blocker):
            self.remove(blocker, user)
        for user in blocked:
            self.add(blocker, user)

    def forget(self, user: str) -> None:
        """``user``'s blocks, both ways, are gone (its account was deleted)."""
        self.set_of(user, ())
        for blocker in list(self._by.get(user, ())):
            self.remove(blocker, user)

    def of(self, user: str) -> list[str]:
        """Whom ``user`` blocks, by name."""
        return sorted(self._of.get(user, ()))

    def count(self, user: str) -> int:
        """How many users ``user`` blocks."""
        return len(self._of.get(user, ()))

    def pairs(self) -> list[tuple[str, str]]:
        """Every block as (blocker, blocked), in order."""
        return sorted(
            (blocker, blocked) for blocker, users in self._of.items() for blocked in users
        )

    def blocks(self, blocker: str, blocked: str) -> bool:
        """True while ``blocker`` blocks ``blocked``."""
        return blocked in self._of.get(blocker, ())

    def between(self, one: str, other: str) -> bool:
        """True while either of the two blocks the other (then no game between them begins)."""
        return self.blocks(one, other) or self.blocks(other, one)

    def heard(self, members: Iterable[Member], sender: str, message: str) -> Outbox:
        """``message`` (``sender``'s chat) for each of ``members`` who does not block ``sender``."""
        deaf: Collection[str] = self._by.get(sender, ())  # most senders: nobody blocks them
        return [(member, message) for member in members if member.name not in deaf]


def _discard(index: dict[str, set[str]], key: str, value: str) -> None:
    """Take ``value`` out of ``index[key]``, and the key with the last one."""
    values = index.get(key)
    if values is not None:
        values.discard(value)
        if not values:
            del index[key]
