"""c4tui's own levels as move-choosers: their searches run in the search pool's processes."""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.ai.levels import AI_LEVELS, MovePicker, ai_level
from c4tui.engine import GameState, Move, Rules
from c4tui.match.pool import SearchPool
from c4tui.outside.chooser import ChooserError, ready_to_choose

#: The levels' names, weakest first, as ``chooser_for`` reads them.
LEVEL_NAMES = tuple(level.key for level in AI_LEVELS)


class LevelChooser:
    """A built-in level (``random`` … ``perfect``) as a move-chooser.

    Args:
        level: the level's name. Raises ChooserError for an unknown one.
        pool: where its searches run (default: the process's shared pool).
        seed: makes its random choices repeatable.
        name: what tables call it (default: the level's name).
    """

    def __init__(
        self,
        level: str,
        *,
        pool: SearchPool | None = None,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        try:
            self.level = ai_level(level)
        except KeyError:
            raise ChooserError(
                f"no level {level!r}; the levels are {', '.join(LEVEL_NAMES)}"
            ) from None
        self._picker: MovePicker = self.level.make(seed)
        self._pool = pool
        self._name = name or self.level.key

    @property
    def name(self) -> str:
        """What tables call it."""
        return self._name

    def describe(self) -> str:
        """``c4tui's Perfect``."""
        return f"c4tui's {self.level.name}"

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """None: the levels play every board and both rules."""
        return None

    async def choose(
        self, state: GameState, time_limit: float, moves: Sequence[Move] | None = None
    ) -> Move:
        """The level's move, within its own budget or ``time_limit`` if shorter.

        Cancelling this coroutine cancels the search.
        """
        ready_to_choose(state, time_limit)
        budget = time_limit if self.level.seconds is None else min(self.level.seconds, time_limit)
        pool = self._pool or SearchPool.shared()
        move, self._picker = await pool.choose_move(self._picker, state, owner=self, budget=budget)
        return move

    async def close(self) -> None:
        """Nothing to stop: the pool belongs to whoever made it."""
