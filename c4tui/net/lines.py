"""Reading and writing protocol lines on asyncio streams, with the limits every protocol has."""

from __future__ import annotations

import asyncio
import contextlib

from c4tui.protocols.common import MAX_LINE_BYTES, ProtocolError, quote

#: StreamReader buffer: a full line plus its CRLF.
STREAM_LIMIT = MAX_LINE_BYTES + 2


class ConnectionClosed(ConnectionError):
    """The peer hung up (end of stream)."""


class LineChannel:
    """One connection's lines: ASCII text, CRLF or LF ends, one write per line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @property
    def peer(self) -> str:
        """``host:port`` of the other end, for logs."""
        address = self.writer.get_extra_info("peername")
        if isinstance(address, tuple) and len(address) >= 2:
            return f"{address[0]}:{address[1]}"
        return "unknown peer"

    async def read_line(self, timeout: float | None = None) -> str:
        """The next line without its end.

        Raises ConnectionClosed at end of stream, TimeoutError after ``timeout``
        seconds of silence, and ProtocolError for an over-long or non-ASCII line.
        """
        try:
            raw = await asyncio.wait_for(self.reader.readuntil(b"\n"), timeout)
        except asyncio.IncompleteReadError as error:
            if error.partial:
                raise ProtocolError(
                    f"the connection ended inside a line: {quote(error.partial)}"
                ) from None
            raise ConnectionClosed("the peer hung up") from None
        except asyncio.LimitOverrunError:
            raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes") from None
        body = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        if len(body) > MAX_LINE_BYTES:
            raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes")
        try:
            return body.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError(f"a line that is not ASCII text: {quote(body)}") from None

    async def send(self, line: str) -> None:
        """Write one line (CRLF-terminated) in its own write, and wait until it is sent."""
        self.writer.write(line.encode("ascii") + b"\r\n")
        await self.writer.drain()

    async def close(self) -> None:
        """Close, ignoring a peer that is already gone."""
        if self.writer.is_closing():
            return
        self.writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(self.writer.wait_closed(), 2)


async def open_channel(host: str, port: int, timeout: float) -> LineChannel:
    """Connect to ``host:port`` (TimeoutError after ``timeout`` seconds)."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, limit=STREAM_LIMIT), timeout
    )
    return LineChannel(reader, writer)
