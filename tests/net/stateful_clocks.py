"""Timed rooms in the lobby's model (spec/protocols.md §5.4): the terms asked, and each CLOCK.

The model cannot know the server's instants, only its own: a player's time is
checked between bounds it can prove. The mover's clock started no earlier than the
model sent the request that began the turn (``since``) and the move was played
before its CLOCK arrived, so after a move the mover has at most what it had plus
the increment, and at least that minus the time the model saw pass; the other's
time stood still and is exact.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from c4tui.engine import Player
from c4tui.protocols.terms import CASUAL, Clock, Terms

#: What CREATE and QUICKPLAY may add after the board, and the terms it asks for
#: ("bad": a malformed field, refused as bad format). Rated ones change ratings
#: (``stateful_ratings``).
TERMS: tuple[tuple[str, Terms | str], ...] = (
    ("", CASUAL),
    (":casual", CASUAL),
    (":casual:10+5", Terms(clock=Clock(10, 5))),
    (":casual:15+0", Terms(clock=Clock(15, 0))),
    (":rated", Terms(rated=True)),
    (":rated:10+5", Terms(rated=True, clock=Clock(10, 5))),
    (":casual:0+5", "bad"),
    (":casual:10+5:x", "bad"),
    (":rated:-", "bad"),
    (":ranked", "bad"),
)
_CLOCK = re.compile(r"CLOCK:([0-9]+):([0-9]+)")
#: The server rounds each thought to the millisecond.
ROUNDING_MS = 1


def terms_words(terms: Terms) -> str:
    """ROOMINFO's last two fields: ``rated:10+5``, ``casual:-``."""
    kind = "rated" if terms.rated else "casual"
    return f"{kind}:{'-' if terms.clock is None else terms.clock.text}"


def terms_asked(terms: Terms) -> str:
    """What CREATE or QUICKPLAY adds after the board to ask for ``terms`` (none: casual)."""
    if terms == CASUAL:
        return ""
    kind = "rated" if terms.rated else "casual"
    return f":{kind}" if terms.clock is None else f":{kind}:{terms.clock.text}"


def _times(line: str) -> tuple[int, int]:
    found = _CLOCK.fullmatch(line)
    assert found, f"expected CLOCK:<red ms>:<yellow ms>, got {line!r}"
    return int(found[1]), int(found[2])


@dataclass
class ModelClock:
    """A timed game's times after its last move (RED's, YELLOW's), and since when the
    mover's may have run (a monotonic instant no later than the server's start of it)."""

    clock: Clock
    left: tuple[int, int]
    since: float

    @classmethod
    def began(cls, clock: Clock, line: str, sent_at: float) -> ModelClock:
        """CLOCK after BEGIN: both have their whole time."""
        assert _times(line) == (clock.initial_ms, clock.initial_ms), line
        return cls(clock, (clock.initial_ms, clock.initial_ms), sent_at)

    def moved(self, mover: Player, line: str, sent_at: float) -> None:
        """CLOCK after ``mover``'s move (sent at ``sent_at``): its thought out, the increment in."""
        red, yellow = _times(line)
        index = 0 if mover is Player.RED else 1
        new, old = (red, yellow)[index], self.left[index]
        most = old + self.clock.increment_ms
        least = most - round((time.monotonic() - self.since) * 1000) - ROUNDING_MS
        assert least <= new <= most, f"{mover.name} had {old} ms: {line} ({least}..{most})"
        assert (red, yellow)[1 - index] == self.left[1 - index], f"{line}: only the mover's ran"
        self.left = (red, yellow)
        self.since = sent_at

    def taken_back(self, line: str, sent_at: float) -> None:
        """CLOCK after a takeback agreed at ``sent_at`` (§5.6): the times as before that move."""
        self.left = _times(line)
        self.since = sent_at

    def caught_up(self, mover: Player, line: str) -> None:
        """CLOCK to one who joins or comes back: the mover's time running, the other's not."""
        red, yellow = _times(line)
        index = 0 if mover is Player.RED else 1
        new, old = (red, yellow)[index], self.left[index]
        least = old - round((time.monotonic() - self.since) * 1000) - ROUNDING_MS
        assert max(0, least) <= new <= old, f"{mover.name} had {old} ms: {line}"
        assert (red, yellow)[1 - index] == self.left[1 - index], f"{line}: only the mover's runs"
