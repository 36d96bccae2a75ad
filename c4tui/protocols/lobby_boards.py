"""Reading the lobby's boards as a client: the move a BOARDSTATUS shows, a game joined late.

Part of what a lobby client does with the codec's messages (``c4tui.protocols.lobby``):
pure, with the engine checking every board.
"""

from __future__ import annotations

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.errors import PositionError
from c4tui.net.errors import ProtocolError
from c4tui.protocols.lobby import cells


def move_between(state: GameState, board: str) -> Move | None:
    """The legal move that turns ``state`` into ``board`` (BOARDSTATUS's cells), if one does."""
    for move in state.legal_moves():
        if cells(state.play(move)) == board:
            return move
    return None


def state_from_cells(game: tuple[int, int, Rules], board: str, turn: Player) -> GameState:
    """The position BOARDSTATUS shows, ``turn`` to move (a viewer joining a game under way).

    Raises ProtocolError when ``board`` does not fit the board or has floating discs.
    Under Pop Out the positions seen before are unknown, so repetitions count from here.
    """
    columns, rows, rules = game
    if len(board) != columns * rows:
        raise ProtocolError(f"a board of {len(board)} cells for {columns} × {rows}")
    discs = {
        (index % columns, rows - 1 - index // columns): _OWNERS[digit]
        for index, digit in enumerate(board)
        if digit != "0"
    }
    try:
        return GameState.from_cells(columns, rows, rules, discs, turn)
    except PositionError as error:
        raise ProtocolError(str(error)) from None


#: Who owns a cell, by its digit in BOARDSTATUS (0, empty, has no owner).
_OWNERS = {"1": Player.RED, "2": Player.YELLOW}
