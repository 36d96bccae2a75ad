"""The opponent on the other end of a connection: an I32CFSP server's AI.

The person here plays RED; every move is checked against our own engine, and
anything the server says that does not fit closes the connection with a message
that quotes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping
from typing import ClassVar

from c4tui.engine import GameState, Move, Player
from c4tui.match.backends.base import Backend, Option, SeatContext
from c4tui.match.backends.network import (
    ServerAddress,
    describe_network_error,
    login_name,
)
from c4tui.net.address import (
    CONNECT_TIMEOUT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    parse_host,
    parse_port,
)
from c4tui.net.connection import Connection, open_connection
from c4tui.net.errors import NetworkError
from c4tui.protocols.common import ProtocolError
from c4tui.protocols.i32cfsp import (
    INVALID,
    MAX_USERNAME,
    OKAY,
    ClientSession,
    parse_username,
    valid_username,
)

#: Seconds to wait for any answer after the greeting (the server's AI thinks).
REPLY_TIMEOUT = 120.0


class I32CFSPBackend(Backend):
    """YELLOW, played by an I32CFSP server; the person here is RED.

    Args:
        address: server and username.
        connect_timeout: seconds to wait for the connection and the greeting.
        reply_timeout: seconds to wait for any later answer.
    """

    key = "i32cfsp"
    title = "Network server"
    noun = "server"
    summary = "Play RED against the AI of an I32CFSP server, such as one run by c4tui serve."
    options = (
        Option("host", "Host", DEFAULT_HOST, parse=parse_host, max_length=255),
        Option("port", "Port", str(DEFAULT_PORT), parse=parse_port, max_length=5),
        Option(
            "user",
            "Username",
            lambda: login_name(valid_username),
            parse=parse_username,
            max_length=MAX_USERNAME,
        ),
    )
    person_colours: ClassVar[tuple[Player, ...]] = (Player.RED,)
    supports_undo: ClassVar[bool] = False
    remote: ClassVar[bool] = True

    def __init__(
        self,
        address: ServerAddress,
        connect_timeout: float = CONNECT_TIMEOUT,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> None:
        self.address = address
        self.label = f"Server {address}"
        self._connect_timeout = connect_timeout
        self._reply_timeout = reply_timeout
        self._connection: Connection | None = None
        self._session: ClientSession | None = None
        self._server_moves: list[Move] = []

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """A backend for the server at ``values``' host and port."""
        values = cls.option_values(values)
        address = ServerAddress(
            parse_host(values["host"]), parse_port(values["port"]), values["user"]
        )
        return cls(address)

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``vs network server``."""
        return "vs network server"

    def starting_note(self) -> str | None:
        """Connecting takes a moment: say where to."""
        return f"Connecting to {self.address} as {self.address.username}…"

    async def start(self, state: GameState) -> None:
        """Connect and ask for a game like ``state`` (a fresh connection for each game)."""
        await self.close()
        try:
            connection = await open_connection(
                self.address.host, self.address.port, self._connect_timeout
            )
        except (OSError, TimeoutError) as error:
            raise NetworkError(describe_network_error(error, self.address)) from error
        self._connection = connection
        session = ClientSession(self.address.username, state.columns, state.rows, state.rules)
        self._session = session
        self._server_moves = []
        await self._guarded(self._greet(connection, session), self._connect_timeout)

    async def _greet(self, connection: Connection, session: ClientSession) -> None:
        await connection.send_line(session.hello())
        session.check_welcome(await connection.read_line())
        await connection.send_line(session.game_request())
        session.check_ready(await connection.read_line())

    async def move_played(self, before: GameState, move: Move) -> None:
        """Send the person's (RED) move and read the server's answer and its move."""
        if before.turn is not Player.RED:
            return
        connection, session = self._connected()
        await self._guarded(self._exchange(connection, session, move), self._reply_timeout)

    async def _exchange(self, connection: Connection, session: ClientSession, move: Move) -> None:
        await connection.send_line(session.send_move(move))
        answer = session.answer_to_move(move, await connection.read_line())
        if answer == INVALID:
            raise ProtocolError(f"the server refused {move}, a legal move")
        if answer == OKAY:
            self._server_moves.append(session.server_move(await connection.read_line()))
            session.after_server_move(await connection.read_line())
        if session.state.is_over:
            await self.close()

    async def choose_move(self, state: GameState) -> Move:
        """The server's move, already received after the person's move."""
        if not self._server_moves:
            raise NetworkError("The server has not moved (the game is out of step).")
        return self._server_moves.pop(0)

    async def close(self) -> None:
        """Hang up (the server closes too at the end of a game)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()

    def _connected(self) -> tuple[Connection, ClientSession]:
        if self._connection is None or self._session is None:
            raise NetworkError(f"Not connected to {self.address}.")
        return self._connection, self._session

    async def _guarded(self, talk: Coroutine[object, object, None], timeout: float) -> None:
        """Run a conversation; on any failure hang up and raise NetworkError in words."""
        try:
            async with asyncio.timeout(timeout):  # not wait_for: it can lose a cancellation
                await talk
        except (ProtocolError, OSError, TimeoutError) as error:
            await self.close()
            raise NetworkError(describe_network_error(error, self.address)) from error
