"""One node of a cluster: a ``c4tui serve`` that shares its lobby through PostgreSQL and Redis.

Leading is holding PostgreSQL's advisory lock ``LEADER_LOCK`` on the store's own
connection, so a node that loses its database loses the lead with it and can write
nothing more: no two nodes ever run the lobby at once (the lobby is never split).
A node that does not lead tries for the lock every ``BEAT`` seconds, and forwards
its lobby clients to the leader (``forward.py``); the leader serves them
(``remote.py``) as its own. Everything else a node serves (the AI's protocols,
tic-tac-toe rooms) stays its own.

What a node does when something fails, and says in its log:
- the leader dies (its session ends, the lock is free): another node takes the lock,
  brings back the games in progress from the database with their players away, and
  its clients come back (``BYE:shutdown`` to the ones it had forwarded);
- a node dies (silent for ``SILENCE`` seconds): the leader counts its clients away;
- the leader loses the database: it stops (exit status 1), for another node to lead;
- a node loses the bus: it cuts off the clients it served through it and takes no new
  lobby client until the bus is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import socket
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby
from c4tui.protocols.presence import ByeReason, bye
from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.forward import ForwardedClient, forward
from c4tui.server.cluster.messages import (
    Abort,
    Alive,
    BusLost,
    BusMessage,
    Close,
    Gone,
    Leading,
    Line,
    Opened,
    Send,
)
from c4tui.server.cluster.remote import RemoteClients
from c4tui.server.cluster.shared_count import CountedOnTheBus
from c4tui.server.context import Client
from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.dialects import LOBBY
from c4tui.server.lobby import RoomStream, serve_rooms
from c4tui.server.protocols import ServerProtocol
from c4tui.server.public import load_blocks
from c4tui.server.store import StoreError

log = logging.getLogger("c4tui.server")

#: PostgreSQL's advisory lock whose holder leads the lobby ("c4tu").
LEADER_LOCK = 0x63347475
#: Seconds between a node's heartbeats, and between its tries to lead.
BEAT = 0.5
#: Seconds without a heartbeat after which a node (or the leader) counts as gone.
SILENCE = 3.0
#: Seconds a lobby client that arrives while no node leads waits for one.
LEADER_WAIT = 10.0


@runtime_checkable
class LeadableStore(Protocol):
    """A store whose database can say which node leads (PostgreSQL's advisory locks)."""

    async def try_lead(self, key: int) -> bool:
        """Take the lock ``key`` on the store's own session; False if another holds it."""

    async def holds_lead(self, key: int) -> bool:
        """Whether the store's session still holds the lock ``key``."""

    async def lobby_identity(self) -> str:
        """What tells this lobby's database from any other (the bus's channels carry it)."""


class ClusterNode(C4Server):
    """A ``C4Server`` that serves one lobby with other nodes (``c4tui serve --bus``).

    ``config.bus`` is Redis's address, ``config.db`` PostgreSQL's; ``config.node`` names
    the node in the logs (a random part is added: each start is a new node).
    Raises ValueError when the store cannot say who leads (not PostgreSQL).
    """

    def __init__(self, config: ServerConfig, *, now: Callable[[], float] = time.monotonic) -> None:
        super().__init__(config, now=now)
        leadership = self.lobby.store
        if not isinstance(leadership, LeadableStore) or config.bus is None:
            raise ValueError("several nodes need PostgreSQL (--db postgresql://…) and --bus")
        self.bus = Bus(config.bus)
        self.name = f"{config.node or socket.gethostname()}-{secrets.token_hex(3)}"
        self.leading = False
        self._taking_over = False  # from winning the lock until the games are back
        self._leadership = leadership
        self._leader: str | None = None
        self._leader_seen = 0.0
        self._listening = asyncio.Event()  # the lobby's channel, once leading
        self._on_bus = False
        self._forwarded: dict[int, ForwardedClient] = {}
        self._sessions = itertools.count(1)
        self._remote = RemoteClients(self.bus, self._serve_here, self._ids, config.idle_timeout)
        self._duties: list[asyncio.Task[None]] = []
        self._checks: set[asyncio.Task[bool]] = set()  # of the lock, when another claims it
        self._stop: asyncio.Event | None = None
        self.protocols = tuple(
            ServerProtocol(p.spec, self._lobby_client) if p.spec is lobby.SPEC else p
            for p in self.protocols
        )
        # One REGISTER count per address for every node's ports (§7), in Redis.
        shared = CountedOnTheBus(self.bus, "registrations", config.max_registrations, 3600, now)
        self.lobby.registrations = self.tictactoe.registrations = shared
        self.lobby.moderation.counts_bans = False  # until this node leads

    # ----- starting and stopping -------------------------------------------------------

    async def _open_lobby(self) -> None:
        """Open the store and the bus; lead when the lock is free (the games come back then)."""
        await self.lobby.store.open()
        self.bus.serve(await self._leadership.lobby_identity())
        await self.bus.open()
        self._on_bus = True
        await self._moderate_own_ports()
        self._duties = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._beat()),
            asyncio.create_task(self._campaign()),
        ]
        log.info("node %s joined the bus at %s", self.name, self.bus.location)

    async def _moderate_own_ports(self) -> None:
        """Act on the feed for this node's own tic-tac-toe port, leading or not (§7).

        Its rooms are this node's: a ban must close them here, and they hold the blocks
        the store keeps (loaded after the feed's place is taken, so none is missed).
        """
        await self.lobby.moderation.from_now()
        await load_blocks(self.lobby)
        self.lobby.moderation.start()

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set (or this node must stop: ``exit_status`` says why)."""
        self._stop = stop
        await super().serve_until(stop)

    async def stop(self) -> None:
        """Say BYE to every client (those served through the bus too), then leave the bus."""
        tasks = [*self._duties, *self._checks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._drop_forwarded(ByeReason.SHUTDOWN)
        await super().stop()
        await self._remote.stop()
        await self.bus.close()

    def _must_stop(self, why: str) -> None:
        """Stop this node (exit status 1), saying why in the log."""
        log.error("%s", why)
        self.exit_status = 1
        self.leading = False
        if self._stop is not None:
            self._stop.set()

    # ----- leading -------------------------------------------------------------------

    async def _campaign(self) -> None:
        """Try for the lead every BEAT seconds; once leading, check the database holds it."""
        warned = False
        while not self.leading:
            try:
                if await self._leadership.try_lead(LEADER_LOCK):
                    await self._take_over()
                    break
                warned = False
            except ConnectionError as error:
                if self._taking_over:  # half the games back, in memory only: start afresh
                    self._must_stop(f"lost the database while taking the lobby over ({error})")
                    return
                if not warned:
                    log.warning("cannot reach the database (%s): this node cannot lead", error)
                warned = True
                await self._reconnect()
            await asyncio.sleep(BEAT)
        while await self._still_leading():
            await asyncio.sleep(BEAT)

    async def _still_leading(self) -> bool:
        """Whether this node still holds the lock; if not, it stops (and says why)."""
        try:
            if await self._leadership.holds_lead(LEADER_LOCK):
                return True
            why = "lost the lock on the database"
        except ConnectionError as error:
            why = f"lost the database ({error})"
        self._must_stop(
            f"{why}: node {self.name} stops leading and stops,"
            " so that another node takes the lobby over"
        )
        return False

    async def _reconnect(self) -> None:
        """Open the store's session again (a node that does not lead lost it): try, quietly."""
        with contextlib.suppress(ConnectionError, StoreError):
            await self.lobby.store.open()
            log.info("node %s reaches the database again", self.name)

    async def _take_over(self) -> None:
        """Lead: listen for the other nodes' clients, bring back the games in progress."""
        log.info("node %s takes the lobby over", self.name)
        self._leader = None  # clients arriving now wait until the games are back
        self._taking_over = True  # listen to the lobby's channel from now on
        await self._listening.wait()
        await self._restore_games()  # before any client is served: they find their games
        self.lobby.start_clocks()
        self.leading = True
        self.lobby.moderation.counts_bans = True  # the feed's bans count here from now on
        self._leader = self.name
        self._drop_forwarded(ByeReason.SHUTDOWN)  # the leader before us served them: come back
        log.info("node %s leads the lobby now", self.name)
        await self.bus.tell(self.bus.nodes_channel, Leading(self.name))

    # ----- the bus -------------------------------------------------------------------

    def _channels(self) -> set[str]:
        mine = {self.bus.nodes_channel, self.bus.node_channel(self.name)}
        return mine | {self.bus.lobby_channel} if self._taking_over else mine

    def _subscribed(self, channels: set[str]) -> None:
        if self.bus.lobby_channel in channels:
            self._listening.set()

    async def _listen(self) -> None:
        """Hear the bus; when it is lost, cut off what went through it and try again."""
        while True:
            try:
                await self.bus.listen(self._channels, self._heard, self._subscribed)
            except BusLost as error:
                self._lost_bus(error)
            await asyncio.sleep(BEAT)
            with contextlib.suppress(BusLost):
                await self.bus.open()
                self._on_bus = True
                log.info("node %s is back on the bus", self.name)

    def _lost_bus(self, error: BusLost) -> None:
        if self._on_bus:
            then = (
                "the other nodes' players come back to this one's until it is back"
                if self.leading
                else "no lobby player here until it is back"
            )
            log.error("lost the bus (%s): %s", error, then)
        self._on_bus = False
        self._listening.clear()
        self._leader = self.name if self.leading else None
        self._drop_forwarded(ByeReason.SHUTDOWN)
        self._remote.drop(None, "the bus is lost")

    def _heard(self, message: BusMessage) -> None:
        """One message from another node (never waits)."""
        if isinstance(message, Send | Close | Abort):
            client = self._forwarded.get(message.session)
            if client is not None:
                client.heard(message)
        elif isinstance(message, Leading):
            self._heard_leader(message.node)
        elif self.leading and isinstance(message, Opened | Line | Gone | Alive):
            self._remote.heard(message)

    def _heard_leader(self, node: str) -> None:
        if node == self.name or (self._taking_over and not self.leading):
            return
        if self.leading:  # a new leader (this one lost the lock) or a dead one's last word
            log.warning("node %s says it leads: node %s checks its lock", node, self.name)
            check = asyncio.create_task(self._still_leading())
            self._checks.add(check)
            check.add_done_callback(self._checks.discard)
            return
        if self._leader not in (None, node):
            self._drop_forwarded(ByeReason.SHUTDOWN)  # the old leader's clients come back
        self._leader = node
        self._leader_seen = time.monotonic()

    async def _beat(self) -> None:
        """Say this node is alive; notice the nodes, or the leader, that are not."""
        while True:
            await asyncio.sleep(BEAT)
            if self.leading:
                await self.bus.tell(self.bus.nodes_channel, Leading(self.name))
            else:
                await self.bus.tell(self.bus.lobby_channel, Alive(self.name))
            if self.leading:
                self._remote.drop_silent(SILENCE)
            elif self._leader is not None and time.monotonic() - self._leader_seen > SILENCE:
                log.warning("the leader %s is silent: its clients here come back", self._leader)
                self._leader = None
                self._drop_forwarded(ByeReason.SHUTDOWN)

    # ----- lobby clients -------------------------------------------------------------

    async def _serve_here(self, stream: RoomStream, client: Client) -> str:
        return await serve_rooms(stream, client, self.lobby, LOBBY)

    async def _lobby_client(self, stream: MessageStream, client: Client) -> str:
        """Serve a lobby client here when leading, else forward it to the leader."""
        if not self.leading and not await self._a_leader():
            with contextlib.suppress(OSError, TimeoutError):
                await stream.send(bye(ByeReason.SHUTDOWN))
            if not self._on_bus:
                return "refused: off the bus, this node cannot reach the lobby"
            return "refused: no node leads the lobby (can they reach the database?)"
        if self.leading:
            return await self._serve_here(stream, client)
        session = next(self._sessions)
        forwarded = ForwardedClient(stream)
        self._forwarded[session] = forwarded
        try:
            return await forward(forwarded, self.bus, self.name, session, client.address)
        finally:
            del self._forwarded[session]

    async def _a_leader(self) -> bool:
        """Wait up to LEADER_WAIT seconds for a node to lead (this one, or another).

        False at once while this node is off the bus: it cannot reach the lobby.
        """
        deadline = time.monotonic() + LEADER_WAIT
        while self._on_bus and time.monotonic() < deadline:  # off the bus: no lobby here
            if self.leading or self._leader is not None:
                return True
            await asyncio.sleep(BEAT / 10)
        return False

    def _drop_forwarded(self, reason: ByeReason) -> None:
        for client in self._forwarded.values():
            client.say_bye(reason)
