"""Messages on a connection, cut the way the protocol says (lines, or unterminated writes)."""

from __future__ import annotations

from c4tui.net.connection import Connection
from c4tui.protocols.registry import Framing, ProtocolSpec


class MessageStream:
    """One protocol's messages over a connection: ``read`` one, ``send`` one (in its own write)."""

    def __init__(self, connection: Connection, spec: ProtocolSpec) -> None:
        self.connection = connection
        self.spec = spec

    async def read(self, timeout: float | None = None) -> str:
        """The next message (a line without its end, or what one write carried)."""
        if self.spec.framing is Framing.LINES:
            return await self.connection.read_line(timeout)
        return await self.connection.read_chunk(timeout=timeout)

    async def send(self, message: str) -> None:
        """Send one message, framed, in its own write (within the write time limit)."""
        await self.connection.send_raw(self.spec.frame(message))
