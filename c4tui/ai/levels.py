"""The computer's levels, weakest first: what the menu lists and the server plays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from c4tui.ai.random_player import RandomPlayer, legal_moves_or_raise
from c4tui.engine import GameState, Move

if TYPE_CHECKING:
    from c4tui.ai.search import CancelFlag


class MovePicker(Protocol):
    """What a level offers: a move for a position (may be slow, so it runs off the UI)."""

    #: True when a move costs next to nothing (it may run on an event loop).
    cheap: ClassVar[bool]

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        """The move to play in ``state``.

        Give up early when ``cancel`` is set; take at most ``time_limit`` seconds
        when given (less than the level's own budget when the machine is busy).
        """
        ...


class TacticalPlayer(RandomPlayer):
    """Easy: wins when it can, blocks what it sees, never walks into a loss in one."""

    cheap: ClassVar[bool] = False  # one ply for every move: milliseconds on a big board

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        """An immediate win, else a random move that does not hand over a win."""
        moves = legal_moves_or_raise(state)
        safe = []
        for move in moves:
            after = state.play(move)
            if after.winner is state.turn:
                return move
            if after.winner is None and not _opponent_can_win(after):
                safe.append(move)
        pool = safe or list(moves)
        centre = (state.columns - 1) / 2
        weights = [1.0 / (1.0 + abs(move.column - centre)) for move in pool]
        return self._random.choices(pool, weights)[0]


def _opponent_can_win(state: GameState) -> bool:
    """Whether the side to move in ``state`` has a winning move at once."""
    return any(state.play(move).winner is state.turn for move in state.legal_moves())


class SearchPlayer:
    """Medium and Hard: alpha-beta search, limited by depth and by a time budget."""

    cheap: ClassVar[bool] = False

    def __init__(self, seconds: float, max_depth: int = 64, keep_table: bool = False) -> None:
        self.seconds = seconds
        self.max_depth = max_depth
        self.keep_table = keep_table

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        """The best move the search finds in its budget (or in ``time_limit``, if shorter)."""
        from c4tui.ai.search import kept_table, search  # noqa: PLC0415 (the menu lists levels only)

        seconds = self.seconds if time_limit is None else min(self.seconds, time_limit)
        table = kept_table(state) if self.keep_table else None
        return search(state, seconds, self.max_depth, cancel, table).move


@dataclass(frozen=True)
class AILevel:
    """One entry of the level list.

    ``seconds`` is the level's thinking budget per move (None: it needs no time);
    ``proves`` is True when it plays the exact solver's moves, whose first use in a
    process costs about a second (a worker loads it before the first move).
    """

    key: str
    name: str
    description: str
    make: Callable[[int | None], MovePicker]
    seconds: float | None = None
    proves: bool = False


#: Hard's thinking time per move: its 95th percentile stays under a second.
HARD_SECONDS = 0.6
MEDIUM_SECONDS = 0.3
HINT_SECONDS = 0.8
#: Perfect's budget on boards it cannot prove (where it proves every position, in well under).
PERFECT_SECONDS = 1.0


def _perfect_player() -> MovePicker:
    """Perfect, imported when chosen (the solver brings NumPy and Numba)."""
    from c4tui.ai.perfect import PerfectPlayer  # noqa: PLC0415

    return PerfectPlayer(PERFECT_SECONDS)


AI_LEVELS: tuple[AILevel, ...] = (
    AILevel(
        "random", "Random", "Plays any legal move at random. For your first games.", RandomPlayer
    ),
    AILevel(
        "easy",
        "Easy",
        "Takes a win when it sees one and blocks yours; otherwise plays by feel.",
        TacticalPlayer,
    ),
    AILevel(
        "medium",
        "Medium",
        "Looks four moves ahead and builds threats. A fair fight for most players.",
        lambda seed: SearchPlayer(seconds=MEDIUM_SECONDS, max_depth=4),
        MEDIUM_SECONDS,
    ),
    AILevel(
        "hard",
        "Hard",
        "Searches as deep as it can in about half a second. Rarely beaten.",
        lambda seed: SearchPlayer(seconds=HARD_SECONDS, keep_table=True),
        HARD_SECONDS,
    ),
    AILevel(
        "perfect",
        "Perfect",
        "Never makes a mistake on 7 × 6 and on most classic boards of up to 42 cells: "
        "every move is proven there. Elsewhere it searches twice as long as Hard.",
        lambda seed: _perfect_player(),
        PERFECT_SECONDS,
        proves=True,
    ),
)


def ai_level(key: str) -> AILevel:
    """The level called ``key`` (raises KeyError for an unknown one)."""
    for level in AI_LEVELS:
        if level.key == key:
            return level
    raise KeyError(key)
