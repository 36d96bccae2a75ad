"""The server's front door: accept, limit, recognise the protocol, hand over, log, stop.

No client, however it behaves, can slow down or lock out the others:
- one task per connection, and a bug or a violation costs that connection only;
- at most ``max_connections`` served at once, and at most ``max_per_address``
  from one address (IPv6: one /64), so one machine cannot take every slot;
- clients over a limit are refused in their own protocol when their first bytes
  tell which, and only a bounded number are being refused at once;
- every write has a time limit, so a client that stops reading is cut off;
- the AI thinks in other processes (the search pool), and a client that hangs up
  while it thinks cancels its search.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from c4tui.lobby import CONNECT_FOUR, TIC_TAC_TOE
from c4tui.match.backends.program import DEFAULT_MOVE_SECONDS
from c4tui.match.pool import SearchPool
from c4tui.net.address import DEFAULT_PORT, address_group
from c4tui.net.connection import DEFAULT_WRITE_TIMEOUT, Connection
from c4tui.net.errors import ConnectionClosed, ProtocolError, WriteTimeout
from c4tui.net.framing import MessageStream
from c4tui.net.keepalive import enable_keepalive
from c4tui.net.tls import HANDSHAKE_SECONDS, server_context
from c4tui.net.wire import quote
from c4tui.outside.program import Limits
from c4tui.protocols import lobby
from c4tui.protocols.limits import DEFAULT_IDLE_TIMEOUT, MAX_ROOMS
from c4tui.protocols.registry import ProtocolSpec, Recognition, identify
from c4tui.server.ai_game import ServerAI
from c4tui.server.context import Client
from c4tui.server.limits import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_PER_ADDRESS,
    DEFAULT_MAX_PROGRAMS,
    DEFAULT_RECONNECT_GRACE,
    DEFAULT_ROUNDS,
)
from c4tui.server.lobby import LobbyService
from c4tui.server.metrics import MeteredKeeper, Metrics
from c4tui.server.metrics_door import MetricsDoor
from c4tui.server.program_ai import SERVER_AI_LIMITS
from c4tui.server.protocols import ServerProtocol, server_protocols, tictactoe_protocols
from c4tui.server.puzzle_harvest import PuzzleHarvest
from c4tui.server.reopening import reopen_lobby
from c4tui.server.slots import Slots
from c4tui.server.ssh.service import SshService
from c4tui.server.ssh.settings import SshSettings
from c4tui.server.stores import open_store
from c4tui.server.tls_door import Arrival, PlainArrival, TlsDoor, Unopened

log = logging.getLogger("c4tui.server")

#: The refusal for a client whose protocol we cannot tell.
GENERIC_REFUSAL = b"ERROR\r\n"
#: How many first bytes are enough to recognise any protocol.
PEEK_BYTES = 64
#: Seconds a refused client gets to show its protocol (so it can be refused in it).
REFUSAL_PEEK_SECONDS = 2.0
#: Clients being refused at once; more are hung up on without a word.
MAX_REFUSING = 64
#: Seconds lobby clients get to be told BYE:shutdown before the rest is cut off.
SHUTDOWN_BYE_SECONDS = 1.0


@dataclass(frozen=True)
class ServerConfig:
    """What ``c4tui serve`` was asked for.

    ``ai_workers`` is the number of processes the AI searches in (None: one per core);
    ``ai_first`` lets the AI drop first where the protocol allows it (C4N); ``db`` is the
    lobby's database (a file, a PostgreSQL URL; None: a file in the user's data directory);
    ``tictactoe_port``, if set, is where tic-tac-toe rooms for INFO1112 clients are
    served (0: any free port), with the lobby's accounts; ``reconnect_grace`` is how
    long a lobby player who dropped out of a game has to come back (0: it forfeits).
    ``ai``: a level or a program (``engine:CMD``, ``kaggle:FILE.py``; ``ai_seconds`` a move,
    ``ai_limits`` its bounds and sandbox).
    With ``tls_cert`` and ``tls_key`` the lobby (only the lobby) is also served over
    TLS on ``tls_port`` (None: the lobby's port + 1, any free port when that is 0).
    ``bus`` (Redis) joins the node ``node`` to the others serving one lobby.
    ``metrics_port`` (None: not served) serves Prometheus's series on ``metrics_host``.
    ``ssh`` (None: not served) serves the whole app over ssh on ``host`` (``server/ssh/``).
    §7's limits on the lobby's port: ``max_registrations`` REGISTERs per address (IPv6:
    per /64) an hour, ``chat_rate`` CHAT lines per user in 10 s; 0, their default here,
    turns one off (``c4tui serve`` asks for §7's 5 and 5 unless told otherwise).
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    ai: str = "random"
    ai_seconds: float = DEFAULT_MOVE_SECONDS
    max_programs: int = DEFAULT_MAX_PROGRAMS
    ai_limits: Limits = SERVER_AI_LIMITS
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    max_per_address: int = DEFAULT_MAX_PER_ADDRESS
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    write_timeout: float = DEFAULT_WRITE_TIMEOUT
    ai_workers: int | None = None
    ai_first: bool = False
    db: str | Path | None = None
    bcrypt_rounds: int = DEFAULT_ROUNDS
    max_rooms: int = MAX_ROOMS
    tictactoe_port: int | None = None
    reconnect_grace: float = DEFAULT_RECONNECT_GRACE
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_port: int | None = None
    bus: str | None = None
    node: str | None = None
    max_registrations: int = 0
    chat_rate: int = 0
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    ssh: SshSettings | None = None


class C4Server:
    """Serves every connection in its own task; one client's failure touches no other."""

    def __init__(
        self,
        config: ServerConfig,
        extra_protocols: Sequence[ServerProtocol] = (),
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        """``now``: the steady clock timed games run on (a test may pass one it moves)."""
        self.config = config
        self.pool = SearchPool(config.ai_workers, queue_limit=max(1, config.max_connections))
        store = open_store(config.db, config.bcrypt_rounds)
        self.metrics = Metrics()  # this server's own series (§7), shown by the door
        self.metrics_door = MetricsDoor(self.metrics)
        # The lobby's games are kept (the store is their keeper; §8: rated 7 × 6 ones searched
        # for puzzles after); tic-tac-toe's are not.
        self.harvest = PuzzleHarvest(MeteredKeeper(store, self.metrics), store, self.pool)
        self.lobby = LobbyService(
            store,
            CONNECT_FOUR,
            config.max_rooms,
            keeper=self.harvest,
            grace=config.reconnect_grace,
            now=now,
            metrics=self.metrics,
            registrations=config.max_registrations,
            chat_rate=config.chat_rate,
        )
        # One account store: the two ports share the throttle and REGISTER's count per address.
        self.tictactoe = LobbyService(
            store, TIC_TAC_TOE, config.max_rooms, self.lobby.throttle, now=now, metrics=self.metrics
        )
        self.tictactoe.registrations = self.lobby.registrations  # no way around the limit
        self.tictactoe.rooms.blocks = self.lobby.rooms.blocks  # one account, one set of blocks
        self.lobby.moderation.serve_too(self.tictactoe)  # a ban closes both ports' logins
        self.lobby.guests = config.ssh is not None and config.ssh.guests  # §9: KEYGUEST
        ai = config.ai, self.pool, config.ai_seconds, config.max_programs, config.ai_limits
        self.ai = ServerAI(*ai)
        self.protocols = (*server_protocols(self.ai, self.lobby, config.ai_first), *extra_protocols)
        self._server: asyncio.Server | None = None
        self._tictactoe_server: asyncio.Server | None = None
        self._tls_door: TlsDoor | None = None
        self.ssh = SshService(config.ssh, config.host) if config.ssh is not None else None
        self._tasks: set[asyncio.Task[None]] = set()
        self._refusing = 0
        self.slots = Slots(config.max_connections, config.max_per_address)
        self._ids = itertools.count(1)
        self.peak_connections = 0
        self.exit_status = 0  # what ``c4tui serve`` exits with once stopped

    @property
    def port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def tictactoe_port(self) -> int | None:
        """The tic-tac-toe port actually listened on (None: not served)."""
        if self._tictactoe_server is None:
            return None
        port: int = self._tictactoe_server.sockets[0].getsockname()[1]
        return port

    @property
    def tls_port(self) -> int | None:
        """The lobby's TLS port actually listened on (None: not served)."""
        return self._tls_door.port if self._tls_door is not None else None

    @property
    def connections(self) -> int:
        """How many clients are connected now (served or being refused)."""
        return len(self._tasks)

    async def start(self) -> None:
        """Open the accounts and start listening (the AI's worker processes start too).

        Raises OSError (the port), sqlite3.Error or StoreError (the database), TlsSetupError,
        MetricsSetupError (the metrics' port).
        """
        await self._open_lobby()
        self._server = await asyncio.start_server(
            functools.partial(self._accept, protocols=self.protocols),
            self.config.host,
            self.config.port,
            backlog=4096,
        )
        if self.config.tictactoe_port is not None:
            self._tictactoe_server = await asyncio.start_server(
                functools.partial(self._accept, protocols=tictactoe_protocols(self.tictactoe)),
                self.config.host,
                self.config.tictactoe_port,
                backlog=4096,
            )
            log.info("tic-tac-toe rooms on %s:%d", self.config.host, self.tictactoe_port)
        if self.config.tls_cert is not None and self.config.tls_key is not None:
            await self._open_tls_door(server_context(self.config.tls_cert, self.config.tls_key))
        await self.metrics_door.open(self.config.metrics_host, self.config.metrics_port)
        if self.ssh is not None:  # its visitors' apps: the lobby only, not counted by address
            lobby_only = tuple(p for p in self.protocols if p.spec is lobby.SPEC)
            accept = functools.partial(self._accept, protocols=lobby_only, per_address=False)
            await self.ssh.open(accept, self.lobby.store, self.slots)
        if self.ai.searches:
            self.pool.warm_up()
        log.info(
            "listening on %s:%d (AI: %s; accounts and games: %s)",
            self.config.host,
            self.port,
            self.config.ai,
            self.lobby.store.location,
        )

    async def _open_lobby(self) -> None:
        """Open the store, bring back the games in progress, start the clocks.

        A cluster's node (``c4tui.server.cluster``) does the last two once it leads.
        """
        await self.lobby.store.open()
        await self._restore_games()
        self.lobby.start_clocks()

    async def _open_tls_door(self, context: ssl.SSLContext) -> None:
        """Serve the lobby, and only the lobby, over TLS on a port of its own (TlsSetupError)."""
        lobby_only = tuple(p for p in self.protocols if p.spec is lobby.SPEC)
        welcome = functools.partial(self._welcome, protocols=lobby_only)
        door = TlsDoor(context, welcome, self._write_limit)
        host, certificate = self.config.host, self.config.tls_cert
        await door.open_beside(host, self.config.tls_port, self.config.port)
        self._tls_door = door
        log.info("lobby over TLS on %s:%d (certificate: %s)", host, door.port, certificate)

    async def _restore_games(self) -> None:
        """Every game under way before the last stop or crash, restored; the blocks held."""
        await reopen_lobby(self.lobby)

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set, then close every connection."""
        await stop.wait()
        await self.stop()

    async def stop(self) -> None:
        """Stop accepting, end every conversation, wait for them, and stop the AI's workers."""
        if self.ssh is not None:
            await self.ssh.close()  # every visitor's app hung up on: its links close
        servers = [s for s in (self._server, self._tictactoe_server) if s is not None]
        for server in servers:
            server.close()
        if self._tls_door is not None:
            await self._tls_door.close()
        await self.metrics_door.close()
        await self.lobby.shut_down(within=SHUTDOWN_BYE_SECONDS)  # BYE:shutdown, then closed
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for server in servers:
            await server.wait_closed()
        await self.harvest.stop()
        self.pool.shutdown()
        await self.lobby.announced()  # what the last connections' leaving did is kept first
        await self.lobby.store.close()
        log.info("stopped")

    # ----- one connection ------------------------------------------------------------

    async def _accept(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        protocols: tuple[ServerProtocol, ...],
        per_address: bool = True,
    ) -> None:
        connection = Connection(reader, writer, self._write_limit)
        enable_keepalive(writer.get_extra_info("socket"))  # finds peers that vanished
        await self._welcome(PlainArrival(connection), protocols, per_address)

    @property
    def _write_limit(self) -> float:
        """A client that stops reading is gone within the idle timeout too."""
        return min(self.config.write_timeout, self.config.idle_timeout)

    async def _welcome(
        self, arrival: Arrival, protocols: tuple[ServerProtocol, ...], per_address: bool = True
    ) -> None:
        """Count the client (by address unless told), serve or refuse it, log it, close it."""
        task = asyncio.current_task()
        assert task is not None
        client = Client(next(self._ids), self.config.idle_timeout, arrival.tls, arrival.peer_host)
        group = address_group(arrival.peer_host) if per_address else ""
        self._tasks.add(task)
        self.peak_connections = max(self.peak_connections, len(self._tasks))
        log.info("%s opened from %s", client.name, arrival.peer)
        reason = "closed"
        try:
            reason = await self._admit(arrival, client, group, protocols)
        except Unopened as error:
            reason = str(error)
        except asyncio.CancelledError:
            reason = "server stopping"
        except Exception:  # a bug must cost one connection, never the server
            log.exception("%s failed", client.name)
            reason = "internal error"
        finally:
            # A stop may cancel us again while closing: the close is the task's last act,
            # so the cancellation has nothing left to stop (3.11's stream callback would
            # log it as an error otherwise).
            with contextlib.suppress(asyncio.CancelledError):
                await arrival.close()
            self._tasks.discard(task)
            log.info("%s closed (%s)", client.name, reason)

    async def _admit(
        self,
        arrival: Arrival,
        client: Client,
        group: str,
        protocols: tuple[ServerProtocol, ...],
    ) -> str:
        """Serve the client if the limits allow, else refuse it; why it ended.

        Raises Unopened when its connection cannot be opened (TLS's handshake failed).
        """
        over = self.slots.take_slot(group)
        if over is not None:
            if self._refusing >= MAX_REFUSING:
                arrival.abort()
                return f"refused at once ({over})"
            self._refusing += 1
            try:
                connection = await arrival.opened(REFUSAL_PEEK_SECONDS)
                return await self._refuse(connection, over, protocols)
            finally:
                self._refusing -= 1
        try:
            connection = await arrival.opened(HANDSHAKE_SECONDS)
            return await self._converse(connection, client, protocols)
        finally:
            self.slots.free_slot(group)

    async def _refuse(
        self, connection: Connection, why: str, protocols: tuple[ServerProtocol, ...]
    ) -> str:
        """Refuse in the client's own protocol if its first bytes tell which, briefly."""
        try:
            spec = await self._recognise(connection, REFUSAL_PEEK_SECONDS, protocols)
        except (TimeoutError, OSError):
            spec = None
        with contextlib.suppress(OSError, TimeoutError):
            if spec is None:
                await connection.send_raw(GENERIC_REFUSAL)
            elif spec.refusal_when_full is not None:
                await connection.send_raw(spec.frame(spec.refusal_when_full))
        return why

    async def _converse(
        self, connection: Connection, client: Client, protocols: tuple[ServerProtocol, ...]
    ) -> str:
        """Recognise the protocol from the first bytes and let its handler serve the client."""
        idle = client.idle_timeout
        try:
            spec = await self._recognise(connection, idle, protocols)
        except TimeoutError:
            return f"idle for {idle:g} s"
        except OSError as error:
            return f"network error: {error}"
        if spec is None:
            if connection.at_eof:
                return "client hung up"
            first = await connection.peek(PEEK_BYTES)
            await _quietly(connection.send_raw(GENERIC_REFUSAL))
            return f"protocol error: no protocol of ours starts with {quote(first)}"
        protocol = next(p for p in protocols if p.spec is spec)
        with self.metrics.serving(spec.name):
            return await self._serve(protocol, MessageStream(connection, spec), client)

    async def _serve(self, protocol: ServerProtocol, stream: MessageStream, client: Client) -> str:
        """Run the handler; turn what ends a conversation into a reason for the log."""
        try:
            return await protocol.serve(stream, client)
        except ConnectionClosed:
            return "client hung up"
        except WriteTimeout as error:
            return f"cut off: {error}"
        except TimeoutError:
            return f"idle for {self.config.idle_timeout:g} s"
        except ProtocolError as error:
            if protocol.spec.on_violation is not None:
                await _quietly(stream.send(protocol.spec.on_violation))
            return f"protocol error: {error}"
        except OSError as error:
            return f"network error: {error}"

    async def _recognise(
        self, connection: Connection, timeout: float, protocols: tuple[ServerProtocol, ...]
    ) -> ProtocolSpec | None:
        """The protocol the client's first bytes open (None: none of ours), without consuming them.

        Raises TimeoutError if the client says too little for ``timeout`` seconds.
        """
        specs = [protocol.spec for protocol in protocols]
        async with asyncio.timeout(timeout):
            first = await connection.peek(PEEK_BYTES)
            while True:
                verdict = identify(specs, first)
                if isinstance(verdict, ProtocolSpec):
                    return verdict
                if verdict is Recognition.NO or len(first) >= PEEK_BYTES or b"\n" in first:
                    return None
                more = await connection.peek_more(len(first) + 1)
                if more == first:  # the client hung up mid-greeting
                    return None
                first = more


async def _quietly(sending: Awaitable[None]) -> None:
    """Send a last word to a client that may already be gone."""
    with contextlib.suppress(OSError, TimeoutError):
        await sending
