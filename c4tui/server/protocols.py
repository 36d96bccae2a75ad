"""The protocols ``c4tui serve`` speaks: each one's front-door spec and its handler.

To serve another protocol: write its pure codec in ``c4tui/protocols/`` (with a
``SPEC``), its handler in ``c4tui/server/`` (a game against the AI needs only
its session: ``ai_game_handler``), and add one line to ``SERVER_PROTOCOLS`` below.
A protocol whose first bytes would be mistaken for another's gets a port of its
own instead: ``TICTACTOE_PROTOCOLS`` (its LOGIN looks like the lobby's).
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.protocols import c4n, cfsp, i32cfsp, lobby, tictactoe
from c4tui.protocols.registry import ProtocolSpec
from c4tui.server.ai_game import Handler, ai_game_handler
from c4tui.server.lobby import serve_lobby
from c4tui.server.tictactoe import serve_tictactoe


@dataclass(frozen=True)
class ServerProtocol:
    """A protocol the server speaks: how to recognise it and who serves it."""

    spec: ProtocolSpec
    serve: Handler


SERVER_PROTOCOLS: tuple[ServerProtocol, ...] = (
    ServerProtocol(i32cfsp.SPEC, ai_game_handler(lambda client: i32cfsp.ServerSession())),
    ServerProtocol(cfsp.SPEC, ai_game_handler(lambda client: cfsp.ServerSession())),
    ServerProtocol(c4n.SPEC, ai_game_handler(lambda client: c4n.ServerSession(client.ai_first))),
    ServerProtocol(lobby.SPEC, serve_lobby),
)
#: What the tic-tac-toe port speaks (``c4tui serve --tictactoe-port``).
TICTACTOE_PROTOCOLS: tuple[ServerProtocol, ...] = (ServerProtocol(tictactoe.SPEC, serve_tictactoe),)
