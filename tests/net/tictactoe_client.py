"""Bare-sockets clients for the tic-tac-toe port, and a server that serves one.

``TicTacToeClient`` sends each message in one write with no terminator, as the
handout's clients do, and checks what it receives against what a test expects
(it does not use c4tui's own framing, which is under test). ``SeedClient`` is a
blocking socket that reads one message per ``recv``, the way the handout's
published clients read: a server that merges two messages into one read fails it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Self

from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.lobby_client import TEST_ROUNDS, lobby_server
from tests.net.raw_client import TIMEOUT


def tictactoe_server(tmp_path: Path, **settings: object) -> AbstractAsyncContextManager[C4Server]:
    """A running server with tic-tac-toe rooms on a port of their own (``tictactoe_port``)."""
    return lobby_server(tmp_path, tictactoe_port=0, **settings)


@contextlib.contextmanager
def threaded_tictactoe_server(tmp_path: Path) -> Iterator[C4Server]:
    """``tictactoe_server`` on an event loop of its own thread, for blocking clients."""
    config = ServerConfig(
        port=0, tictactoe_port=0, db=tmp_path / "accounts.sqlite3", bcrypt_rounds=TEST_ROUNDS
    )
    with server_in_a_thread(config) as server:
        yield server


class TicTacToeClient:
    """One message per write out; what arrives is matched against what is expected."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received = ""

    @classmethod
    async def connect(cls, port: int) -> Self:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def send(self, text: str | bytes) -> None:
        self.writer.write(text if isinstance(text, bytes) else text.encode())
        await self.writer.drain()

    async def expect(self, message: str) -> None:
        """The next message is ``message`` (whole, whatever the reads were)."""
        while len(self.received) < len(message):
            chunk = await asyncio.wait_for(self.reader.read(8192), TIMEOUT)
            if not chunk:
                raise AssertionError(f"hung up; expected {message!r}, got {self.received!r}")
            self.received += chunk.decode()
        got, self.received = self.received[: len(message)], self.received[len(message) :]
        assert got == message, f"expected {message!r}, got {got + self.received!r}"

    async def ask(self, message: str, answer: str) -> None:
        await self.send(message)
        await self.expect(answer)

    async def quiet(self, seconds: float = 0.3) -> bool:
        """True if nothing arrives for ``seconds``."""
        assert not self.received, self.received
        try:
            extra = await asyncio.wait_for(self.reader.read(8192), seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected {extra!r}")

    async def last_words(self) -> bytes:
        """What the server sends before it hangs up (waits for the hang-up)."""
        return await asyncio.wait_for(self.reader.read(), TIMEOUT)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


async def signed_in(port: int, user: str, password: str = "pw") -> TicTacToeClient:
    """A client with a fresh account, logged in."""
    client = await TicTacToeClient.connect(port)
    await client.ask(f"REGISTER:{user}:{password}", "REGISTER:ACKSTATUS:0")
    await client.ask(f"LOGIN:{user}:{password}", "LOGIN:ACKSTATUS:0")
    return client


class SeedClient:
    """A blocking socket read one ``recv`` at a time, like the handout's clients."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)

    def send(self, message: str) -> None:
        self.socket.sendall(message.encode("ascii"))

    def receive(self) -> str:
        """What one ``recv`` returns (one message, if the server paces its writes)."""
        return self.socket.recv(8192).decode("ascii")

    def ask(self, message: str) -> str:
        self.send(message)
        return self.receive()

    def close(self) -> None:
        self.socket.close()
