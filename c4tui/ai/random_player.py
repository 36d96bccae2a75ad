"""The weakest opponent: a uniformly random legal move."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from c4tui.engine import GameState, Move

if TYPE_CHECKING:
    from c4tui.ai.search import CancelFlag

#: What unseeded players draw from: one generator for all of them, since its state is
#: 2.5 KB and a server makes a player for every game it plays.
_SHARED = random.Random()


class RandomPlayer:
    """Chooses uniformly among the legal moves; a seed makes it repeatable."""

    #: Fast enough to run anywhere, even on an event loop.
    cheap: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self._random = _SHARED if seed is None else random.Random(seed)

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        """A random legal move. Raises ValueError if the game is over."""
        return self._random.choice(legal_moves_or_raise(state))


def legal_moves_or_raise(state: GameState) -> tuple[Move, ...]:
    """The legal moves; ValueError when there are none (the game is over)."""
    moves = state.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return moves
