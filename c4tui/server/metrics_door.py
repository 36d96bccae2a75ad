"""``c4tui serve --metrics-port``: the server's series for Prometheus, and nothing else.

``GET /metrics`` is answered in Prometheus's text format (version 0.0.4, which every
Prometheus reads); any other path is 404, anything that is not a request 400. It is
served on the server's own event loop, not in threads (as prometheus_client's own
server does, one per connection), so that whatever reaches this port — a scraper,
a port scanner, a flood of garbage — costs the lobby a bounded share and can never
stop it: at most ``MAX_SCRAPERS`` connections at once (the others are closed at
once), a request must come whole within ``REQUEST_SECONDS`` and ``REQUEST_BYTES``,
and each connection gets one answer and is closed.
"""

from __future__ import annotations

import asyncio
import logging

from prometheus_client import generate_latest

from c4tui.server.metrics import Metrics

log = logging.getLogger("c4tui.server")

#: Connections to the metrics port served at once; more are closed without a word.
MAX_SCRAPERS = 16
#: A request's line and headers: at most this many bytes, within this many seconds.
REQUEST_BYTES = 8192
REQUEST_SECONDS = 5.0
#: Prometheus's text format, the version every Prometheus reads.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
END_OF_HEAD = b"\r\n\r\n"


class MetricsSetupError(Exception):
    """The metrics port cannot be listened on (in words, for the log)."""


class MetricsDoor:
    """Serves one server's ``Metrics`` over HTTP while open."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._server: asyncio.Server | None = None
        self._answering: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int | None:
        """The port actually listened on (None: metrics not served)."""
        if self._server is None:
            return None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def open(self, host: str, port: int | None) -> None:
        """Listen on ``host``:``port`` (None: do nothing; 0: any free port).

        Raises MetricsSetupError when the port cannot be listened on.
        """
        if port is None:
            return
        try:
            self._server = await asyncio.start_server(self._answer, host, port, limit=REQUEST_BYTES)
        except OSError as error:
            raise MetricsSetupError(
                f"cannot serve the metrics on {host}:{port}: {error.strerror or error}"
            ) from None
        log.info("metrics for Prometheus at http://%s:%d/metrics", host, self.port)

    async def close(self) -> None:
        """Stop listening and cut off whoever is still connected."""
        if self._server is None:
            return
        self._server.close()
        for task in list(self._answering):
            task.cancel()
        await asyncio.gather(*self._answering, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One request, one answer, then the end; over the limits, the end at once."""
        task = asyncio.current_task()
        if len(self._answering) >= MAX_SCRAPERS or task is None:
            writer.transport.abort()
            return
        self._answering.add(task)
        answered = False
        try:
            async with asyncio.timeout(REQUEST_SECONDS):
                head = await reader.readuntil(END_OF_HEAD)
                writer.write(self._response(head))
                writer.close()  # once the answer has gone
                await writer.wait_closed()
                answered = True
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # gone, silent, or no request of ours: nothing more to say
        except asyncio.CancelledError:
            pass  # the door closes (ended here: 3.11's stream callback would log it as an error)
        finally:
            self._answering.discard(task)
            if not answered:
                writer.transport.abort()

    def _response(self, head: bytes) -> bytes:
        """The whole answer to a request whose line and headers are ``head``."""
        words = head.split(b"\r\n", 1)[0].split(b" ")
        if len(words) != 3 or not words[2].startswith(b"HTTP/"):
            return _http(400, "Bad Request", b"not an HTTP request\n")
        method, target = words[0], words[1].split(b"?", 1)[0]
        if target != b"/metrics":
            return _http(404, "Not Found", b"the metrics are at /metrics\n")
        if method not in (b"GET", b"HEAD"):
            return _http(405, "Method Not Allowed", b"GET /metrics\n")
        body = generate_latest(self._metrics.registry)
        return _http(200, "OK", body, CONTENT_TYPE, with_body=method == b"GET")


def _http(
    status: int,
    reason: str,
    body: bytes,
    content_type: str = "text/plain; charset=utf-8",
    *,
    with_body: bool = True,
) -> bytes:
    """An HTTP/1.1 response that closes the connection."""
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode("ascii") + (body if with_body else b"")
