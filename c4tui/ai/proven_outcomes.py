"""The proven outcome of each position of a 7 × 6 classic game: what a review of its moves reads.

For every position from a given move on, the solver proves the best the side to move
can force: a win (1), a draw (0) or a loss (-1). A move kept its mover's best outcome
when the position after it still allows the mover what the one before it did, and the
position after a move is the opponent's to move, so each position is solved once and
read twice (the mover's view is its negation). Only the sign is asked for (the
solver's weak search), which is several times faster than the exact score.

This loads the solver: it runs in the search pool's processes, never in the process
that runs an event loop (``match.pool``).
"""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.ai.exact_boards import BOOK_COLUMNS, BOOK_ROWS
from c4tui.ai.perfect import has_exact_play, solver_for
from c4tui.ai.search import CancelFlag, SearchAborted
from c4tui.ai.solver import Position
from c4tui.engine import GameState, Move, Rules, format_move


def proven_outcomes(
    moves: Sequence[Move], first: int = 0, cancel: CancelFlag | None = None
) -> tuple[int, ...]:
    """The proven outcome for the side to move of each position from ``moves[first]`` on.

    ``moves`` is a 7 × 6 classic game from the empty board. The answer holds one
    value per move from ``first`` (the position it was played in) and one more for
    the position after the last move: 1 a win, 0 a draw, -1 a loss. A finished
    game's last position is known without solving (its side to move has lost, or
    it is a draw); a game cut short (a crash, a time loss) has its last position
    solved like the others.

    Raises ValueError if ``first`` is not a move's index or the end, if the board
    has no proven play (no opening book) or a move is not legal; SearchAborted if
    ``cancel`` is set.
    """
    if not 0 <= first <= len(moves):
        raise ValueError(f"no move {first + 1} in a game of {len(moves)} moves")
    positions = positions_of(GameState.new(BOOK_COLUMNS, BOOK_ROWS, Rules.CLASSIC), moves)
    if not has_exact_play(positions[0]):
        raise ValueError("the solver proves outcomes only on 7 × 6 classic with its opening book")
    # Last first: the late positions solve quickest and leave in the solver's table
    # bounds that the earlier ones reuse.
    outcomes = [_outcome(state, cancel) for state in reversed(positions[first:])]
    return tuple(reversed(outcomes))


def positions_of(start: GameState, moves: Sequence[Move]) -> list[GameState]:
    """Every position of the game, ``start`` first (raises ValueError at an illegal move)."""
    state = start
    positions = [state]
    for number, move in enumerate(moves, start=1):
        refusal = "the game was already over" if state.is_over else state.refusal(move)
        if refusal is not None:
            raise ValueError(f"move {number} ({format_move(move)}): {refusal}")
        state = state.play(move)
        positions.append(state)
    return positions


def _outcome(state: GameState, cancel: CancelFlag | None) -> int:
    """1, 0 or -1: the best the side to move in ``state`` can force.

    A cancel seen between two positions stops the review there, however quick each solve.
    """
    if cancel is not None and cancel.is_set():
        raise SearchAborted
    if state.winner is not None:
        return -1  # in classic play only the side that just moved can have made four
    if state.is_over:
        return 0
    solver = solver_for(state.columns, state.rows)
    return solver.solve(Position.of(state), weak=True, cancel=cancel)
