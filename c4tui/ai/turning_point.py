"""The move that lost a game: the loser's first move after which it could no longer hold.

A review of a finished game shows what every column led to in each of its positions
(``ai.analysis``, proven by the solver on the boards it proves); this finds the first move
of the loser that turned a position it could still hold (a draw, or a win) into a
proven loss. It only reads analyses worked out elsewhere (in the pool's processes),
so it loads no solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from c4tui.engine import GameState, Move, Player, move_number

# Only for typing: ``ai.analysis`` loads the solver, which stays in the pool's processes.
if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis, ColumnVerdict


@dataclass(frozen=True)
class TurningPoint:
    """The losing move: its number in the game (1: the first), and what would have held.

    ``instead`` is the column (0-based) that would have held; ``won`` says whether it
    would have won, not only drawn.
    """

    number: int
    move: Move
    mover: Player
    instead: int
    won: bool

    def words(self, name: str) -> str:
        """``Move 9 (bob, column 3) lost the game: column 4 would have held a draw``.

        Numbered as the move list numbers it (``move_number``: Red's and Yellow's moves a
        pair), not by ``number``, which counts every player's moves.
        """
        held = "won" if self.won else "held a draw"
        return (
            f"Move {move_number(self.number)} ({name}, column {self.move.column + 1}) "
            "lost the game: "
            f"column {self.instead + 1} would have {held}"
        )


def standing(verdict: ColumnVerdict | None) -> int | None:
    """1, 0 or -1: a proven win, draw or loss for the mover (None: no move there).

    A proven verdict's score is the solver's, whose sign is the outcome.
    """
    if verdict is None:
        return None
    return (verdict.score > 0) - (verdict.score < 0)


def best_standing(analysis: Analysis) -> int:
    """The best the mover can reach from the analysed position."""
    return max(s for s in map(standing, analysis.columns) if s is not None)


def turning_point(
    positions: Sequence[GameState],
    moves: Sequence[Move],
    analyses: Sequence[Analysis],
    loser: Player,
    *,
    first: int = 1,
) -> TurningPoint | None:
    """The loser's first move from a position it could hold into a lost one; None if none.

    ``positions[i]`` is the position ``moves[i]`` was played in (the final position may
    follow) and ``analyses[i]`` its proven analysis; ``moves[0]`` is move number ``first``
    of the game. Raises ValueError if the analyses are not one proven analysis a move.
    """
    if len(analyses) != len(moves) or not all(analysis.exact for analysis in analyses):
        raise ValueError("a turning point needs a proven analysis before every move")
    for number, (state, move, analysis) in enumerate(
        zip(positions[: len(moves)], moves, analyses, strict=True), start=first
    ):
        if state.turn is not loser:
            continue
        played = standing(analysis.columns[move.column])
        best = best_standing(analysis)
        if played is not None and played < 0 <= best:
            return TurningPoint(number, move, loser, analysis.best_column(), best > 0)
    return None
