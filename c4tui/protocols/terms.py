"""The settings a lobby game is played with: its board (size, rules) and its terms.

A lobby game's board is ``<cols>:<rows>:<rules>`` (spec/protocols.md §4); its
terms (§5.4) say whether it is rated and what clock it has. CREATE, QUICKPLAY,
CHALLENGE, ROOMINFO and CHALLENGED all carry them, so they are read and written
here once. Pure, like every codec.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import MAX_SIZE, MIN_SIZE, Rules

Game = tuple[int, int, Rules]
_SIZE = re.compile(r"[0-9]{1,2}")
_RULES = {"classic": Rules.CLASSIC, "popout": Rules.POPOUT}


def parse_game(fields: Sequence[str]) -> Game | None:
    """``<cols>:<rows>:<rules>`` split at the colons; None unless valid."""
    if len(fields) != 3 or not all(_SIZE.fullmatch(f) for f in fields[:2]):
        return None
    columns, rows = int(fields[0]), int(fields[1])
    rules = _RULES.get(fields[2])
    if rules is None or not (MIN_SIZE <= columns <= MAX_SIZE and MIN_SIZE <= rows <= MAX_SIZE):
        return None
    return columns, rows, rules


def rules_word(rules: Rules) -> str:
    """``classic`` or ``popout``."""
    return rules.value


def game_fields(game: Game) -> list[str]:
    """``<cols>``, ``<rows>``, ``<rules>``."""
    columns, rows, rules = game
    return [str(columns), str(rows), rules_word(rules)]


#: A clock's limits (§5.4): minutes 1-60, increment 0-60 seconds.
MAX_MINUTES = 60
MAX_INCREMENT = 60
_CLOCK = re.compile(r"([0-9]{1,2})\+([0-9]{1,2})")


@dataclass(frozen=True)
class Clock:
    """``<minutes>+<increment>``: each player's time, and the seconds added after each move."""

    minutes: int
    increment: int

    @property
    def text(self) -> str:
        """``3+2``."""
        return f"{self.minutes}+{self.increment}"

    @property
    def initial_ms(self) -> int:
        """Each player's time at the start, in milliseconds."""
        return self.minutes * 60_000

    @property
    def increment_ms(self) -> int:
        """What a move adds to its player's time, in milliseconds."""
        return self.increment * 1000


def parse_clock(text: str) -> Clock | None:
    """``3+2`` as a Clock; None unless the minutes are 1-60 and the increment 0-60."""
    found = _CLOCK.fullmatch(text)
    if found is None:
        return None
    minutes, increment = int(found[1]), int(found[2])
    if not (1 <= minutes <= MAX_MINUTES and 0 <= increment <= MAX_INCREMENT):
        return None
    return Clock(minutes, increment)


@dataclass(frozen=True)
class Terms:
    """What a game is played for and on: rated or casual, with a clock or without."""

    rated: bool = False
    clock: Clock | None = None

    @property
    def words(self) -> str:
        """``rated 3+2``, ``casual`` (for people)."""
        kind = "rated" if self.rated else "casual"
        return kind if self.clock is None else f"{kind} {self.clock.text}"


#: The §4 forms (no terms): casual, no clock.
CASUAL = Terms()


def parse_terms(fields: Sequence[str]) -> Terms | None:
    """``[]``, ``[rated|casual]`` or ``[rated|casual, m+i]``; None if they are not terms."""
    if not fields:
        return CASUAL
    if fields[0] not in ("rated", "casual") or len(fields) > 2:
        return None
    clock = None
    if len(fields) == 2:
        clock = parse_clock(fields[1])
        if clock is None:
            return None
    return Terms(fields[0] == "rated", clock)


def terms_fields(terms: Terms, *, always: bool = False) -> list[str]:
    """The terms as requests carry them: ``rated``/``casual``, then the clock if any.

    ``always``: the clock's field even without one (``-``), as ROOMINFO and
    CHALLENGED give it.
    """
    kind = "rated" if terms.rated else "casual"
    if terms.clock is not None:
        return [kind, terms.clock.text]
    return [kind, "-"] if always else [kind]


def parse_terms_answer(fields: Sequence[str]) -> Terms | None:
    """``rated|casual`` and ``m+i`` or ``-`` (ROOMINFO's and CHALLENGED's last two)."""
    if len(fields) != 2:
        return None
    return parse_terms(fields[:1] if fields[1] == "-" else fields)
