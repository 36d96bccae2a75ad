"""A node's side while another node leads: its lobby clients' lines go over the bus.

The node reads each client's lines (framing and the line limit are its own, as for
any client) and publishes them to the leader; what the leader publishes back for the
client waits in a bounded queue its writer drains, so a client that stops reading
is cut off and never holds up the others. Idleness, logins and rooms are the
leader's business (``remote.py``).
"""

from __future__ import annotations

import asyncio
import contextlib

from c4tui.net.errors import ProtocolError
from c4tui.net.framing import MessageStream
from c4tui.protocols.presence import ByeReason, bye
from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import Abort, BusLost, Close, Gone, Line, Opened, Send
from c4tui.server.lobby import OUTBOX_LIMIT


class ForwardedClient:
    """One of this node's lobby clients, served by the leader through the bus."""

    def __init__(self, stream: MessageStream) -> None:
        self.stream = stream
        self.dropped = ""  # why this node cut it off, if it did
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)

    def heard(self, message: Send | Close | Abort) -> None:
        """What the leader says for this client (never waits)."""
        if isinstance(message, Abort):
            self.abort("the lobby cut it off")
            return
        try:
            self._queue.put_nowait(message.text if isinstance(message, Send) else None)
        except asyncio.QueueFull:
            self.abort(f"could not keep up ({OUTBOX_LIMIT} messages waiting)")

    def say_bye(self, reason: ByeReason) -> None:
        """BYE:<reason> after what is queued, then the end (the leader is gone: come back)."""
        if self.dropped:
            return
        self.dropped = f"BYE:{reason.value}"
        try:
            self._queue.put_nowait(bye(reason))
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            self.stream.abort()

    def abort(self, why: str) -> None:
        """Cut the connection off at once; its reader then ends."""
        self.dropped = self.dropped or why
        self.stream.abort()

    async def write_all(self) -> None:
        """Send what the leader said, in order; close after its last word."""
        while True:
            message = await self._queue.get()
            if message is None:
                await self.stream.close()
                return
            await self.stream.send_paced(message)


async def forward(
    client: ForwardedClient, bus: Bus, node: str, session: int, address: str = ""
) -> str:
    """Carry ``client``'s lines to the leader until it or the leader ends; why it ended.

    ``address``: where the client connected from (the leader's limits count by it).

    Raises ProtocolError for a line over the limit (the server's front door says so).
    """
    writer = asyncio.create_task(client.write_all())
    try:
        await bus.publish(bus.lobby_channel, Opened(node, session, address))
        while True:
            line = await client.stream.read()
            await bus.publish(bus.lobby_channel, Line(node, session, line))
    except BusLost as error:
        return f"the bus is lost: {error}"
    except ConnectionError:
        return f"dropped: {client.dropped}" if client.dropped else "client hung up"
    finally:
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, ProtocolError):
            await writer
        await bus.tell(bus.lobby_channel, Gone(node, session))
