"""The rules engine: pure Python, no I/O. Everything else plays through it."""

from c4tui.engine.errors import (
    BoardSizeError,
    C4Error,
    IllegalMoveError,
    MoveSyntaxError,
    PositionError,
)
from c4tui.engine.game import (
    DEFAULT_COLUMNS,
    DEFAULT_ROWS,
    POP_OFF_IN_CLASSIC,
    DrawReason,
    GameState,
    Player,
    Rules,
)
from c4tui.engine.moves import (
    Move,
    MoveKind,
    describe_move,
    format_move,
    move_number,
    parse_move,
)
from c4tui.engine.size import MAX_SIZE, MIN_SIZE, parse_size
from c4tui.engine.text import render_board, status_line

__all__ = [
    "DEFAULT_COLUMNS",
    "DEFAULT_ROWS",
    "MAX_SIZE",
    "MIN_SIZE",
    "POP_OFF_IN_CLASSIC",
    "BoardSizeError",
    "C4Error",
    "DrawReason",
    "GameState",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "Player",
    "PositionError",
    "Rules",
    "describe_move",
    "format_move",
    "move_number",
    "parse_move",
    "parse_size",
    "render_board",
    "status_line",
]
