"""What every protocol handler gets for each client: the client itself, and nothing else.

The services a handler uses (the AI, the rooms) are bound to it when the server
registers its protocols (``c4tui.server.protocols``), so a handler holds exactly
what it needs and none of what the others do.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass

from c4tui.net.framing import MessageStream


@dataclass(frozen=True)
class Client:
    """One connection as its handler sees it.

    Attributes:
        number: the connection's number in the log.
        idle_timeout: seconds the client may stay silent when it is its turn.
    """

    number: int
    idle_timeout: float


#: Serves one client to the end of its conversation; returns why it ended (for the log).
Handler = Callable[[MessageStream, Client], Coroutine[object, object, str]]
