"""A timed game here (against the computer, or two players at one keyboard): its clock.

What a clock here is (``HomeClock``: ``3+2``, ``0.5+0``), how it is typed and
offered, and how a game lost on time is said. Light: the menu and the command line
read it; the running clock (``running_clock``) loads with the driver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from c4tui.engine import Player
from c4tui.match.backends.online import CLOCKS

#: A clock's limits here: minutes (a decimal, ``0.5``) from 0.1 to 60, increment 0-60 seconds.
MIN_MINUTES, MAX_MINUTES = Decimal("0.1"), Decimal(60)
MAX_INCREMENT = 60
_HOME_CLOCK = re.compile(r"([0-9]{1,2}(?:\.[0-9]{1,2})?)\+([0-9]{1,2})")
#: What ``--clock`` and the menu accept, in words (the refusal says it).
CLOCK_FORMS = (
    "minutes+seconds, e.g. 3+2 or 0.5+0: minutes from 0.1 to 60 each, "
    "then 0 to 60 seconds added after each move"
)


@dataclass(frozen=True)
class HomeClock:
    """Each player's time and what a move adds to it, in milliseconds (``3+2``, ``0.5+0``)."""

    initial_ms: int
    increment_ms: int

    @property
    def text(self) -> str:
        """``3+2``, ``0.5+0``: as it is typed."""
        return f"{self.initial_ms / 60_000:g}+{self.increment_ms // 1000}"


def parse_home_clock(text: str) -> HomeClock:
    """``3+2`` or ``0.5+0`` as a HomeClock; ValueError (saying what will do) unless valid."""
    found = _HOME_CLOCK.fullmatch(text.strip())
    if found is not None:
        minutes, increment = Decimal(found[1]), int(found[2])
        if MIN_MINUTES <= minutes <= MAX_MINUTES and increment <= MAX_INCREMENT:
            return HomeClock(int(minutes * 60_000), increment * 1000)
    raise ValueError(f"{text!r} is not a clock: give {CLOCK_FORMS}")


def clock_choices(given: HomeClock | None) -> list[tuple[str, HomeClock | None]]:
    """The menu's clocks, ``(label, clock)``: none, the lobby's usual ones, and ``given``.

    ``given`` (typed on the command line) is offered last when it is not one of them.
    """
    row: list[tuple[str, HomeClock | None]] = [("None", None)]
    row += [(text, parse_home_clock(text)) for text in CLOCKS]
    if given is not None and all(clock != given for _, clock in row):
        row.append((given.text, given))
    return row


def lost_on_time(player: Player) -> str:
    """``Red lost on time``: the reason a game lost on time ends with (its record says it too)."""
    return f"{player.name.capitalize()} lost on time"


def ran_out(flagged: Player) -> str:
    """``Red ran out of time: Yellow wins``: a game lost on time, as the front ends say it."""
    return f"{flagged.name.capitalize()} ran out of time: {flagged.other.name.capitalize()} wins"
