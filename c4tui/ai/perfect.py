"""Perfect: the solver's best move where it can prove one in time, the deepest search elsewhere.

On 7 × 6 classic (with BitBully's opening book), on the classic boards c4tui
ships a book for and on boards of 25 cells or fewer, every move is proven: the
fastest win, else a draw, else the slowest loss. Among moves with the same proven
outcome it takes the one that leaves the opponent the most replies that make
things worse for them, so a fallible opponent has the most chances to go wrong.
Other classic boards the solver can hold get a short try at a proof first; Pop
Out and large boards get the alpha-beta search with a larger budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import ClassVar, TypeVar

from c4tui.ai.exact_boards import QUICK_CELLS, proven_everywhere, solvable
from c4tui.ai.search import CancelFlag, SearchAborted, search
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Move

T = TypeVar("T")

#: How long the solver may try a board without an opening book before the search takes over.
PROOF_ATTEMPT_SECONDS = 0.4
#: Choosing among equally good moves ends this long after the move's start at the latest,
#: so that a reply whose proof was slow is not made slower still (the goal is 0.3 s a reply).
TIE_BREAK_SECONDS = 0.25


@lru_cache(maxsize=2)
def solver_for(columns: int, rows: int) -> Solver:
    """A solver per board size and process: its table carries over from move to move.

    Two at most (64 MB of table each): a server's games on many sizes must not
    keep one for every size.
    """
    return Solver(columns, rows)


def has_exact_play(state: GameState) -> bool:
    """Whether every position of ``state``'s board is proven quickly: a small board, or a book.

    The analysis and Perfect then ask the solver with no deadline, so a board that
    needs a book must have one that could be read (``exact_boards`` only saw it).
    """
    columns, rows = state.columns, state.rows
    if not proven_everywhere(columns, rows, state.rules):
        return False
    return columns * rows <= QUICK_CELLS or solver_for(columns, rows).has_book


def exact_scores(
    state: GameState, cancel: CancelFlag | None = None, deadline: float | None = None
) -> list[int | None] | None:
    """Every column's proven score for the side to move, or None (not solvable / out of time).

    Raises SearchAborted only when ``cancel`` is set.
    """
    return _proven(state, Solver.analyse, cancel, deadline)


def proven_best(
    state: GameState, cancel: CancelFlag | None = None, deadline: float | None = None
) -> tuple[int, list[int]] | None:
    """The proven score for the side to move and the columns that keep it, or None.

    As ``exact_scores``, for less: what Perfect needs to choose.
    """
    return _proven(state, Solver.best_columns, cancel, deadline)


def _proven(
    state: GameState,
    ask: Callable[..., T],
    cancel: CancelFlag | None,
    deadline: float | None,
) -> T | None:
    """``ask(solver, position, cancel=, deadline=)``, or None when unsolvable or out of time."""
    if state.is_over or not solvable(state.columns, state.rows, state.rules):
        return None
    solver = solver_for(state.columns, state.rows)
    try:
        return ask(solver, Position.of(state), cancel=cancel, deadline=deadline)
    except SearchAborted:
        if cancel is not None and cancel.is_set():
            raise
        return None


class PerfectPlayer:
    """The strongest level: proven moves where possible."""

    cheap: ClassVar[bool] = False

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        """A proven best move, else the search's best in the budget."""
        started = time.perf_counter()
        budget = self.seconds if time_limit is None else min(self.seconds, time_limit)
        # With the book a proof is always quick: take it whatever the budget says.
        deadline = None if has_exact_play(state) else started + min(budget, PROOF_ATTEMPT_SECONDS)
        try:
            proven = proven_best(state, cancel, deadline)
        except SearchAborted:
            return state.legal_moves()[0]  # cancelled: nobody waits for this move
        if proven is not None:
            return Move.drop(self._pick(state, *proven, cancel, started + TIE_BREAK_SECONDS))
        remaining = max(0.05, budget - (time.perf_counter() - started))
        return search(state, remaining, cancel=cancel).move

    def _pick(
        self,
        state: GameState,
        best: int,
        columns: list[int],
        cancel: CancelFlag | None,
        deadline: float,
    ) -> int:
        """The column to play among ``columns``, which all keep the ``best`` score."""
        centre = (state.columns - 1) / 2
        candidates = sorted(columns, key=lambda column: abs(column - centre))
        if len(candidates) == 1:
            return candidates[0]
        try:
            chances = {
                column: opponent_mistakes(state.drop(column), best, cancel, deadline)
                for column in candidates
            }
        except SearchAborted:
            return candidates[0]
        return max(candidates, key=lambda column: chances[column])  # first max: most central


def opponent_mistakes(
    after: GameState, our_score: int, cancel: CancelFlag | None, deadline: float
) -> int:
    """How many of the opponent's replies to ``after`` give us more than ``our_score``."""
    if after.is_over:
        return 0
    solver = solver_for(after.columns, after.rows)
    mistakes = 0
    for reply in after.legal_moves():
        position_after = after.play(reply)
        if position_after.winner is not None:
            continue  # a winning reply is never a mistake
        if position_after.is_over:
            mistakes += our_score < 0
        elif solver.at_least(
            Position.of(position_after), our_score + 1, cancel=cancel, deadline=deadline
        ):
            mistakes += 1
    return mistakes
