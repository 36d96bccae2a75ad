"""Games as sequences of drops: column digits, and the drops that rebuild a classic board.

Column digits ("4453", red first) are the solvers' notation; the drops that rebuild
a board serve a program that wants the game so far when only the board is known.
"""

from __future__ import annotations

from c4tui.engine.errors import IllegalMoveError, MoveSyntaxError, PositionError
from c4tui.engine.game import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState, Player
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


def drops_reaching(state: GameState) -> tuple[Move, ...]:
    """Drops, red first, that lead from the empty board to ``state``'s board and turn.

    For a program that wants the game so far when only the board is known (a game
    come into under way): any order that alternates the colours and fills each
    column from the bottom will do, since a board without four in a row had none
    on the way. A Pop Out board does not tell its past: the drops reach the same
    board, not the positions seen before it (repetitions count from here, as for
    ``GameState.from_cells``). Raises PositionError when no order exists (the
    colours' counts cannot alternate, say after a pop, or the columns cannot be
    interleaved).
    """
    stacks = [
        [state.cell(column, row) for row in range(state.column_height(column))]
        for column in range(state.columns)
    ]
    red = sum(stack.count(Player.RED) for stack in stacks)
    if red - (state.disc_count - red) != (0 if state.turn is Player.RED else 1):
        raise PositionError("the discs' colours do not alternate from red's first move")
    order = _interleaving(stacks, [0] * len(stacks), set())
    if order is None:
        raise PositionError("no order of drops reaches this board")
    return tuple(Move.drop(column) for column in order)


def _interleaving(
    stacks: list[list[Player | None]], heights: list[int], dead: set[tuple[int, ...]]
) -> list[int] | None:
    """Columns to drop in, from ``heights`` on, that rebuild ``stacks``; None if none do.

    A depth-first search remembering the heights it found no way on from (``dead``),
    so each set of heights is tried once.
    """
    if all(height == len(stack) for height, stack in zip(heights, stacks, strict=True)):
        return []
    key = tuple(heights)
    if key in dead:
        return None
    mover = Player.RED if sum(heights) % 2 == 0 else Player.YELLOW
    for column, stack in enumerate(stacks):
        if heights[column] < len(stack) and stack[heights[column]] is mover:
            heights[column] += 1
            rest = _interleaving(stacks, heights, dead)
            heights[column] -= 1
            if rest is not None:
                return [column, *rest]
    dead.add(key)
    return None
