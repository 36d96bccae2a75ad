"""The plain-text board of ``spec/console-format.md`` (console, logs, test failures)."""

from __future__ import annotations

from c4tui.engine.game import GameState

CELL_WIDTH = 3
EMPTY = "."


def _line(fields: list[str]) -> str:
    return "".join(f.ljust(CELL_WIDTH) for f in fields).rstrip()


def render_board(state: GameState) -> str:
    """The board as text: a header of column numbers, then one line per row, top first."""
    header = _line([str(column + 1) for column in range(state.columns)])
    lines = [header]
    for row in reversed(range(state.rows)):
        cells = []
        for column in range(state.columns):
            owner = state.cell(column, row)
            cells.append(owner.short if owner else EMPTY)
        lines.append(_line(cells))
    return "\n".join(lines)


def status_line(state: GameState) -> str:
    """``RED's turn``, ``YELLOW wins!`` or ``It's a draw!``."""
    if state.winner is not None:
        return f"{state.winner.name} wins!"
    if state.is_draw:
        return "It's a draw!"
    return f"{state.turn.name}'s turn"
