"""The openings a tournament's games start from: balanced by the solver on 7 × 6 classic.

On 7 × 6 classic an opening of ``plies`` moves is kept only when the solver proves
it balanced: the side to move, with perfect play from there, draws or wins or loses
only with one of the last ``NARROW_MARGIN`` discs it could play (a solver score from
-2 to +2, where the empty board is +1). Candidates are random legal openings from the
seed, each solved in the search pool's processes (never in the event loop's), so the
same seed gives the same openings. Elsewhere (other sizes, Pop Out) the solver cannot
prove them in time, and the openings are random legal moves that end no game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from c4tui.engine import GameState, Move, Rules
from c4tui.match.pool import SearchPool

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis  # the solver loads in the pool's processes only

#: A position counts as balanced when the solver's score for the side to move is within this.
NARROW_MARGIN = 2
#: Candidates drawn per opening wanted before repeating the balanced ones found.
TRIES_PER_OPENING = 50
#: Seconds the pool may take for one candidate (7 × 6 classic is proven far sooner).
SOLVE_SECONDS = 10.0


def solver_proves(columns: int, rows: int, rules: Rules) -> bool:
    """True where openings are chosen by the solver: 7 × 6 classic."""
    return (columns, rows, rules) == (7, 6, Rules.CLASSIC)


def random_opening(start: GameState, plies: int, rng: random.Random) -> tuple[Move, ...]:
    """``plies`` random legal moves from ``start`` that do not end the game (fewer if stuck)."""
    moves: list[Move] = []
    state = start
    for _ in range(plies):
        choices = [move for move in state.legal_moves() if not state.play(move).is_over]
        if not choices:
            break
        move = rng.choice(choices)
        moves.append(move)
        state = state.play(move)
    return tuple(moves)


def position_score(analysis: Analysis) -> int | None:
    """The proven score of the position for the side to move (its best column's), or None."""
    if not analysis.exact:
        return None
    scores = [verdict.score for verdict in analysis.columns if verdict is not None]
    return max(scores) if scores else None


def is_balanced(analysis: Analysis) -> bool:
    """True when the solver proves the position a draw or a narrow margin either way."""
    score = position_score(analysis)
    return score is not None and abs(score) <= NARROW_MARGIN


async def find_openings(
    count: int,
    plies: int,
    start: GameState,
    *,
    seed: int,
    pool: SearchPool,
) -> list[tuple[Move, ...]]:
    """``count`` openings of ``plies`` moves from ``start`` (see the module's docstring).

    On 7 × 6 classic, when fewer distinct balanced openings turn up than wanted
    (few exist at two plies), those found are used again in turn; if none does, the
    empty opening is used.
    """
    rng = random.Random(seed)
    if plies <= 0 or count <= 0:
        return [()] * count
    if not solver_proves(start.columns, start.rows, start.rules):
        return [random_opening(start, plies, rng) for _ in range(count)]
    found: list[tuple[Move, ...]] = []
    tried: set[tuple[Move, ...]] = set()
    draws = 0
    while len(found) < count and draws < count * TRIES_PER_OPENING:
        batch = []
        for _ in range(2 * (count - len(found))):  # about half of them are balanced
            draws += 1
            opening = random_opening(start, plies, rng)
            if opening not in tried:
                tried.add(opening)
                batch.append(opening)
        found += await _balanced(batch, start, pool)
    return _repeated(found[:count], count)


async def _balanced(
    candidates: Sequence[tuple[Move, ...]], start: GameState, pool: SearchPool
) -> list[tuple[Move, ...]]:
    """The balanced ones among ``candidates``, in their order (solved side by side)."""
    analyses = await asyncio.gather(
        *(pool.analyse_columns(start.play_all(opening), SOLVE_SECONDS) for opening in candidates)
    )
    return [
        opening
        for opening, analysis in zip(candidates, analyses, strict=True)
        if is_balanced(analysis)
    ]


def _repeated(found: Sequence[tuple[Move, ...]], count: int) -> list[tuple[Move, ...]]:
    """``count`` openings taken from ``found`` in turn (the empty one if none was found)."""
    if not found:
        return [()] * count
    return [found[index % len(found)] for index in range(count)]
