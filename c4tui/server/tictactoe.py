"""Serving the INFO1112 handout's tic-tac-toe protocol: ``c4tui serve --tictactoe-port``.

Its own rooms, the lobby's accounts, and the handout's messages only. Where
the handout lets the server trust its clients (PLACE is always valid), this
one does not: a cell that is taken or off the board, a move out of turn, a
viewer's move or a waiting creator's is answered to its sender alone with the
board as it stands (``c4tui.lobby.kinds``), and the game goes on unchanged.
"""

from __future__ import annotations

from c4tui.lobby import Lobby, Member, Outbox
from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.server.context import ClientContext
from c4tui.server.lobby import Dialect, serve_rooms


async def serve_tictactoe(stream: MessageStream, client: ClientContext) -> str:
    """Serve one tic-tac-toe client until it leaves; why it ended (for the log)."""
    assert client.tictactoe is not None, "the server was started without tic-tac-toe rooms"
    return await serve_rooms(stream, client, client.tictactoe, TICTACTOE)


def _in_the_rooms(rooms: Lobby, member: Member, request: ttt_wire.Request) -> Outbox:
    """What a logged-in member's request does."""
    if isinstance(request, wire.RoomList):
        return [(member, wire.room_list(rooms.room_names(request.mode)))]
    if isinstance(request, ttt_wire.CreateRoom):
        return rooms.create(member, request.room, None)
    if isinstance(request, wire.Join):
        return rooms.join(member, request.room, request.mode)
    if isinstance(request, ttt_wire.Place):
        unreadable = None if request.cell else f"{request.text[:20]!r} is not a column and a row"
        return rooms.play(member, request.cell, unreadable)
    if isinstance(request, wire.Forfeit):
        return rooms.forfeit(member)
    raise AssertionError(f"answered before the rooms: {request!r}")


TICTACTOE = Dialect(ttt_wire.parse_request, _in_the_rooms)
