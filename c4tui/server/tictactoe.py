"""Serving the INFO1112 handout's tic-tac-toe protocol: ``c4tui serve --tictactoe-port``.

Its own rooms, the lobby's accounts, and the handout's messages only. Where
the handout lets the server trust its clients (PLACE is always valid), this
one does not: a cell that is taken or off the board, a move out of turn, a
viewer's move or a waiting creator's is answered to its sender alone with the
board as it stands (``c4tui.lobby.kinds``), and the game goes on unchanged.
"""

from __future__ import annotations

from c4tui.lobby import Lobby, Member, Outbox
from c4tui.lobby.kinds import TicTacToeMove
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.server.dialects import Dialect, with_shared_acts


def _create(
    rooms: Lobby[None, TicTacToeMove], member: Member, request: ttt_wire.CreateRoom
) -> Outbox:
    """CREATE:<room> (every room plays the same game: no settings)."""
    return rooms.create(member, request.room, None)


def _place(rooms: Lobby[None, TicTacToeMove], member: Member, request: ttt_wire.Place) -> Outbox:
    """PLACE; cells that are no numbers are refused in the codec's words."""
    return rooms.play(member, request.cell, request.unreadable)


#: The handout's protocol: tic-tac-toe rooms.
TICTACTOE = (
    with_shared_acts(Dialect[ttt_wire.Request, None, TicTacToeMove](ttt_wire.parse_request))
    .on(ttt_wire.CreateRoom, _create)
    .on(ttt_wire.Place, _place)
)
