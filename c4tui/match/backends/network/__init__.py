"""The opponent at the other end of a connection: a server's AI, in the protocol it speaks.

One backend for every protocol, listed with the menu: its options and the
protocols' limits are plain declarations (``base``). The talk itself — the
connection, the time limits, each protocol's ``ServerGame`` and codec — is a
``ServerSession`` (``session``), loaded when the first game starts. To add a
protocol: declare it in ``base``, write its ServerGame in a module here, and
list it in ``CLIENT_PROTOCOLS`` and in ``session.GAMES``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, ClassVar, TypeVar

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.match.backends.base import Backend, Choice, Option, SeatContext
from c4tui.match.backends.network.base import (
    C4N,
    CFSP,
    I32CFSP,
    ClientProtocol,
    ServerAddress,
    login_name,
)
from c4tui.net.address import CONNECT_TIMEOUT, DEFAULT_HOST, DEFAULT_PORT, parse_host, parse_port
from c4tui.net.errors import ConnectionLost, NetworkError, ServerConceded
from c4tui.protocols.limits import MAX_USERNAME
from c4tui.protocols.names import parse_username, valid_username

if TYPE_CHECKING:
    from c4tui.match.backends.network.session import ServerSession

#: The protocols the app and the console can play a server in; the first is the default.
CLIENT_PROTOCOLS: dict[str, ClientProtocol] = {
    protocol.key: protocol for protocol in (I32CFSP, CFSP, C4N)
}

#: Seconds to wait for any answer after the greeting (the server's AI thinks).
REPLY_TIMEOUT = 120.0

T = TypeVar("T")


def protocol_named(key: str) -> ClientProtocol:
    """The client protocol called ``key``. Raises KeyError naming the known ones."""
    try:
        return CLIENT_PROTOCOLS[key]
    except KeyError:
        raise KeyError(f"no protocol {key!r}; known: {', '.join(CLIENT_PROTOCOLS)}") from None


def chosen_protocol(values: Mapping[str, str]) -> ClientProtocol:
    """The protocol option's choice (the default while none is made)."""
    return CLIENT_PROTOCOLS.get(values.get("protocol", ""), I32CFSP)


def _uses_username(values: Mapping[str, str]) -> bool:
    return chosen_protocol(values).uses_username


def _default_username() -> str:
    return login_name(valid_username)


PROTOCOL_OPTION = Option(
    "protocol",
    "Protocol",
    I32CFSP.key,
    choices=tuple(Choice(game.key, game.name, game.summary) for game in CLIENT_PROTOCOLS.values()),
)


class NetworkBackend(Backend):
    """The AI of a server, in I32CFSP, CFSP or C4N; the person here moves first (RED).

    Args:
        address: server and username.
        protocol: what the server speaks.
        connect_timeout: seconds to wait for the connection and the greeting.
        reply_timeout: seconds to wait for any later answer.
    """

    key = "network"
    title = "Network server"
    noun = "server"
    summary = "Play RED against the AI of a server (I32CFSP, CFSP or C4N), such as c4tui serve."
    options = (
        Option("host", "Host", DEFAULT_HOST, parse=parse_host, max_length=255),
        Option("port", "Port", str(DEFAULT_PORT), parse=parse_port, max_length=5),
        PROTOCOL_OPTION,
        Option(
            "user",
            "Username",
            _default_username,
            parse=parse_username,
            max_length=MAX_USERNAME,
            applies=_uses_username,
        ),
    )
    person_colours: ClassVar[tuple[Player, ...]] = (Player.RED,)
    supports_undo: ClassVar[bool] = False
    remote: ClassVar[bool] = True

    def __init__(
        self,
        address: ServerAddress,
        protocol: ClientProtocol = I32CFSP,
        connect_timeout: float = CONNECT_TIMEOUT,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> None:
        self.address = address
        self.protocol = protocol
        self.label = f"Server {address}"
        self._connect_timeout = connect_timeout
        self._reply_timeout = reply_timeout
        self._session: ServerSession | None = None
        self._person = Player.RED
        self._server_moves: list[Move] = []
        #: Why the server closed the connection of the last game, if it did (in words).
        self.lost: str | None = None

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """A backend for the server at ``values``' host and port, in its protocol."""
        values = cls.option_values(values)
        address = ServerAddress(
            parse_host(values["host"]), parse_port(values["port"]), values["user"]
        )
        return cls(address, protocol_named(values["protocol"]))

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``vs network server (C4N)``."""
        return f"vs network server ({chosen_protocol(values).name})"

    @classmethod
    def game_for(
        cls, values: Mapping[str, str], columns: int, rows: int, rules: Rules
    ) -> tuple[int, int, Rules]:
        """The nearest game the chosen protocol plays (C4N: classic 7 × 6; CFSP: Pop Out)."""
        return chosen_protocol(values).game_for(columns, rows, rules)

    @classmethod
    def game_note(cls, values: Mapping[str, str]) -> str:
        """The chosen protocol's limits, if it has any."""
        return chosen_protocol(values).limits()

    def starting_note(self) -> str | None:
        """Connecting takes a moment: say where to, and how."""
        who = f" as {self.address.username}" if self.protocol.uses_username else ""
        return f"Connecting to {self.address}{who} ({self.protocol.name})…"

    async def start(self, state: GameState) -> None:
        """Connect and ask for a game like ``state`` (a fresh connection for each game)."""
        # The one place the network side loads: the connection, the framing and every
        # protocol's codec come with the first game, not with the menu listing this kind.
        from c4tui.match.backends.network.session import ServerSession  # noqa: PLC0415

        await self.close()
        self.moved_first = False
        self.lost = None
        self._person = Player.RED
        session = await ServerSession.connect(
            self.address, self.protocol, state, self._connect_timeout
        )
        self._session = session
        self._server_moves = await self._noting_loss(session.greet(self._connect_timeout))
        if self._server_moves:
            self.moved_first = True
            self._person = Player.YELLOW

    async def move_played(self, before: GameState, move: Move) -> None:
        """Send the person's move and read the server's answer and its move."""
        if before.turn is not self._person:
            return
        session = self._connected()
        self._server_moves += await self._noting_loss(session.exchange(move, self._reply_timeout))
        if session.over:
            await self.close()

    async def watch_while_waiting(self) -> None:
        """Raise NetworkError when the server hangs up (or floods us) during the person's turn."""
        if self._session is not None:
            await self._noting_loss(self._session.watch())

    async def _noting_loss(self, talk: Awaitable[T]) -> T:
        """What ``talk`` gives; if the server closed the connection meanwhile, ``lost`` says why."""
        try:
            return await talk
        except ConnectionLost as lost:
            self.lost = str(lost)
            raise
        except ServerConceded as conceded:  # its AI failed: the game is the person's
            from c4tui.match.driver import OpponentLeft  # noqa: PLC0415 (loaded by then)

            raise OpponentLeft(f"{conceded}: you win") from None

    async def choose_move(self, state: GameState) -> Move:
        """The server's move, already received after the person's move."""
        if not self._server_moves:
            raise NetworkError("The server has not moved (the game is out of step).")
        return self._server_moves.pop(0)

    async def close(self) -> None:
        """Hang up (saying STOP first in C4N if the game is not over)."""
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    def _connected(self) -> ServerSession:
        if self._session is None or self._session.closed:
            raise NetworkError(f"Not connected to {self.address}.")
        return self._session


__all__ = [
    "CLIENT_PROTOCOLS",
    "ClientProtocol",
    "NetworkBackend",
    "ServerAddress",
    "protocol_named",
]
