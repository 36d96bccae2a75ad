"""The lobby's TLS port: a door that accepts sockets itself, so that handshakes count.

asyncio's own TLS server handshakes before the server sees a connection: a client
that never finished its handshake would hold a socket outside every limit. Here each
accepted socket is an ``Arrival`` that the server counts like any other connection
(its limits, its refusals) before the handshake, which has a time limit of its own.
A client that speaks plain text to this port is told so in the lobby's words
(``BYE:tls``) instead of a handshake failure it could not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import Callable, Coroutine
from typing import Protocol

from c4tui.net.address import tls_port_beside
from c4tui.net.connection import Connection
from c4tui.net.keepalive import enable_keepalive
from c4tui.net.tls import TLS_HANDSHAKE_RECORD, TlsSetupError
from c4tui.net.wire import MAX_LINE_BYTES
from c4tui.protocols import lobby
from c4tui.protocols.presence import ByeReason, bye
from c4tui.protocols.registry import Recognition, identify

#: Bytes looked at (not consumed) to tell a TLS client from one speaking plain text.
PEEK_BYTES = 64
#: Connections waiting to be accepted, per listening socket (as on the plain port).
BACKLOG = 4096
#: What a plain-text client on the TLS port is told: the lobby's, or a generic refusal.
PLAIN_TO_LOBBY = lobby.SPEC.frame(bye(ByeReason.TLS))
PLAIN_TO_OTHERS = b"ERROR\r\n"


class Unopened(Exception):
    """An arrival whose connection could not be opened (no TLS, a failed handshake): why."""


class Arrival(Protocol):
    """A client just accepted, counted by the server before its connection is open."""

    #: Whether it came to the TLS port (its log lines say so).
    tls: bool

    @property
    def peer(self) -> str:
        """``host:port`` of the client, for logs."""

    @property
    def peer_host(self) -> str:
        """The client's address (what the per-address limit counts)."""

    async def opened(self, within: float) -> Connection:
        """The connection, ready for the protocol's first bytes.

        Raises Unopened (why) if it cannot be opened within ``within`` seconds.
        """

    def abort(self) -> None:
        """Drop the client at once."""

    async def close(self) -> None:
        """Close whatever is open, politely if everything was sent."""


class PlainArrival:
    """A plain TCP client: its connection is open from the start."""

    tls = False

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    @property
    def peer(self) -> str:
        """``host:port`` of the client."""
        return self.connection.peer

    @property
    def peer_host(self) -> str:
        """The client's address."""
        return self.connection.peer_host

    async def opened(self, within: float) -> Connection:
        """The connection, at once."""
        return self.connection

    def abort(self) -> None:
        """Drop it."""
        self.connection.abort()

    async def close(self) -> None:
        """Close it."""
        await self.connection.close()


class TlsArrival:
    """A client of the TLS port: a bare socket until its handshake is done."""

    tls = True

    def __init__(self, sock: socket.socket, context: ssl.SSLContext, write_timeout: float) -> None:
        self.sock = sock
        self.context = context
        self.write_timeout = write_timeout
        self.connection: Connection | None = None
        address = sock.getpeername()
        self.peer_host = str(address[0])
        self.peer = f"{address[0]}:{address[1]}"

    async def opened(self, within: float) -> Connection:
        """Handshake within ``within`` seconds; a plain-text client is told to use TLS.

        Raises Unopened when the client speaks no TLS, fails the handshake or is too slow.
        """
        try:
            async with asyncio.timeout(within):
                first = await _peek(self.sock)
                if first and first[0] != TLS_HANDSHAKE_RECORD:
                    _tell_plain_client(self.sock, first)
                    raise Unopened("plain text on the TLS port (told BYE:tls)")
                if not first:
                    raise Unopened("client hung up before its TLS handshake")
                self.connection = await _handshake(self.sock, self.context, self.write_timeout)
        except TimeoutError:
            raise Unopened(f"no TLS handshake within {within:g} s") from None
        except ConnectionError:
            raise Unopened(
                "the client broke off its TLS handshake (a certificate it does not trust?)"
            ) from None
        except (ssl.SSLError, OSError) as error:
            raise Unopened(f"TLS handshake failed: {error}") from None
        return self.connection

    def abort(self) -> None:
        """Drop the client (and its socket, if the handshake never began)."""
        if self.connection is not None:
            self.connection.abort()
        else:
            self.sock.close()

    async def close(self) -> None:
        """Close the connection, or the bare socket."""
        if self.connection is not None:
            await self.connection.close()
        else:
            self.sock.close()


async def _peek(sock: socket.socket) -> bytes:
    """The client's first bytes, left unread for the handshake (b"": it hung up)."""
    loop = asyncio.get_running_loop()
    readable = loop.create_future()

    def wake() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(sock.fileno(), wake)
    try:
        await readable
    finally:
        loop.remove_reader(sock.fileno())
    return sock.recv(PEEK_BYTES, socket.MSG_PEEK)


def _tell_plain_client(sock: socket.socket, first: bytes) -> None:
    """One line (without waiting) to a client that spoke plain text to the TLS port.

    What it sent is read first and our side shut for writing: a socket closed with
    unread bytes resets the connection, and the client would lose the line.
    """
    verdict = identify([lobby.SPEC], first)
    refusal = PLAIN_TO_OTHERS if verdict is Recognition.NO else PLAIN_TO_LOBBY
    with contextlib.suppress(OSError):
        sock.recv(MAX_LINE_BYTES)
        sock.send(refusal)
        sock.shutdown(socket.SHUT_WR)


async def _handshake(
    sock: socket.socket, context: ssl.SSLContext, write_timeout: float
) -> Connection:
    """The TLS connection on ``sock``, once its handshake is done (the caller's time limit)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock, ssl=context)
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    return Connection(reader, writer, write_timeout)


Welcome = Callable[[Arrival], Coroutine[object, object, None]]


class TlsDoor:
    """Listens on the TLS port; each accepted socket goes to ``welcome`` as a TlsArrival."""

    def __init__(self, context: ssl.SSLContext, welcome: Welcome, write_timeout: float) -> None:
        self.context = context
        self.welcome = welcome
        self.write_timeout = write_timeout
        self._listeners: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._arrivals: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        port: int = self._listeners[0].getsockname()[1]
        return port

    async def open(self, host: str, port: int) -> None:
        """Listen on every address ``host`` names. Raises OSError (the port is taken…)."""
        loop = asyncio.get_running_loop()
        found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        for family, _, _, _, address in dict.fromkeys(found):
            listener = socket.create_server((address[0], port), family=family, backlog=BACKLOG)
            listener.setblocking(False)
            self._listeners.append(listener)
            port = port or listener.getsockname()[1]  # port 0: the same free port for all
        self._accepting = [asyncio.create_task(self._accept(s)) for s in self._listeners]

    async def open_beside(self, host: str, port: int | None, lobby_port: int) -> None:
        """Listen on ``port``, or (None) on the lobby's port + 1 (any free one beside port 0).

        Raises TlsSetupError, in words, when that port cannot be listened on.
        """
        if port is None:
            port = tls_port_beside(lobby_port) if lobby_port else 0
        try:
            await self.open(host, port)
        except OSError as error:
            raise TlsSetupError(
                f"cannot listen on {host}:{port} for TLS: {error.strerror}"
            ) from None

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, _ = await loop.sock_accept(listener)
            except OSError:  # out of descriptors, or a client gone before accept
                await asyncio.sleep(0.1)
                continue
            sock.setblocking(False)
            enable_keepalive(sock)
            try:
                arrival = TlsArrival(sock, self.context, self.write_timeout)
            except OSError:  # gone already (getpeername)
                sock.close()
                continue
            task = asyncio.create_task(self.welcome(arrival))
            self._arrivals.add(task)
            task.add_done_callback(self._arrivals.discard)

    async def close(self) -> None:
        """Stop accepting (the connections accepted are the server's to end)."""
        for task in self._accepting:
            task.cancel()
        await asyncio.gather(*self._accepting, return_exceptions=True)
        for listener in self._listeners:
            listener.close()
