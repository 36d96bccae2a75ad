"""A game of Columns as a player plays it: random fallers, the next one shown, score and level.

Pure (no clock, no I/O): the app calls ``tick`` on its timer and the moves on keys.
The random generator is the session's own, so a seed replays a game exactly.
"""

from __future__ import annotations

import dataclasses
import random

from c4tui.columns.game import COLOURS, Field

#: Points for each jewel cleared, times the step of the chain it was cleared in.
POINTS_PER_JEWEL = 10
#: Jewels to clear for each new level.
JEWELS_PER_LEVEL = 30
#: Seconds a faller takes to fall one row at level 1; each level is 15 % faster.
FIRST_LEVEL_SECONDS = 0.8
LEVEL_SPEED_UP = 0.85
FASTEST_SECONDS = 0.08
MAX_START_LEVEL = 10

_PALETTE = tuple(sorted(COLOURS))


def fall_seconds(level: int) -> float:
    """How long a row of falling takes at ``level``."""
    return max(FASTEST_SECONDS, FIRST_LEVEL_SECONDS * LEVEL_SPEED_UP ** (level - 1))


@dataclasses.dataclass
class ColumnsSession:
    """One player's game: the field, the next faller, the score; owned by its screen."""

    rows: int = 13
    columns: int = 6
    start_level: int = 1
    seed: int | None = None
    field: Field = dataclasses.field(init=False)
    next_jewels: tuple[str, str, str] = dataclasses.field(init=False)
    score: int = 0
    cleared: int = 0
    #: The step of the chain being cleared (1 for the first match after a freeze).
    chain: int = 0
    _random: random.Random = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self.field = Field.empty(self.rows, self.columns)
        self.next_jewels = self._draw()

    @property
    def level(self) -> int:
        """The level: the starting one, plus one for every ``JEWELS_PER_LEVEL`` cleared."""
        return self.start_level + self.cleared // JEWELS_PER_LEVEL

    @property
    def over(self) -> bool:
        """True once a faller froze with part of it above the field."""
        return self.field.over

    def _draw(self) -> tuple[str, str, str]:
        return (
            self._random.choice(_PALETTE),
            self._random.choice(_PALETTE),
            self._random.choice(_PALETTE),
        )

    def tick(self) -> None:
        """Time passes: matches clear (and score), the faller falls, or a new one appears."""
        field_now = self.field
        if field_now.over:
            return
        if field_now.matched:
            self.chain += 1
            cleared = len(field_now.matched)
            self.cleared += cleared
            self.score += POINTS_PER_JEWEL * cleared * self.chain
        elif field_now.faller is None:
            self.chain = 0
            self._spawn()
            return
        self.field = field_now.tick()

    def _spawn(self) -> None:
        column = (self.columns + 1) // 2
        self.field = self.field.create_faller(column, self.next_jewels)
        self.next_jewels = self._draw()

    def rotate(self) -> None:
        """The faller's bottom jewel goes to the top."""
        self.field = self.field.rotate()

    def shift(self, step: int) -> None:
        """The faller moves a column left (-1) or right (+1), if it can."""
        self.field = self.field.shift(step)
