"""A bare-sockets lobby client for tests, and a server with a throwaway account database."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

from c4tui.server.core import C4Server, ServerConfig
from tests.net.raw_client import TIMEOUT, RawClient

#: bcrypt's minimum cost: tests register many accounts.
TEST_ROUNDS = 4


@contextlib.asynccontextmanager
async def lobby_server(
    tmp_path: Path, db: str | None = None, **settings: object
) -> AsyncIterator[C4Server]:
    """A running server whose accounts live in ``db`` (None: a SQLite file in ``tmp_path``)."""
    config = ServerConfig(
        port=0,
        db=tmp_path / "accounts.sqlite3" if db is None else db,
        bcrypt_rounds=TEST_ROUNDS,
        **settings,  # type: ignore[arg-type]
    )
    server = C4Server(config)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@contextlib.contextmanager
def lobby_server_in_a_thread(
    database: Path, prepare: Callable[[C4Server], Awaitable[object]]
) -> Iterator[C4Server]:
    """A running server on a loop of its own (for a test whose app runs the main loop).

    ``prepare`` runs on that loop once the server listens (what it opens stays open).
    """
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def set_up() -> C4Server:
        server = C4Server(ServerConfig(port=0, db=database, bcrypt_rounds=TEST_ROUNDS))
        await server.start()
        await prepare(server)
        return server

    server = asyncio.run_coroutine_threadsafe(set_up(), loop).result(60)
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


class LobbyClient(RawClient):
    """Lines in, lines out; ``ask`` sends one and returns the answer."""

    async def ask(self, line: str) -> str:
        await self.send(line)
        return await self.line()

    async def quiet(self, seconds: float = 0.3) -> bool:
        """True if nothing arrives for ``seconds``."""
        try:
            extra = await asyncio.wait_for(self.reader.readline(), seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected {extra!r}")


async def logged_in(port: int, user: str, password: str = "pw") -> LobbyClient:
    """A client with a fresh account, logged in."""
    client = await LobbyClient.connect(port)
    assert await client.ask(f"REGISTER:{user}:{password}") == "REGISTER:ACKSTATUS:0"
    assert await client.ask(f"LOGIN:{user}:{password}") == "LOGIN:ACKSTATUS:0"
    return client


__all__ = ["TIMEOUT", "LobbyClient", "lobby_server", "lobby_server_in_a_thread", "logged_in"]
