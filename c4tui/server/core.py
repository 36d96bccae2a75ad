"""The server: accept, pick the protocol from the first line, serve, log, and stop cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.match.settings import MovePicker, ai_level
from c4tui.net.lines import STREAM_LIMIT, ConnectionClosed, LineChannel
from c4tui.protocols.common import DEFAULT_IDLE_TIMEOUT, ProtocolError
from c4tui.server.i32cfsp import serve_i32cfsp, speaks_i32cfsp

log = logging.getLogger("c4tui.server")

#: The generic refusal for a client we cannot serve (no protocol of ours, or too many).
ERROR_LINE = "ERROR"


@dataclass(frozen=True)
class ServerConfig:
    """What ``c4tui serve`` was asked for."""

    host: str = "127.0.0.1"
    port: int = 4444
    ai: str = "random"
    max_connections: int = 1000
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT


class C4Server:
    """Serves every connection in its own task; one client's failure touches no other."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._make_ai: Callable[[], MovePicker] = lambda: ai_level(config.ai).make(None)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        self.peak_connections = 0

    @property
    def port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._server is not None
        return self._server.sockets[0].getsockname()[1]

    @property
    def connections(self) -> int:
        """How many clients are connected now."""
        return len(self._tasks)

    async def start(self) -> None:
        """Start listening."""
        self._server = await asyncio.start_server(
            self._accept, self.config.host, self.config.port, limit=STREAM_LIMIT, backlog=4096
        )
        log.info("listening on %s:%d (AI: %s)", self.config.host, self.port, self.config.ai)

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set, then close every connection."""
        await stop.wait()
        await self.stop()

    async def stop(self) -> None:
        """Stop accepting, end every conversation, and wait for them."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
        log.info("stopped")

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.peak_connections = max(self.peak_connections, len(self._tasks))
        channel = LineChannel(reader, writer)
        number = next(self._ids)
        log.info("#%d opened from %s", number, channel.peer)
        reason = "closed"
        try:
            if len(self._tasks) > self.config.max_connections:
                await channel.send(ERROR_LINE)
                reason = f"refused: {self.config.max_connections} connections already"
            else:
                reason = await self._converse(channel)
        except asyncio.CancelledError:
            reason = "server stopping"
        except ConnectionClosed:
            reason = "client hung up"
        except TimeoutError:
            reason = f"idle for {self.config.idle_timeout:g} s"
        except ProtocolError as error:
            reason = f"protocol error: {error}"
            with contextlib.suppress(OSError):
                await channel.send(ERROR_LINE)
        except OSError as error:
            reason = f"network error: {error}"
        except Exception:  # a bug must cost one connection, never the server
            log.exception("#%d failed", number)
            reason = "internal error"
        finally:
            await channel.close()
            self._tasks.discard(task)
            log.info("#%d closed (%s)", number, reason)

    async def _converse(self, channel: LineChannel) -> str:
        """Read the first line, pick the protocol it opens, and serve it."""
        first_line = await channel.read_line(self.config.idle_timeout)
        if speaks_i32cfsp(first_line):
            return await serve_i32cfsp(channel, first_line, self._make_ai, self.config.idle_timeout)
        await channel.send(ERROR_LINE)
        return "protocol error: no protocol of ours starts with that line"


async def run_server(config: ServerConfig) -> int:
    """Serve until Ctrl-C or SIGTERM; the exit status."""
    server = C4Server(config)
    try:
        await server.start()
    except OSError as error:
        log.error("cannot listen on %s:%d: %s", config.host, config.port, error.strerror)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await server.serve_until(stop)
    return 0


def serve(config: ServerConfig) -> int:
    """Entry point of ``c4tui serve``: log to standard error, run, exit cleanly."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s c4tui-serve %(message)s", datefmt="%H:%M:%S"
    )
    raise_open_file_limit()
    try:
        return asyncio.run(run_server(config))
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        return 130


def raise_open_file_limit() -> None:
    """Allow as many sockets as the system lets this process have (one per client)."""
    try:
        import resource  # noqa: PLC0415 (not on every platform)

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass
