"""What a protocol handler gets from the server besides the client's messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from c4tui.ai import ai_level
from c4tui.match import Backend, ComputerBackend
from c4tui.match.pool import SearchPool

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyService


@dataclass(frozen=True)
class ClientContext:
    """One client's share of the server: its number, the AI and the limits.

    Attributes:
        number: the connection's number in the log.
        ai: the level the server plays.
        pool: where the AI's searches run (shared fairly by every client).
        idle_timeout: seconds a client may stay silent when it is its turn.
        ai_first: the AI drops first where the protocol allows it (C4N).
        lobby: the rooms and accounts every lobby connection shares.
        tictactoe: the tic-tac-toe port's rooms (the accounts are the lobby's).
    """

    number: int
    ai: str
    pool: SearchPool
    idle_timeout: float
    ai_first: bool = False
    lobby: LobbyService | None = None
    tictactoe: LobbyService | None = None

    def computer(self) -> Backend:
        """The server's AI for this client's game (its searches queued as this client's)."""
        return ComputerBackend(ai_level(self.ai), pool=self.pool, owner=self.number)
