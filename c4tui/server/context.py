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
        tls: whether it came over the TLS port (its log lines say so).
        address: the peer's IP address (through a cluster's bus, its node's client's),
            which §7's limit on registrations counts by ("": unknown, one address).
    """

    number: int
    idle_timeout: float
    tls: bool = False
    address: str = ""

    @property
    def name(self) -> str:
        """How the log names it: ``#5``, or ``#5 (TLS)``."""
        return connection_name(self.number, self.tls)


def connection_name(number: int, tls: bool) -> str:
    """A connection's name in every line the log says of it: ``#5``, or ``#5 (TLS)``."""
    return f"#{number} (TLS)" if tls else f"#{number}"


#: Serves one client to the end of its conversation; returns why it ended (for the log).
Handler = Callable[[MessageStream, Client], Coroutine[object, object, str]]
