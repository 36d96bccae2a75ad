"""The computer at any level; its thinking runs in the search pool's processes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from c4tui.ai.levels import AI_LEVELS, AILevel, MovePicker, ai_level
from c4tui.engine import GameState, Move
from c4tui.match.backends.base import Backend, Choice, Option, SeatContext

if TYPE_CHECKING:
    from c4tui.match.pool import SearchPool

LEVEL_OPTION = Option(
    "level",
    "Level",
    default=AI_LEVELS[0].key,
    choices=tuple(Choice(level.key, level.name, level.description) for level in AI_LEVELS),
)


class ComputerBackend(Backend):
    """A computer player of one level.

    Args:
        level: how strong it is.
        pool: where its searches run (the process's shared pool by default).
        seed: makes its random choices repeatable.
        min_delay: seconds it takes at least, so a person sees its move arrive.
        owner: whose work this is in the pool's fair queue.
    """

    key = "computer"
    title = "Computer"
    noun = "computer"
    summary = "Play the computer at the level you choose."
    options = (LEVEL_OPTION,)

    def __init__(
        self,
        level: AILevel,
        *,
        pool: SearchPool | None = None,
        seed: int | None = None,
        min_delay: float = 0.0,
        owner: object = None,
    ) -> None:
        self.level = level
        self.label = f"Computer ({level.name})"
        self._picker: MovePicker = level.make(seed)
        self._pool = pool
        self._min_delay = min_delay
        self._owner = self if owner is None else owner

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """The computer at ``values["level"]``."""
        return cls(
            ai_level(values.get("level", LEVEL_OPTION.default_value())),
            pool=context.pool,
            seed=context.seed,
            min_delay=context.ai_delay,
            owner=context.owner,
        )

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``vs computer (Hard)``."""
        return f"vs computer ({ai_level(values.get('level', 'random')).name})"

    @classmethod
    def prepare(cls, values: Mapping[str, str], start: GameState) -> None:
        """Perfect chosen in the menu: the shared pool's worker loads the solver meanwhile."""
        if ai_level(values.get("level", LEVEL_OPTION.default_value())).proves:
            _shared_pool().warm_up(start)

    async def start(self, state: GameState) -> None:
        """Start the pool's workers early, so the first move does not wait for them."""
        if not self._picker.cheap:
            self._the_pool().warm_up(state if self.level.proves else None)

    async def choose_move(self, state: GameState) -> Move:
        """Ask the pool; wait at least ``min_delay`` so a person sees the move arrive.

        Cancelling this coroutine (a new game, undo, a client gone) cancels the search.
        """
        started = time.monotonic()
        move, self._picker = await self._the_pool().choose_move(
            self._picker, state, owner=self._owner, budget=self.level.seconds
        )
        remaining = self._min_delay - (time.monotonic() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        return move

    def _the_pool(self) -> SearchPool:
        return self._pool or _shared_pool()


def _shared_pool() -> SearchPool:
    """The process's pool, loaded when first needed.

    The menu, which lists this opponent, starts without multiprocessing (about 10 ms).
    """
    from c4tui.match.pool import SearchPool  # noqa: PLC0415

    return SearchPool.shared()
