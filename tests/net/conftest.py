"""A real c4tui server on 127.0.0.1 (port 0) in a background thread, for every network test."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

import pytest

from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.tuning import new_event_loop

IDLE_TIMEOUT = 1.5


@pytest.fixture
def server() -> Iterator[C4Server]:
    """A running server with a short idle timeout; stopped (cleanly) after the test."""
    config = ServerConfig(port=0, idle_timeout=IDLE_TIMEOUT, max_connections=50, max_per_address=50)
    with server_in_a_thread(config) as c4_server:
        yield c4_server


@contextlib.contextmanager
def server_in_a_thread(config: ServerConfig) -> Iterator[C4Server]:
    """A server on an event loop of its own thread (for tests whose clients block).

    It runs on the event loop ``c4tui serve`` runs on (uvloop's, when installed).
    """
    loop = new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    c4_server = C4Server(config)
    asyncio.run_coroutine_threadsafe(c4_server.start(), loop).result(10)
    try:
        yield c4_server
    finally:
        asyncio.run_coroutine_threadsafe(c4_server.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
