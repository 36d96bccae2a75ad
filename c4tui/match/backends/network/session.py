"""One game's connection to a server's AI: connecting, time limits, hanging up, problems in words.

``NetworkBackend`` loads this module when its first game starts, and with it the
connection, the framing and every client protocol's codec. To add a protocol:
write its ServerGame in a module beside this one, declare it in ``base``, and
list both here and in ``CLIENT_PROTOCOLS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Coroutine
from typing import TypeVar

from c4tui.client.words import closed_because
from c4tui.engine import GameState, Move
from c4tui.match.backends.network.base import ClientProtocol, ServerAddress
from c4tui.match.backends.network.c4n import C4NGame
from c4tui.match.backends.network.cfsp import CFSPGame
from c4tui.match.backends.network.game import ServerGame
from c4tui.match.backends.network.i32cfsp import I32CFSPGame
from c4tui.net.connection import Connection, open_connection
from c4tui.net.errors import (
    ConnectionClosed,
    ConnectionLost,
    NetworkError,
    ProtocolError,
    WriteTimeout,
)
from c4tui.net.framing import MessageStream
from c4tui.net.wire import MAX_LINE_BYTES
from c4tui.protocols import lobby as lobby_wire

#: What the server closing the connection raises as (the words say why).
_CLOSED = (ConnectionClosed, ConnectionResetError, BrokenPipeError)

#: The game that speaks each client protocol, by the protocol's key.
GAMES: dict[str, type[ServerGame]] = {
    game.protocol.key: game for game in (I32CFSPGame, CFSPGame, C4NGame)
}

T = TypeVar("T")


def describe_network_error(error: BaseException, address: ServerAddress) -> str:  # noqa: PLR0911
    """One sentence saying what went wrong with the server at ``address``."""
    if isinstance(error, NetworkError):
        return str(error)
    if isinstance(error, ProtocolError):
        return f"The server broke the protocol: {error}"
    if isinstance(error, WriteTimeout):
        return f"The server at {address} stopped reading."
    if isinstance(error, _CLOSED):
        return f"{closed_because(None)}."
    if isinstance(error, socket.gaierror):
        return f"Unknown host {address.host!r}."
    if isinstance(error, ConnectionRefusedError):
        return f"Connection refused by {address}: is a server running there?"
    if isinstance(error, TimeoutError):
        return f"No answer from {address} in time."
    if isinstance(error, OSError):
        return f"Network error with {address}: {error.strerror or error}"
    return f"Unexpected problem with {address}: {error}"


class ServerSession:
    """One connection and the game talked on it; every failure hangs up and says why.

    Closed once hung up: after a failure (without a goodbye) or by ``close``.
    """

    def __init__(self, address: ServerAddress, connection: Connection, game: ServerGame) -> None:
        self.address = address
        self._connection: Connection | None = connection
        self._game = game

    @classmethod
    async def connect(
        cls, address: ServerAddress, protocol: ClientProtocol, state: GameState, timeout: float
    ) -> ServerSession:
        """Connect for a game like ``state`` (a NetworkError in words if nobody answers)."""
        try:
            connection = await open_connection(address.host, address.port, timeout)
        except (OSError, TimeoutError) as error:
            raise NetworkError(describe_network_error(error, address)) from error
        game = GAMES[protocol.key]
        stream = MessageStream(connection, game.spec)
        return cls(address, connection, game(stream, address.username, state))

    @property
    def closed(self) -> bool:
        """True once hung up."""
        return self._connection is None

    @property
    def over(self) -> bool:
        """True once our own board shows the game over."""
        return self._game.over

    async def greet(self, timeout: float) -> list[Move]:
        """The protocol's greeting and game request; the AI's moves made before ours."""
        try:
            return await self._guarded(self._game.open(), timeout)
        except NetworkError as error:
            if isinstance(error.__cause__, TimeoutError):
                name = self._game.protocol.name
                raise NetworkError(
                    f"No answer from {self.address} to {name}'s greeting in "
                    f"{timeout:g} s: is it a {name} server?"
                ) from error
            raise

    async def exchange(self, move: Move, timeout: float) -> list[Move]:
        """Send our move; the AI's reply (none when our move ended the game)."""
        return await self._guarded(self._game.exchange(move), timeout)

    async def watch(self) -> None:
        """Raise NetworkError when the server hangs up (or floods us) while the person thinks.

        What it sends meanwhile is kept for the next read. Returns at once when
        hung up already or the game is over.
        """
        connection = self._connection
        if connection is None or self._game.over:
            return
        try:
            await connection.wait_for_hangup()
        except (ProtocolError, OSError) as error:
            await self._hang_up()
            raise _in_words(error, self.address) from error
        last_words = await connection.peek(MAX_LINE_BYTES)
        await self._hang_up()
        raise ConnectionLost(f"{closed_because(bye_reason(last_words))}.")

    async def close(self) -> None:
        """Hang up, saying goodbye first (C4N's STOP) if the game is not over."""
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if not self._game.over:
            await self._game.leave()
        await connection.close()

    async def _hang_up(self) -> None:
        """Hang up without a goodbye: the conversation is broken."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()

    async def _guarded(self, talk: Coroutine[object, object, T], timeout: float) -> T:
        """Run a conversation; on any failure hang up and raise NetworkError in words."""
        try:
            async with asyncio.timeout(timeout):  # not wait_for: it can lose a cancellation
                return await talk
        except (ProtocolError, OSError, TimeoutError) as error:
            await self._hang_up()
            raise _in_words(error, self.address) from error


def _in_words(error: BaseException, address: ServerAddress) -> NetworkError:
    """``error`` as a NetworkError in words: a ConnectionLost when the server hung up."""
    kind = ConnectionLost if isinstance(error, _CLOSED) else NetworkError
    return kind(describe_network_error(error, address))


def bye_reason(last_words: bytes) -> str | None:
    """The reason of a ``BYE:<reason>`` line among a server's last bytes, if one is there.

    Only the lobby protocol defines BYE; a server that says it in another one is
    understood all the same.
    """
    for line in last_words.decode("ascii", "replace").splitlines():
        with contextlib.suppress(ProtocolError):  # not a BYE (or a malformed one)
            message = lobby_wire.parse_server_message(line.strip())
            if isinstance(message, lobby_wire.Bye):
                return message.reason
    return None
