"""A puzzle as c4tui ships and exports it (issue 41): the position, its solution, goal and themes.

Light on purpose: the app, the console and the lobby read puzzles without loading the
solver, which only ``puzzles.making`` (making them) and the wrong-move explanation need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState, Rules, parse_move
from c4tui.engine.sequence import play_sequence

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

    Another board or Pop Out (``columns``, ``rows``, ``rules`` other than 7 × 6
    classic; proven by a search, ``puzzles.search_making``) writes ``moves`` in the
    moves' notations, space-separated as the wire does ("d4 d4 p1 d10"): digits
    cannot say a pop, nor a column past 9. Its JSON then holds "columns", "rows" and
    "rules" as well; a 7 × 6 classic puzzle's JSON has exactly the export's six keys.
    """

    id: str
    moves: str
    solution: tuple[str, ...]
    goal: str
    themes: tuple[str, ...]
    rating: int
    columns: int = DEFAULT_COLUMNS
    rows: int = DEFAULT_ROWS
    rules: Rules = Rules.CLASSIC

    @property
    def is_classic_7x6(self) -> bool:
        """Whether this is the solver's board (7 × 6 classic), whose moves are column digits."""
        return (self.columns, self.rows, self.rules) == (
            DEFAULT_COLUMNS,
            DEFAULT_ROWS,
            Rules.CLASSIC,
        )

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
    } | ({} if puzzle.is_classic_7x6 else _board_json(puzzle))


def _board_json(puzzle: Puzzle) -> dict[str, Any]:
    """The board's fields of a puzzle on another board or under Pop Out."""
    return {"columns": puzzle.columns, "rows": puzzle.rows, "rules": puzzle.rules.value}


def puzzle_start(puzzle: Puzzle) -> GameState:
    """The puzzle's position (raises ValueError, as the engine does, for moves that are none)."""
    if puzzle.is_classic_7x6:
        return play_sequence(puzzle.moves)
    state = GameState.new(puzzle.columns, puzzle.rows, puzzle.rules)
    for notation in puzzle.moves.split():
        move = parse_move(notation)
        refusal = "the game is over" if state.is_over else state.refusal(move)
        if refusal is not None:
            raise ValueError(f"{notation}: {refusal}")
        state = state.play(move)
    return state


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
        *_board_from_json(data),
    )


def _board_from_json(data: dict[str, Any]) -> tuple[int, int, Rules]:
    """The board of a puzzle's JSON: 7 × 6 classic when it names none."""
    columns, rows = data.get("columns", DEFAULT_COLUMNS), data.get("rows", DEFAULT_ROWS)
    if not (isinstance(columns, int) and isinstance(rows, int)):
        raise ValueError("a puzzle's 'columns' and 'rows' must be ints")
    try:
        rules = Rules(data.get("rules", Rules.CLASSIC.value))
    except ValueError:
        raise ValueError("a puzzle's 'rules' is 'classic' or 'popout'") from None
    return columns, rows, rules
