"""A bare-sockets lobby client for tests, and a server with a throwaway account database."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from c4tui.server.core import C4Server, ServerConfig
from tests.net.raw_client import TIMEOUT, RawClient

#: bcrypt's minimum cost: tests register many accounts.
TEST_ROUNDS = 4


@contextlib.asynccontextmanager
async def lobby_server(tmp_path: Path, **settings: object) -> AsyncIterator[C4Server]:
    """A running server whose accounts live in ``tmp_path``."""
    config = ServerConfig(
        port=0,
        db=tmp_path / "accounts.sqlite3",
        bcrypt_rounds=TEST_ROUNDS,
        **settings,  # type: ignore[arg-type]
    )
    server = C4Server(config)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


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


__all__ = ["TIMEOUT", "LobbyClient", "lobby_server", "logged_in"]
