"""Games written as a string of column digits ("4453", red first): the solvers' notation."""

from __future__ import annotations

from c4tui.engine.errors import IllegalMoveError, MoveSyntaxError
from c4tui.engine.game import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState
from c4tui.engine.moves import Move

#: One digit a column: boards wider than this cannot be written this way.
MAX_SEQUENCE_COLUMNS = 9


def play_sequence(text: str, columns: int = DEFAULT_COLUMNS, rows: int = DEFAULT_ROWS) -> GameState:
    """The classic position after the drops in ``text`` (digits 1 to ``columns``).

    Raises MoveSyntaxError for a character that is not a column, and
    IllegalMoveError for a drop into a full column or after the game ended.
    """
    if columns > MAX_SEQUENCE_COLUMNS:
        raise MoveSyntaxError(f"a digit sequence cannot name the columns of a {columns}-wide board")
    state = GameState.new(columns, rows)
    for number, character in enumerate(text, start=1):
        if not ("1" <= character <= str(columns)):
            raise MoveSyntaxError(f"move {number}: {character!r} is not a column (1-{columns})")
        if state.is_over:
            raise IllegalMoveError(f"move {number}: the game was already over")
        move = Move.drop(int(character) - 1)
        reason = state.refusal(move)
        if reason is not None:
            raise IllegalMoveError(f"move {number}: {reason}")
        state = state.play(move)
    return state
