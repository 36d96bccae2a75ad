"""The analysis's best line: the moves that prove a position's score, where the solver can.

The analysis row gives every column a proven score but not the game that proves
it. Following the solver's scores gives one: at each ply a move with the best
score for the side to move (the fastest win, else a draw, else the slowest loss),
nearest the centre among equals as ``Analysis.best_column`` picks it, until the
game ends (bench/best_line.py: 0.05 to 0.5 s with a new solver table, a few
milliseconds with a warm one). The outcome is known from the first ply's scores; when the time runs
out first, the line holds the moves proven so far and says it stops short.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from c4tui.ai.perfect import exact_scores, has_exact_play, solver_for
from c4tui.ai.search import CancelFlag, SearchAborted
from c4tui.ai.solver import Position
from c4tui.engine import GameState, Move, Player, move_number


@dataclass(frozen=True)
class BestLine:
    """Best play from a position: its moves, who wins (None: a draw) and on which move.

    ``played`` counts the moves before the line (the game's so far), ``last_ply`` the
    move, counted from the game's first, that ends the game; ``complete`` is False when
    ``moves`` stops before it (out of time).
    """

    played: int
    moves: tuple[Move, ...]
    winner: Player | None
    last_ply: int

    @property
    def complete(self) -> bool:
        """True when the moves reach the end of the game."""
        return self.played + len(self.moves) == self.last_ply

    @property
    def last_move_number(self) -> int:
        """The last move's number as the move list shows it (a pair of moves a number)."""
        return move_number(self.last_ply)

    @property
    def result_words(self) -> str:
        """How best play ends: "RED wins on move 21", "Draw (board full)"."""
        if self.winner is None:
            return "Draw (board full)"
        return f"{self.winner.name} wins on move {self.last_move_number}"


def centre_first(columns: int) -> list[int]:
    """The columns nearest the centre first, the left one first of two as near."""
    centre = (columns - 1) / 2
    return sorted(range(columns), key=lambda column: (abs(column - centre), column))


def best_column(scores: list[int | None]) -> int:
    """The best-scored column, nearest the centre among equals (as the analysis picks it).

    Raises ValueError when no column takes a disc.
    """
    playable = [(c, score) for c in centre_first(len(scores)) if (score := scores[c]) is not None]
    if not playable:
        raise ValueError("no column can take a disc")
    return max(playable, key=lambda item: item[1])[0]  # the first of equals: nearest the centre


def outcome_of(state: GameState, score: int) -> tuple[Player | None, int]:
    """The winner (None: a draw) and the ply that ends the game, from ``state``'s exact score.

    A score of ``s`` means the winner's ``(cells + 1) // 2 + 1 - |s|``-th disc makes four
    (the solver's scoring); a draw fills the board.
    """
    cells = state.columns * state.rows
    if score == 0:
        return None, cells
    winner = state.turn if score > 0 else state.turn.other
    winner_disc = (cells + 1) // 2 + 1 - abs(score)
    red_ply = 2 * winner_disc - 1
    return winner, red_ply if winner is Player.RED else red_ply + 1


def follow_best_line(
    state: GameState, cancel: CancelFlag | None = None, seconds: float | None = None
) -> BestLine | None:
    """Best play from ``state`` where every position is proven; else (or when over) None.

    With ``seconds``, stops following once they are spent (the line is then not
    complete; the outcome is still proven). Raises SearchAborted if ``cancel`` is set.
    """
    if state.is_over or not has_exact_play(state):
        return None
    deadline = None if seconds is None else time.perf_counter() + seconds
    scores = exact_scores(state, cancel)
    if scores is None:
        return None
    first = best_column(scores)
    best = scores[first]
    assert best is not None  # the best column takes a disc
    winner, last_ply = outcome_of(state, best)
    moves: list[Move] = []
    position, score = state, best
    column: int | None = first
    while column is not None:
        moves.append(Move.drop(column))
        position, score = position.drop(column), -score
        if position.is_over or (deadline is not None and time.perf_counter() >= deadline):
            break
        column = move_keeping(position, score, cancel, deadline)
    return BestLine(state.disc_count, tuple(moves), winner, last_ply)


def move_keeping(
    state: GameState, score: int, cancel: CancelFlag | None, deadline: float | None
) -> int | None:
    """The column nearest the centre whose drop keeps ``state``'s exact ``score``.

    None when the deadline passes first. One null-window search a column is enough
    (no drop does better than ``score``, so one keeps it unless the position after it
    is worth more than ``-score`` to the opponent): far quicker than every column's
    exact score (bench/best_line.py). Raises SearchAborted if ``cancel`` is set.
    """
    columns = [c for c in centre_first(state.columns) if state.column_height(c) < state.rows]
    wins = [c for c in columns if state.drop(c).winner is state.turn]
    if wins:
        return wins[0]
    solver = solver_for(state.columns, state.rows)
    try:
        for column in columns:
            after = state.drop(column)
            if after.is_over:  # the last cell: a draw
                if score <= 0:
                    return column
            elif not solver.at_least(
                Position.of(after), 1 - score, cancel=cancel, deadline=deadline
            ):
                return column
    except SearchAborted:
        if cancel is not None and cancel.is_set():
            raise
    return None  # out of time (every score is kept by some column)
