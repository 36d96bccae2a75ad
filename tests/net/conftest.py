"""A real c4tui server on 127.0.0.1 (port 0) in a background thread, for every network test."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.tuning import new_event_loop
from tests.dbservers import PostgresServer, redis_server, start_postgres
from tests.net.stores import ENGINES

IDLE_TIMEOUT = 1.5


@pytest.fixture(autouse=True)
async def consoles_ended() -> AsyncIterator[None]:
    """End the test's console processes while its loop still runs: none is left open after."""
    yield
    from tests.net.test_lobby_console import ConsoleProcess  # the console tests' own helper

    await ConsoleProcess.end_all_here()


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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL per worker for the whole run (skipped, or failed on CI, if missing)."""
    database_server = start_postgres()
    try:
        yield database_server
    finally:
        database_server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database of its own for one test; dropped after it."""
    url = postgres_server.database()
    yield url
    postgres_server.drop(url)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """One Redis per worker for the whole run (skipped, or failed on CI, if missing)."""
    with redis_server() as url:
        yield url


@pytest.fixture(params=ENGINES)
def lobby_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for the lobby on each engine: a SQLite file, a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "accounts.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url
