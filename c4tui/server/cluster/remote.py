"""The leading node's side: clients of other nodes, served by the same code as its own.

Each client another node forwards gets a ``RemoteStream``: the lines its node
publishes wait in the stream's inbox, and what the lobby sends it is published to
its node. ``serve_rooms`` cannot tell it from a socket, so logins, rooms, idleness
and the newest-login rule are the same wherever a client connected. A node that
falls silent takes its clients with it: they leave their rooms as a dropped
connection does (away for the grace period, §5.1) and come back through any node.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from c4tui.net.errors import ConnectionClosed, ProtocolError
from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import Abort, Alive, Close, Gone, Line, Opened, Send
from c4tui.server.context import Client
from c4tui.server.lobby import RoomStream

log = logging.getLogger("c4tui.server")

#: Lines of one client that may wait to be served before it counts as flooding.
INBOX_LIMIT = 256

#: Serves one client to its end; why it ended (``serve_rooms`` bound to the lobby).
RoomServer = Callable[[RoomStream, Client], Awaitable[str]]


class RemoteStream:
    """A ``RoomStream`` for a client connected to another node."""

    def __init__(self, bus: Bus, node: str, session: int) -> None:
        self.node = node
        self.session = session
        self._bus = bus
        self._channel = bus.node_channel(node)
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._ended = False
        self._aborting: asyncio.Task[None] | None = None

    def heard(self, text: str) -> None:
        """The client sent ``text``; a client far ahead of being served is cut off."""
        if self._ended:
            return
        if self._inbox.qsize() >= INBOX_LIMIT:
            log.info("%s/%d cut off: %d lines waiting", self.node, self.session, INBOX_LIMIT)
            self.abort()
            return
        self._inbox.put_nowait(text)

    def hung_up(self) -> None:
        """The client's connection ended (its node says so, or went silent)."""
        self._ended = True
        self._inbox.put_nowait(None)

    async def read(self, timeout: float | None = None) -> str:
        """The client's next line. Raises TimeoutError, or ConnectionClosed once it is gone."""
        async with asyncio.timeout(timeout):
            line = await self._inbox.get()
        if line is None:
            self._inbox.put_nowait(None)  # every later read ends too
            raise ConnectionClosed(f"the client on node {self.node} has gone")
        return line

    async def send_paced(self, message: str) -> None:
        """Publish ``message`` to the client's node. Raises ConnectionClosed once it is gone."""
        if self._ended:
            raise ConnectionClosed(f"the client on node {self.node} has gone")
        await self._bus.publish(self._channel, Send(self.session, message))

    def abort(self) -> None:
        """Cut the client off: its node drops the connection."""
        if not self._ended:
            self.hung_up()
            self._aborting = asyncio.create_task(self._bus.tell(self._channel, Abort(self.session)))

    async def close(self) -> None:
        """The client's node closes the connection once what was sent has gone."""
        self._ended = True
        await self._bus.tell(self._channel, Close(self.session))


class RemoteClients:
    """The other nodes' clients, while this node leads: one task each, and their nodes' pulse.

    Args:
        bus: where their lines come from and answers go.
        serve: serves one client (the lobby's ``serve_rooms``).
        numbers: the numbers the log gives connections (shared with this node's own).
        idle_timeout: seconds a client may stay silent (the server's setting).
    """

    def __init__(
        self, bus: Bus, serve: RoomServer, numbers: Iterator[int], idle_timeout: float
    ) -> None:
        self._bus = bus
        self._serve = serve
        self._numbers = numbers
        self._idle_timeout = idle_timeout
        self._streams: dict[tuple[str, int], RemoteStream] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[str, float] = {}  # node -> when it last said anything

    def __len__(self) -> int:
        return len(self._streams)

    def heard(self, message: Opened | Line | Gone | Alive) -> None:
        """One message from another node (never waits)."""
        self._seen[message.node] = time.monotonic()
        if isinstance(message, Opened):
            self._open(message.node, message.session, message.address)
            return
        if isinstance(message, Alive):
            return
        stream = self._streams.get((message.node, message.session))
        if stream is None:
            if isinstance(message, Line):  # ended here while the bus was away: cut it off
                self._orphan(message.node, message.session)
            return
        if isinstance(message, Line):
            stream.heard(message.text)
        else:
            stream.hung_up()

    def _orphan(self, node: str, session: int) -> None:
        """Tell ``node`` to cut off a client this node no longer serves (it comes back)."""
        task = asyncio.create_task(self._bus.tell(self._bus.node_channel(node), Abort(session)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _open(self, node: str, session: int, address: str) -> None:
        stream = RemoteStream(self._bus, node, session)
        self._streams[node, session] = stream
        task = asyncio.create_task(self._serve_one(stream, address))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve_one(self, stream: RemoteStream, address: str) -> None:
        """Serve one client (from ``address``) to its end, then have its node close it; log it."""
        number = next(self._numbers)
        log.info("#%d opened on node %s from %s", number, stream.node, address or "?")
        reason = "closed"
        try:
            reason = await self._serve(stream, Client(number, self._idle_timeout, address=address))
        except (ConnectionError, ProtocolError) as error:
            reason = f"ended: {error}"
        except TimeoutError:
            reason = f"idle for {self._idle_timeout:g} s"
        except Exception:  # a bug must cost one client, never the lobby
            log.exception("#%d failed", number)
            reason = "internal error"
        finally:
            await stream.close()
            self._streams.pop((stream.node, stream.session), None)
            log.info("#%d closed (%s)", number, reason)

    def drop_silent(self, silence: float) -> None:
        """Cut off the clients of every node silent for ``silence`` seconds (it died)."""
        now = time.monotonic()
        for node, seen in list(self._seen.items()):
            if now - seen > silence:
                del self._seen[node]
                self.drop(node, f"node {node} silent for {silence:g} s")

    def drop(self, node: str | None, why: str) -> None:
        """Cut off ``node``'s clients (None: every node's)."""
        gone = [s for s in self._streams.values() if node is None or s.node == node]
        if gone:
            log.warning("%s: its %d client(s) are away now", why, len(gone))
        for stream in gone:
            stream.hung_up()

    async def stop(self) -> None:
        """End every client's task (the server is stopping)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
