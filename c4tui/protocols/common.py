"""What every protocol's server side shares: the ``Reply`` and ``AIGameSession`` to answer with.

The line limit, ``ProtocolError`` and ``quote`` belong to the transport's pure part
(``c4tui.net.wire``, ``c4tui.net.errors``), below every codec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from c4tui.engine import GameState, Move, Player, Rules


@dataclass
class Reply:
    """What a server must do after a client's message: send these messages, maybe close.

    Every server-side session of every protocol answers with these, so one game
    loop (``c4tui.server.ai_game``) serves them all.
    """

    messages: list[str] = field(default_factory=list)
    close: bool = False
    reason: str = ""  # why the connection closes, for the log


class AIGameSession(Protocol):
    """A server-side conversation about one game against the server's AI, minus the sockets.

    Every such protocol (I32CFSP, CFSP, C4N) has one; the server's game loop feeds
    it the client's messages and the driver's moves and sends what it answers.
    The client plays RED.
    """

    #: Columns, rows and rules, once the greeting has settled them (None before).
    game: tuple[int, int, Rules] | None
    #: The name the client gave ("" in protocols without names).
    username: str
    #: The colour the client plays (RED, who moves first, unless the AI is to drop first).
    client: Player

    def receive(self, message: str) -> Reply:
        """Answer one message of the greeting (before ``game`` is set)."""

    def read_move(self, message: str) -> Move | Reply:
        """The client's move (legal or not: the driver judges), or what to answer instead."""

    def refused(self) -> Reply:
        """What to answer a well-formed move that the rules refuse."""

    def client_moved(self, after: GameState) -> Reply:
        """What to answer once the client's move is played."""

    def ai_moved(self, move: Move, after: GameState) -> Reply:
        """What to tell the client about the AI's move."""

    def ai_failed(self, state: GameState, why: str) -> Reply:
        """The AI (an outside program) failed in ``state``: the client wins, and a close.

        Each protocol says the client won as far as its words allow.
        """

    def cannot_serve(self, why: str) -> Reply:
        """The game asked for cannot be served (the AI is busy, or cannot play it): a close."""
