"""One try at a puzzle: the player's moves judged against the proven solution.

The solution's solver-side moves are each the only move reaching the goal (the maker
proved it), so a move is right exactly when it is the solution's: no solver is needed
to judge, only to explain a wrong move (``puzzles.making.refutation``). After a right move
the defence is played at once; after the last one the puzzle is solved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from c4tui.engine import GameState, Move, Player, parse_move
from c4tui.engine.sequence import play_sequence
from c4tui.puzzles.puzzle import WIN, Puzzle


class Verdict(Enum):
    """What a move did: the way on, the end of the solution, or a wrong turn."""

    RIGHT = "right"
    SOLVED = "solved"
    WRONG = "wrong"


@dataclass(frozen=True)
class Refutation:
    """Why a wrong move fails: the solver's best reply and who then wins (None: a draw).

    Here, not beside ``making.refutation`` that finds it: the search pool's worker sends
    it back to the app, and unpickling it there must not load the solver.
    """

    reply: Move | None
    winner: Player | None


@dataclass
class Attempt:
    """A puzzle being solved: the board now, how far along the solution, and what went wrong.

    ``hinted`` is set once a hint was shown: the try still finishes, but it is not
    counted as solved for the rating (as lichess does).
    """

    puzzle: Puzzle
    state: GameState = field(init=False)
    step: int = 0
    failed: bool = False
    hinted: bool = False

    def __post_init__(self) -> None:
        self.state = play_sequence(self.puzzle.moves)

    @property
    def solver_side(self) -> Player:
        """The side the player plays: the side to move in the puzzle's position."""
        return Player.RED if len(self.puzzle.moves) % 2 == 0 else Player.YELLOW

    @property
    def finished(self) -> bool:
        """True once the solution is played out or a wrong move was made."""
        return self.failed or self.step >= len(self.puzzle.solution)

    @property
    def expected(self) -> Move | None:
        """The move the solution asks for now (None when finished)."""
        if self.finished:
            return None
        return parse_move(self.puzzle.solution[self.step])

    def play(self, column: int) -> tuple[Verdict, Move | None]:
        """Judge a drop in ``column``: the verdict and the defence played after it (if any).

        A wrong move is played on the board (so the refutation can be shown from it) and
        ends the try. Raises ValueError when the try is finished or the drop is illegal.
        """
        expected = self.expected
        if expected is None:
            raise ValueError("this puzzle is already over")
        move = Move.drop(column)
        refusal = self.state.refusal(move)
        if refusal is not None:
            raise ValueError(refusal)
        self.state = self.state.play(move)
        if move != expected:
            self.failed = True
            return Verdict.WRONG, None
        self.step += 1
        if self.step >= len(self.puzzle.solution):
            return Verdict.SOLVED, None
        defence = parse_move(self.puzzle.solution[self.step])
        self.state = self.state.play(defence)
        self.step += 1
        return Verdict.RIGHT, defence

    def hint(self) -> Move | None:
        """The move to find (marks the try as hinted); None when finished."""
        self.hinted = self.hinted or not self.finished
        return self.expected

    @property
    def solved(self) -> bool:
        """True when the solution was played out with no wrong move and no hint."""
        return self.finished and not self.failed and not self.hinted


def task_words(puzzle: Puzzle) -> str:
    """What to find, as the board says it: "Red to move: win in 4", "Yellow to move: hold"."""
    side = "Red" if len(puzzle.moves) % 2 == 0 else "Yellow"
    return f"{side} to move: {goal_words(puzzle)}"


def goal_words(puzzle: Puzzle) -> str:
    """The goal in a player's words, from the themes the maker found."""
    wins = [theme for theme in puzzle.themes if theme.startswith("win in ")]
    if puzzle.goal == WIN and wins:
        return wins[0]
    if puzzle.goal == WIN:
        count = puzzle.solver_moves
        return f"find the winning line ({count} move{'s' * (count != 1)})"
    return "find the only move that does not lose"
