"""The plain-text board of ``spec/console-format.md`` (console, logs, test failures)."""

from __future__ import annotations

from c4tui.engine.game import GameState

CELL_WIDTH = 3
EMPTY = "."
#: Follows each disc of the winning line on a finished game's board (``R*``): the rest of
#: the board text stays exactly as the format says.
WIN_MARK = "*"


def _line(fields: list[str]) -> str:
    return "".join(f.ljust(CELL_WIDTH) for f in fields).rstrip()


def render_board(state: GameState, mark_win: bool = False) -> str:
    """The board as text: a header of column numbers, then one line per row, top first.

    With ``mark_win``, each disc of a won game's winning line is followed by WIN_MARK.
    """
    header = _line([str(column + 1) for column in range(state.columns)])
    winning = state.winning_cells() if mark_win else frozenset()
    lines = [header]
    for row in reversed(range(state.rows)):
        cells = []
        for column in range(state.columns):
            owner = state.cell(column, row)
            text = owner.short if owner else EMPTY
            cells.append(text + WIN_MARK if (column, row) in winning else text)
        lines.append(_line(cells))
    return "\n".join(lines)


def status_line(state: GameState) -> str:
    """``RED's turn``, ``YELLOW wins!`` or ``It's a draw! The board is full.``.

    A draw always says why: Pop Out's repetition cannot be seen on the board.
    """
    if state.winner is not None:
        return f"{state.winner.name} wins!"
    if state.is_draw:
        why = state.draw_reason.value if state.draw_reason else "nobody can win"
        return f"It's a draw! {why[0].upper()}{why[1:]}."
    return f"{state.turn.name}'s turn"
