"""Messages on a connection, cut the way the protocol says (lines, or unterminated writes)."""

from __future__ import annotations

import asyncio
import time

from c4tui.net.connection import Connection
from c4tui.net.errors import ProtocolError
from c4tui.net.wire import MAX_LINE_BYTES, UNFINISHED_WAIT, UNTERMINATED_GAP, Framed, Framing, quote


class MessageStream:
    """One protocol's messages over a connection: ``read`` one, ``send`` one (in its own write).

    Without a terminator, what arrives may hold several messages (a peer that
    writes twice quickly) or part of one (a packet split on the way): the
    protocol's ``split`` says which, and the rest waits here for the next read.
    """

    def __init__(self, connection: Connection, spec: Framed) -> None:
        self.connection = connection
        self.spec = spec
        self._messages: list[str] = []  # the next one last (a deque would cost 600 bytes)
        self._unfinished = ""
        self._sent_at = 0.0  # when send_paced last sent

    async def read(self, timeout: float | None = None) -> str:
        """The next message (a line without its end, or one unterminated message).

        Raises ConnectionClosed, TimeoutError, or ProtocolError (an over-long
        message, or the peer hanging up in the middle of one). Half a message that
        stays unfinished for ``UNFINISHED_WAIT`` seconds is returned as it is.
        """
        if self.spec.framing is Framing.LINES:
            return await self.connection.read_line(timeout, self.spec.encoding)
        while not self._messages:
            try:
                # One byte over the limit: a message longer than the limit shows itself.
                chunk = await self.connection.read_chunk(
                    MAX_LINE_BYTES + 1, timeout=self._wait(timeout), encoding=self.spec.encoding
                )
            except TimeoutError:
                if not self._unfinished:
                    raise
                self._messages.append(self._unfinished)  # no more is coming: judge it
                self._unfinished = ""
                continue
            except ConnectionError:
                if self._unfinished:
                    raise ProtocolError(
                        f"the connection ended inside a message: {quote(self._unfinished)}"
                    ) from None
                raise
            messages, self._unfinished = self.spec.split(self._unfinished + chunk)
            if max(map(len, messages), default=0) > MAX_LINE_BYTES or (
                len(self._unfinished) > MAX_LINE_BYTES
            ):  # whole or not, too long is a violation
                raise ProtocolError(f"a message longer than {MAX_LINE_BYTES} bytes")
            self._messages = messages[::-1]  # only ever refilled once empty
        return self._messages.pop()

    def _wait(self, timeout: float | None) -> float | None:
        """How long to wait for the next bytes: briefly when a message is half there."""
        if not self._unfinished:
            return timeout
        return UNFINISHED_WAIT if timeout is None else min(timeout, UNFINISHED_WAIT)

    async def send(self, message: str) -> None:
        """Send one message, framed, in its own write (within the write time limit)."""
        await self.connection.send_raw(self.spec.frame(message))

    async def send_paced(self, message: str) -> None:
        """``send``, spaced out from the last paced message when there is no terminator.

        At least ``UNTERMINATED_GAP`` apart, a peer that reads one message per
        ``recv`` gets them apart.
        """
        if self.spec.framing is Framing.UNTERMINATED:
            wait = self._sent_at + UNTERMINATED_GAP - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        await self.send(message)
        self._sent_at = time.monotonic()

    async def send_all(self, messages: list[str]) -> None:
        """Send each message in its own write; without a terminator, a moment apart."""
        gap = self.spec.framing is Framing.UNTERMINATED
        for index, message in enumerate(messages):
            if index and gap:
                await asyncio.sleep(UNTERMINATED_GAP)
            if not self.connection.write(self.spec.frame(message)):
                await self.connection.drain()  # within the write time limit

    def abort(self) -> None:
        """Cut the connection off at once (what is queued is not sent)."""
        self.connection.abort()

    async def close(self) -> None:
        """Close the connection once what was sent has gone."""
        await self.connection.close()
