"""A finished room's last minute (spec/protocols.md §5.6): who is still "in" it.

After GAMEEND the room is gone, but its players and viewers may still chat
there for a while ("gg"), while being free to go anywhere: entering another
room ends it for that one (one who logs out hears nothing, and is still there if
it logs in again within the window). A rematch takes the viewers still there
along to the new room. The window is the rematch's (``challenges``), the
time the rooms' ``now``. Pure, like the rooms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(eq=False)
class Aftermath:
    """A room whose game ended at ``ended``, and who of those there then is still in it."""

    room: str
    ended: float
    players: list[str]  # those there at the end (not away)
    viewers: list[str]

    @property
    def present(self) -> list[str]:
        """Everyone still in it: players first, then viewers."""
        return self.players + self.viewers


class Afterwards:
    """Each user's finished room, for ``window`` seconds after its end."""

    def __init__(self, window: float) -> None:
        self.window = window
        self._of: dict[str, Aftermath] = {}

    def ended(self, room: str, players: Iterable[str], viewers: Iterable[str], at: float) -> None:
        """The game in ``room`` ended ``at``: those there are in its aftermath now."""
        for user, aftermath in list(self._of.items()):
            if at - aftermath.ended > self.window:
                del self._of[user]  # only the window's are kept
        aftermath = Aftermath(room, at, list(players), list(viewers))
        self._of.update(dict.fromkeys(aftermath.present, aftermath))

    def of(self, user: str, now: float) -> Aftermath | None:
        """The finished room ``user`` is still in at ``now`` (None: none, or too late)."""
        aftermath = self._of.get(user)
        return aftermath if aftermath is not None and now - aftermath.ended <= self.window else None

    def gone(self, user: str) -> None:
        """``user`` entered another room: it is in no finished room any more."""
        aftermath = self._of.pop(user, None)
        if aftermath is not None:
            for members in (aftermath.players, aftermath.viewers):
                if user in members:
                    members.remove(user)
