"""Small helpers for building engine positions from short move strings in tests."""

from __future__ import annotations

from c4tui.engine import GameState, Rules, parse_move


def play(moves: str, columns: int = 7, rows: int = 6, rules: Rules = Rules.POPOUT) -> GameState:
    """The state after ``moves``, written as space-separated notation: ``"d1 d2 p1"``."""
    state = GameState.new(columns, rows, rules)
    for text in moves.split():
        state = state.play(parse_move(text))
    return state
