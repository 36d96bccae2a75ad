"""What ``c4tui console --puzzles`` says: the standing, a try's end, a refutation, a history.

Plain functions of the puzzle core's values (``puzzles``), so the trainer's loop
(``console.puzzles``) only decides when to say them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from c4tui.engine import Move, Player, format_move, parse_move
from c4tui.puzzles.progress import PuzzleProgress, Try
from c4tui.puzzles.puzzle import Puzzle

if TYPE_CHECKING:  # the solver's module: it loads in the search pool's processes only
    from c4tui.puzzles.attempt import Refutation

#: How many tries ``history`` lists (the newest).
HISTORY_SHOWN = 10


def side_name(player: Player) -> str:
    """``Red`` or ``Yellow``, as ``task_words`` says them."""
    return player.name.capitalize()


def standing_words(progress: PuzzleProgress) -> str:
    """The player's puzzle rating and streaks, said when the trainer starts."""
    return (
        f"Your puzzle rating: {round(progress.rating.rating)}, streak {progress.streak} "
        f"(best {progress.best_streak})."
    )


def puzzle_heading(puzzle: Puzzle, rating: float, task: str) -> str:
    """``Puzzle 64516715 (rated 1500). Red to move: win in 2``."""
    return f"Puzzle {puzzle.id} (rated {round(rating)}). {task}"


def rating_words(progress: PuzzleProgress, change: float, rated: bool) -> str:
    """``Rating 1512 (+12), streak 3``; a retry says it was not rated.

    The change shown is between the two ratings as shown (rounded), so they add up.
    """
    after = round(progress.rating.rating)
    if not rated:
        return f"Rating {after} (a retry is not rated), streak {progress.streak}"
    shown = after - round(progress.rating.rating - change)
    return f"Rating {after} ({shown:+d}), streak {progress.streak}"


def refutation_words(wrong: Move, refuted: Refutation, solver_side: Player) -> str:
    """Why a wrong move fails: ``d2 lets Yellow draw: Yellow answers d3.``"""
    move = format_move(wrong)
    defender = side_name(solver_side.other)
    if refuted.reply is None:
        return f"{move} fills the board: a draw."
    answer = f"{defender} answers {format_move(refuted.reply)}."
    if refuted.winner is solver_side:  # never for a proven puzzle: its way is the only one
        return f"{move} is not the puzzle's way: {answer}"
    outcome = "draw" if refuted.winner is None else "win"
    return f"{move} lets {defender} {outcome}: {answer}"


def solution_words(puzzle: Puzzle, solver_side: Player) -> str:
    """``Solution: Red d6, Yellow d6, Red d5.``: the moves with the side that plays each."""
    sides = (solver_side, solver_side.other)
    moves = [
        f"{side_name(sides[index % 2])} {format_move(parse_move(notation))}"
        for index, notation in enumerate(puzzle.solution)
    ]
    return f"Solution: {', '.join(moves)}."


def history_lines(history: Sequence[Try]) -> list[str]:
    """The newest tries, oldest of them first, each with the id that ``open`` takes."""
    if not history:
        return ["No puzzles tried yet."]
    shown = history[-HISTORY_SHOWN:]
    tries = "try" if len(shown) == 1 else f"{len(shown)} tries"
    lines = [f"Your last {tries} (open ID or retry ID opens one again):"]
    for entry in shown:
        outcome = "solved" if entry.solved else "failed"
        rated = "" if entry.rated else " (retry, not rated)"
        lines.append(
            f"  {entry.day}  {entry.puzzle_id:<16} {outcome}, rating {entry.rating_after}{rated}"
        )
    return lines
