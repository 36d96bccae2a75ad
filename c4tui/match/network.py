"""The opponent on the other end of a connection: an I32CFSP server's AI.

The person here plays RED; every move is checked against our own engine, and
anything the server says that does not fit closes the connection with a message
that quotes it.
"""

from __future__ import annotations

import asyncio
import getpass
import socket
from dataclasses import dataclass

from c4tui.engine import GameState, Move, Player
from c4tui.match.backends import Backend
from c4tui.net.lines import ConnectionClosed, LineChannel, open_channel
from c4tui.protocols.common import ProtocolError
from c4tui.protocols.i32cfsp import INVALID, OKAY, ClientSession, valid_username

DEFAULT_HOST = "localhost"
DEFAULT_PORT = 4444


@dataclass(frozen=True)
class ServerAddress:
    """Where to connect and as whom."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    username: str = "player"

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def login_name() -> str:
    """The user's login name if it is a valid username, else ``player``."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return "player"
    return name if valid_username(name) else "player"


class NetworkError(Exception):
    """A connection problem, worded for a person."""


def describe_network_error(error: BaseException, address: ServerAddress) -> str:  # noqa: PLR0911
    """One sentence saying what went wrong with the server at ``address``."""
    if isinstance(error, NetworkError):
        return str(error)
    if isinstance(error, ProtocolError):
        return f"The server broke the protocol: {error}"
    if isinstance(error, ConnectionClosed | ConnectionResetError | BrokenPipeError):
        return f"The server at {address} hung up."
    if isinstance(error, socket.gaierror):
        return f"Unknown host {address.host!r}."
    if isinstance(error, ConnectionRefusedError):
        return f"Connection refused by {address}: is a server running there?"
    if isinstance(error, TimeoutError):
        return f"No answer from {address} in time."
    if isinstance(error, OSError):
        return f"Network error with {address}: {error.strerror or error}"
    return f"Unexpected problem with {address}: {error}"


class I32CFSPBackend(Backend):
    """YELLOW, played by an I32CFSP server; the person here is RED.

    Args:
        address: server and username.
        connect_timeout: seconds to wait for the connection and the greeting.
        reply_timeout: seconds to wait for any later answer (the server's AI thinks).
    """

    interactive = False
    supports_undo = False

    def __init__(
        self, address: ServerAddress, connect_timeout: float = 10.0, reply_timeout: float = 120.0
    ) -> None:
        self.address = address
        self.label = f"Server {address}"
        self._connect_timeout = connect_timeout
        self._reply_timeout = reply_timeout
        self._channel: LineChannel | None = None
        self._session: ClientSession | None = None
        self._server_moves: list[Move] = []

    async def start(self, state: GameState) -> None:
        """Connect and ask for a game like ``state`` (a fresh connection for each game).

        Does nothing if already connected for exactly this new game (the connect
        dialog connects first, then the game screen starts the game).
        """
        session = self._session
        if self._channel is not None and session is not None and session.state == state:
            return
        await self.close()
        try:
            channel = await open_channel(
                self.address.host, self.address.port, self._connect_timeout
            )
        except (OSError, TimeoutError) as error:
            raise NetworkError(describe_network_error(error, self.address)) from error
        self._channel = channel
        session = ClientSession(self.address.username, state.columns, state.rows, state.rules)
        self._session = session
        self._server_moves = []
        await self._guarded(self._greet(channel, session), self._connect_timeout)

    async def _greet(self, channel: LineChannel, session: ClientSession) -> None:
        await channel.send(session.hello())
        session.check_welcome(await channel.read_line())
        await channel.send(session.game_request())
        session.check_ready(await channel.read_line())

    async def move_played(self, before: GameState, move: Move) -> None:
        """Send the person's (RED) move and read the server's answer and its move."""
        if before.turn is not Player.RED:
            return
        channel, session = self._connected()
        await self._guarded(self._exchange(channel, session, move), self._reply_timeout)

    async def _exchange(self, channel: LineChannel, session: ClientSession, move: Move) -> None:
        await channel.send(session.send_move(move))
        answer = session.answer_to_move(move, await channel.read_line())
        if answer == INVALID:
            raise ProtocolError(f"the server refused {move}, a legal move")
        if answer == OKAY:
            self._server_moves.append(session.server_move(await channel.read_line()))
            session.after_server_move(await channel.read_line())
        if session.state.is_over:
            await self.close()

    async def choose_move(self, state: GameState) -> Move:
        """The server's move, already received after the person's move."""
        if not self._server_moves:
            raise NetworkError("The server has not moved (the game is out of step).")
        return self._server_moves.pop(0)

    async def close(self) -> None:
        """Hang up (the server closes too at the end of a game)."""
        channel, self._channel = self._channel, None
        if channel is not None:
            await channel.close()

    def _connected(self) -> tuple[LineChannel, ClientSession]:
        if self._channel is None or self._session is None:
            raise NetworkError(f"Not connected to {self.address}.")
        return self._channel, self._session

    async def _guarded(self, talk: object, timeout: float) -> None:
        """Run a conversation; on any failure hang up and raise NetworkError in words."""
        try:
            await asyncio.wait_for(talk, timeout)  # type: ignore[arg-type]
        except (ProtocolError, ConnectionClosed, OSError, TimeoutError) as error:
            await self.close()
            raise NetworkError(describe_network_error(error, self.address)) from error
