"""The protocols the server speaks, each bound to the services its handler uses.

Tables, not code: a new protocol is a codec (``c4tui.protocols``) and one line
here. The AI's protocols get the server's AI (and C4N whether it drops first),
the room protocols get their rooms; no handler sees what the others use.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from c4tui.engine import Move
from c4tui.lobby.kinds import ConnectFourSettings, TicTacToeMove
from c4tui.protocols import c4n, cfsp, i32cfsp, lobby, tictactoe
from c4tui.protocols.registry import ProtocolSpec
from c4tui.server.ai_game import ServerAI, ai_game_handler
from c4tui.server.context import Handler
from c4tui.server.dialects import LOBBY
from c4tui.server.lobby import LobbyService, rooms_handler
from c4tui.server.tictactoe import TICTACTOE


@dataclass(frozen=True)
class ServerProtocol:
    """A protocol the server speaks: how to recognise it and who serves it."""

    spec: ProtocolSpec
    serve: Handler


def server_protocols(
    ai: ServerAI, rooms: LobbyService[ConnectFourSettings, Move], ai_first: bool
) -> tuple[ServerProtocol, ...]:
    """What the main port speaks: the AI's three protocols and the lobby's rooms.

    ``ai_first`` lets the AI drop first where the protocol allows it (C4N).
    """
    return (
        ServerProtocol(i32cfsp.SPEC, ai_game_handler(i32cfsp.ServerSession, ai)),
        ServerProtocol(cfsp.SPEC, ai_game_handler(cfsp.ServerSession, ai)),
        ServerProtocol(
            c4n.SPEC, ai_game_handler(functools.partial(c4n.ServerSession, ai_first), ai)
        ),
        ServerProtocol(lobby.SPEC, rooms_handler(rooms, LOBBY)),
    )


def tictactoe_protocols(rooms: LobbyService[None, TicTacToeMove]) -> tuple[ServerProtocol, ...]:
    """What the tic-tac-toe port speaks (``c4tui serve --tictactoe-port``)."""
    return (ServerProtocol(tictactoe.SPEC, rooms_handler(rooms, TICTACTOE)),)
