"""What chooses a bot's moves, and how long it may think.

A bot plays with a *chooser*: c4tui's own AI at a level (here), or an outside
program (``--engine``, ``--kaggle``). Every chooser has the same small shape, so
the bot does not care which it has. How long it may think comes from the game's
clock when the game is timed, and from the chooser's own pace otherwise.
"""

from __future__ import annotations

from typing import Protocol

from c4tui.ai.levels import AILevel, MovePicker
from c4tui.engine import GameState, Move
from c4tui.match.pool import SearchPool
from c4tui.protocols.terms import Game

#: Seconds a chooser may think in a game without a clock.
UNTIMED_SECONDS = 5.0
#: Seconds kept back from every timed move for the network and the server's clock.
NETWORK_MARGIN = 0.3
#: The least a timed move is given, however low the clock.
LEAST_SECONDS = 0.05


class Chooser(Protocol):
    """Chooses moves for the bot, one game at a time."""

    def plays(self, game: Game) -> bool:
        """True if it can play this board and these rules (Kaggle's agents: classic only)."""

    async def choose(self, state: GameState, time_limit: float) -> Move:
        """A legal move in ``state`` within ``time_limit`` seconds."""

    async def close(self) -> None:
        """Let go of what it holds (processes)."""


class LevelChooser:
    """c4tui's own AI at ``level``, thinking in worker processes (the search pool)."""

    def __init__(self, level: AILevel, pool: SearchPool) -> None:
        self.level = level
        self.pool = pool
        self._picker: MovePicker = level.make(None)

    def plays(self, game: Game) -> bool:
        """Every board and both rules."""
        return True

    async def choose(self, state: GameState, time_limit: float) -> Move:
        """The level's move, within its own pace and ``time_limit``, whichever is shorter."""
        budget = min(self.level.seconds, time_limit) if self.level.seconds else None
        move, self._picker = await self.pool.choose_move(self._picker, state, budget=budget)
        return move

    async def close(self) -> None:
        """Stop the worker processes."""
        self.pool.shutdown()


def thinking_time(state: GameState, my_ms: int | None, increment_ms: int) -> float:
    """Seconds to think on this move: all the clock allows spread over the moves left.

    ``my_ms`` is what our clock shows (None: the game is untimed). A move may use its
    share of the time left (as if half the empty cells were ours to fill) and most of
    the increment, less a margin for the network, so the bot never loses on time.
    """
    if my_ms is None:
        return UNTIMED_SECONDS
    empty = state.columns * state.rows - state.disc_count
    moves_left = max(1, empty // 2)
    share = my_ms / 1000 / moves_left + 0.8 * increment_ms / 1000
    ceiling = my_ms / 1000 / 2  # never stake half of what is left on one move
    return max(LEAST_SECONDS, min(share, ceiling) - NETWORK_MARGIN)
