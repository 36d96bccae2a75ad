"""A puzzle as c4tui ships and exports it (issue 41): the position, its solution, goal and themes.

Light on purpose: the app, the console and the lobby read puzzles without loading the
solver, which only ``puzzles.making`` (making them) and the wrong-move explanation need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from c4tui.engine import parse_move

#: The goals, in the export's words.
WIN, HOLD = "win", "hold"
#: The theme of a win whose solution stops before the four (the depth, or no unique way on).
WINNING_LINE = "winning line"


@dataclass(frozen=True)
class Puzzle:
    """A proven puzzle, in the export's shape (issue 41).

    ``moves`` are the position's column digits from the empty board ("4453", red
    first), ``solution`` the move notations alternating the solver side's moves and
    the best defences, solver side first; ``id`` is the digits, so the same position
    is the same puzzle wherever it was found.
    """

    id: str
    moves: str
    solution: tuple[str, ...]
    goal: str
    themes: tuple[str, ...]
    rating: int

    @property
    def solver_moves(self) -> int:
        """How many moves the solver side plays in the solution."""
        return (len(self.solution) + 1) // 2


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The export's JSON object for ``puzzle``."""
    return {
        "id": puzzle.id,
        "moves": puzzle.moves,
        "solution": list(puzzle.solution),
        "goal": puzzle.goal,
        "themes": list(puzzle.themes),
        "rating": puzzle.rating,
    }


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle from the export's JSON object (raises ValueError naming what is wrong).

    The shape is checked, not the proof: a made file is trusted as ``make_puzzles`` wrote it.
    """
    if not isinstance(data, dict):
        raise ValueError("a puzzle is a JSON object")
    fields = {"id": str, "moves": str, "solution": list, "goal": str, "themes": list, "rating": int}
    for name, kind in fields.items():
        if not isinstance(data.get(name), kind):
            raise ValueError(f"a puzzle's {name!r} must be a {kind.__name__}")
    for move in data["solution"]:
        parse_move(str(move))  # raises MoveSyntaxError, a ValueError
    if data["goal"] not in (WIN, HOLD):
        raise ValueError(f"a puzzle's goal is {WIN!r} or {HOLD!r}")
    return Puzzle(
        data["id"],
        data["moves"],
        tuple(map(str, data["solution"])),
        data["goal"],
        tuple(map(str, data["themes"])),
        data["rating"],
    )
