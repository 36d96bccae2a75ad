"""One TCP connection with the limits every protocol shares: framing, peeking, time limits.

Reads go through our own buffer instead of the StreamReader's helpers, so the
server can look at a client's first bytes without consuming them (to choose the
protocol), read lines or unterminated messages from the same bytes afterwards,
and notice a hang-up while it is busy elsewhere (an AI thinking) without losing
anything the client sent in the meantime. Every write has a time limit: a peer
that stops reading is cut off instead of holding its slot forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl

from c4tui.net.address import known_addresses
from c4tui.net.errors import ConnectionClosed, NetworkError, ProtocolError, WriteTimeout
from c4tui.net.tls import ClientTls, handshake_failure
from c4tui.net.wire import MAX_LINE_BYTES, quote

# Time limits use ``asyncio.timeout`` (or ReadDeadline, which works the same way): Python
# 3.11's ``wait_for`` can swallow a cancellation that arrives as its work finishes, and
# then Ctrl-C waits for a timeout.

#: How much one read asks the kernel for.
READ_CHUNK = 65536
#: Seconds a write may wait for the peer to read before the connection is dropped.
DEFAULT_WRITE_TIMEOUT = 30.0


class ReadDeadline:
    """Time limits for one connection's reads, with one timer for many reads.

    ``asyncio.timeout`` sets and cancels a timer for every read, and a busy server
    reads thousands of lines a second, nearly all long before their limit. This keeps
    one timer per connection instead: set for the first deadline, and when it fires
    while a later read (with a later deadline) waits, set again for what is left. A
    read still waiting at its deadline is cancelled and raises TimeoutError, as under
    ``asyncio.timeout``. One read at a time; ``cancel`` when the connection closes.

    The timer's time is kept here, not asked of the timer: for a time already past,
    uvloop's ``call_at`` returns a plain ``Handle``, which has no ``when``.
    """

    __slots__ = ("_cancelling", "_deadline", "_expired", "_task", "_timer", "_timer_at")

    def __init__(self) -> None:
        self._deadline = 0.0
        self._expired = False
        self._task: asyncio.Task[object] | None = None
        self._cancelling = 0
        self._timer: asyncio.Handle | None = None
        self._timer_at = 0.0  # when the timer fires (loop time)

    def begin(self, deadline: float) -> None:
        """The current task is to wait for a read that must end by ``deadline`` (loop time)."""
        task = asyncio.current_task()
        assert task is not None
        self._deadline, self._task, self._cancelling = deadline, task, task.cancelling()
        timer = self._timer
        if timer is None or self._timer_at > deadline:
            if timer is not None:
                timer.cancel()
            self._set_timer(task, deadline)

    def end(self, error: BaseException | None = None) -> None:
        """The read is over (``error``: what it raised). Raises TimeoutError if it was cut off."""
        task, self._task = self._task, None
        if self._expired and task is not None:
            self._expired = False
            if task.uncancel() <= self._cancelling and isinstance(error, asyncio.CancelledError):
                raise TimeoutError from error

    def cancel(self) -> None:
        """Stop the timer (the connection is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _set_timer(self, task: asyncio.Task[object], when: float) -> None:
        self._timer, self._timer_at = task.get_loop().call_at(when, self._fire), when

    def _fire(self) -> None:
        timer, self._timer = self._timer, None
        if self._task is None or timer is None:
            return  # nobody waits: the next read sets a timer again
        if self._deadline <= self._timer_at:
            self._expired = True
            self._task.cancel()
        else:
            self._set_timer(self._task, self._deadline)


class Connection:
    """A peer's bytes in, our messages out; text (ASCII unless told), one write per message.

    Args:
        reader: the stream's reading half.
        writer: the stream's writing half.
        write_timeout: seconds a write may wait for the peer before the connection
            is aborted (raising WriteTimeout).
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.write_timeout = write_timeout
        self._buffer = bytearray()
        self._eof = False
        self._deadline = ReadDeadline()

    @property
    def peer(self) -> str:
        """``host:port`` of the other end, for logs."""
        address = self.writer.get_extra_info("peername")
        if isinstance(address, tuple) and len(address) >= 2:
            return f"{address[0]}:{address[1]}"
        return "unknown peer"

    @property
    def peer_host(self) -> str:
        """The other end's address without the port ("" when unknown)."""
        address = self.writer.get_extra_info("peername")
        return str(address[0]) if isinstance(address, tuple) and address else ""

    # ----- reading -------------------------------------------------------------------

    async def _read_or_reset(self) -> bytes:
        """The next bytes; none once the peer hung up, even abruptly.

        A reset is a hang-up: a peer that closes with our bytes unread resets the
        connection, and it broke no protocol.
        """
        try:
            return await self.reader.read(READ_CHUNK)
        except ConnectionResetError:
            return b""

    async def _fill(self, deadline: float | None = None) -> bool:
        """Read what the peer sent next into the buffer; False at end of stream.

        Raises TimeoutError if nothing came by ``deadline`` (loop time; None: no limit).
        """
        if self._eof:
            return False
        if deadline is None:
            data = await self._read_or_reset()
        else:
            self._deadline.begin(deadline)
            try:
                data = await self._read_or_reset()
            except BaseException as error:
                self._deadline.end(error)
                raise
            self._deadline.end()
        if not data:
            self._eof = True
            return False
        self._buffer += data
        return True

    async def peek(self, size: int, timeout: float | None = None) -> bytes:
        """The first bytes the peer sent, without consuming them.

        Returns as soon as anything new has arrived (up to ``size`` bytes), so the
        caller can decide whether it has seen enough; b"" at end of stream with
        nothing buffered. Raises TimeoutError after ``timeout`` seconds of silence.
        """
        return await self.peek_more(1, timeout, size)

    async def peek_more(self, wanted: int, timeout: float | None = None, size: int = 0) -> bytes:
        """Like ``peek``, but wait (once) for more while fewer than ``wanted`` bytes are buffered.

        Returns up to ``size`` bytes (``wanted`` when 0).
        """
        if len(self._buffer) < wanted:
            await self._fill(_deadline(timeout))
        return bytes(self._buffer[: size or wanted])

    @property
    def at_eof(self) -> bool:
        """True once the peer has closed its side and nothing is left in the buffer."""
        return self._eof and not self._buffer

    async def read_line(self, timeout: float | None = None, encoding: str = "ascii") -> str:
        """The next line without its end (CRLF or LF), decoded as ``encoding``.

        Raises ConnectionClosed at end of stream, TimeoutError after ``timeout``
        seconds of silence, and ProtocolError for a line over ``MAX_LINE_BYTES`` bytes
        or one that is not ``encoding`` (ASCII; UTF-8 for the lobby's lines).
        """
        if (end := self._buffer.find(b"\n")) < 0:
            deadline = _deadline(timeout)
            while (end := self._buffer.find(b"\n")) < 0:
                if len(self._buffer) > MAX_LINE_BYTES + 1:
                    raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes")
                if not await self._fill(deadline):
                    self._raise_at_eof()
        raw = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        body = raw[:-1] if raw.endswith(b"\r") else raw
        if len(body) > MAX_LINE_BYTES:
            raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes")
        return decode_text(body, encoding)

    async def read_chunk(
        self, limit: int = MAX_LINE_BYTES, timeout: float | None = None, encoding: str = "ascii"
    ) -> str:
        """Whatever the peer sent next, as text (for protocols whose messages have no end).

        Raises ConnectionClosed, TimeoutError or ProtocolError like ``read_line``.
        """
        if not self._buffer and not await self._fill(_deadline(timeout)):
            raise ConnectionClosed("the peer hung up")
        raw = bytes(self._buffer[:limit])
        del self._buffer[:limit]
        return decode_text(raw, encoding)

    async def wait_for_hangup(self, limit: int = MAX_LINE_BYTES) -> None:
        """Return when the peer hangs up; keep what it sends meanwhile for later reads.

        Run beside slow work (an AI move) so a client that leaves cancels it.
        Raises ProtocolError if the peer sends more than ``limit`` bytes meanwhile.
        """
        while await self._fill():
            if len(self._buffer) > limit:
                raise ProtocolError(f"more than {limit} bytes sent while it was not its turn")

    def _raise_at_eof(self) -> None:
        if self._buffer:
            raise ProtocolError(f"the connection ended inside a line: {quote(bytes(self._buffer))}")
        raise ConnectionClosed("the peer hung up")

    # ----- writing -------------------------------------------------------------------

    async def send_line(self, line: str, end: str = "\r\n") -> None:
        """Write one line in its own write and wait (within the time limit) until it is sent."""
        await self.send_raw((line + end).encode("ascii"))

    async def send_raw(self, data: bytes) -> None:
        """Write ``data`` in one write; abort the connection if the peer will not take it in time.

        Raises WriteTimeout (the connection is then gone) or an OSError.
        """
        if not self.write(data):
            await self.drain()

    def write(self, data: bytes) -> bool:
        """Write ``data`` in one write; True if the kernel took all of it (nothing to wait for).

        Otherwise ``drain`` must follow (before the next write), to wait within the time
        limit. Raises ConnectionClosed if the connection is already closed.
        """
        transport = self.writer.transport
        if transport.is_closing():
            raise ConnectionClosed("the connection is closed")
        transport.write(data)
        return not transport.get_write_buffer_size() and not transport.is_closing()

    async def drain(self) -> None:
        """Wait until the peer takes what is buffered; abort if it will not in time.

        Raises WriteTimeout (the connection is then gone) or an OSError.
        """
        try:
            async with asyncio.timeout(self.write_timeout):
                await self.writer.drain()
        except TimeoutError:
            self.abort()
            raise WriteTimeout(
                f"the peer read nothing for {self.write_timeout:g} s while we were writing"
            ) from None

    # ----- closing -------------------------------------------------------------------

    def abort(self) -> None:
        """Drop the connection at once, discarding anything not yet sent."""
        self._deadline.cancel()
        transport = self.writer.transport
        if not transport.is_closing() or transport.get_write_buffer_size():
            transport.abort()

    async def close(self) -> None:
        """Close politely if everything was sent, else abort; never waits long."""
        self._deadline.cancel()
        if self.writer.transport.get_write_buffer_size():
            self.abort()
            return
        if self.writer.is_closing():
            return
        self.writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2):
                await self.writer.wait_closed()


def _deadline(timeout: float | None) -> float | None:
    """When a wait of ``timeout`` seconds from now ends, in loop time (None: never)."""
    return None if timeout is None else asyncio.get_running_loop().time() + timeout


def decode_text(raw: bytes, encoding: str = "ascii") -> str:
    """``raw`` as text; ProtocolError (quoting it) unless it is all ``encoding``."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        raise ProtocolError(f"text that is not {encoding.upper()}: {quote(raw)}") from None


async def open_connection(
    host: str,
    port: int,
    timeout: float,
    write_timeout: float = DEFAULT_WRITE_TIMEOUT,
    tls: ClientTls | None = None,
) -> Connection:
    """Connect to ``host:port``, over TLS when ``tls`` says so (certificates verified).

    ``host`` may name several nodes of one lobby (``a,b:4445``): each is tried in turn,
    and the last one's failure is raised. Raises TimeoutError after ``timeout`` seconds
    (each), an OSError when nobody answers, and
    NetworkError (in words) when TLS fails: the certificate, no TLS on that port, or
    a CA file that cannot be read (TlsSetupError).
    """
    context = tls.context() if tls is not None else None  # TlsSetupError: a bad CA file
    *others, (last_host, last_port) = known_addresses(host, port)  # a lobby's nodes in turn
    for other_host, other_port in others:
        try:
            return await _connect(other_host, other_port, timeout, write_timeout, context)
        except (OSError, TimeoutError, NetworkError):
            continue
    return await _connect(last_host, last_port, timeout, write_timeout, context)


async def _connect(
    host: str, port: int, timeout: float, write_timeout: float, context: ssl.SSLContext | None
) -> Connection:
    """One address of ``open_connection``'s, with its errors."""
    try:
        async with asyncio.timeout(timeout):  # unlike 3.11's wait_for, never loses a cancel
            reader, writer = await asyncio.open_connection(
                host, port, ssl=context, ssl_handshake_timeout=timeout if context else None
            )
    except (ssl.SSLError, ConnectionResetError, ConnectionAbortedError) as error:
        if context is None:
            raise
        raise NetworkError(handshake_failure(error, host, port)) from None
    return Connection(reader, writer, write_timeout)
