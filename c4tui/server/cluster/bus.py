"""The nodes' bus: Redis's publish/subscribe, through the ``redis`` package's asyncio client.

A message published while a node is away is lost, so a node never papers over a
gap: any error on the bus (Redis gone, a reply too slow) is ``BusLost`` and the node
cuts off the clients it was serving through the bus; they come back by themselves
(``c4tui.client.comeback``) and find the lobby as the database has it. The client
does not retry on its own for the same reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from c4tui.net.address import without_password
from c4tui.server.cluster.messages import BusLost, BusMessage, decode, encode

log = logging.getLogger("c4tui.server")

#: Seconds Redis has to connect or answer before the bus counts as lost.
BUS_TIMEOUT = 2.0
#: Connections to Redis a node holds at most: a publish beyond waits (BUS_TIMEOUT at
#: most) for one to be free. redis-py's default pool refuses a 101st at once ("Too many
#: connections"), which cut off a node's clients as soon as more than 100 spoke together.
BUS_CONNECTIONS = 50
#: Where a node finds Redis's password when ``--bus`` gives none (redis-cli's own).
PASSWORD_VARIABLE = "REDISCLI_AUTH"
#: Seconds between two looks for new channels to listen to while the bus is quiet.
LISTEN_TICK = 0.2
#: One count of a sliding window shared by the nodes (``Bus.take``), atomic in Redis and
#: on Redis's clock (the nodes' clocks may disagree): drop the events that left the
#: window, refuse (uncounted) when ``limit`` remain, else add this one. The key expires
#: once its window has passed, so a quiet address costs Redis nothing.
WINDOW_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local seconds = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - seconds)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(seconds))
return 1
"""


def password_from_environment(url: str) -> str | None:
    """Redis's password from ``REDISCLI_AUTH`` (as redis-cli reads it) when ``url`` has none.

    A password in ``--bus`` shows in the process list; one in the environment does not.
    """
    if urlsplit(url).password is not None:
        return None
    return os.environ.get(PASSWORD_VARIABLE) or None


class Bus:
    """One node's way onto the bus: publish to a channel, listen to some.

    ``url`` is Redis's address (``redis://host:port/0``). Every channel's name carries
    the lobby's (``serve``), so lobbies sharing a Redis never hear each other:
    publish/subscribe belongs to no database number.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = "c4tui"
        self._redis: Redis | None = None
        self._waiting: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    def serve(self, lobby: str) -> None:
        """Carry ``lobby``'s messages (its database's identity), before ``open``."""
        self.prefix = f"c4tui:{lobby}"

    @property
    def location(self) -> str:
        """Where the bus is, for the log (no password)."""
        return without_password(self.url)

    @property
    def lobby_channel(self) -> str:
        """Where clients' lines go: the node that leads listens to it."""
        return f"{self.prefix}:lobby"

    @property
    def nodes_channel(self) -> str:
        """Where the leader says it leads; every node listens to it."""
        return f"{self.prefix}:nodes"

    def node_channel(self, node: str) -> str:
        """Where the lines for ``node``'s clients go."""
        return f"{self.prefix}:node:{node}"

    async def open(self) -> None:
        """Connect and check Redis answers. Raises BusLost when it does not."""
        await self.close()
        pool = BlockingConnectionPool.from_url(
            self.url,
            password=password_from_environment(self.url),
            max_connections=BUS_CONNECTIONS,
            timeout=BUS_TIMEOUT,
            socket_connect_timeout=BUS_TIMEOUT,
            socket_timeout=BUS_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        self._redis = Redis.from_pool(pool)
        await self.ping()

    async def ping(self) -> None:
        """Raise BusLost unless Redis answers now."""
        try:
            await self._client().ping()
        except (RedisError, OSError) as error:
            raise BusLost(f"Redis at {self.location}: {error}") from None

    async def publish(self, channel: str, message: BusMessage) -> None:
        """Publish ``message`` on ``channel``; back once Redis has it. Raises BusLost.

        Messages published meanwhile go together, in the order they were published,
        in one pipelined write on one connection (``_send_waiting``): a leader
        answering hundreds of clients at once makes one trip to Redis, not hundreds.
        """
        sent = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, encode(message), sent))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_waiting())
        await sent

    async def tell(self, channel: str, message: BusMessage) -> None:
        """``publish`` a heartbeat or a last word; a lost bus is left to the listener.

        The listener notices the loss and the node acts on it then, once.
        """
        with contextlib.suppress(BusLost):
            await self.publish(channel, message)

    async def _send_waiting(self) -> None:
        """Send what waits, batch after batch, telling each publisher how its batch went."""
        while self._waiting:
            batch, self._waiting = self._waiting, []
            outcome: BusLost | None = None
            try:
                pipeline = self._client().pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipeline.publish(channel, data)
                await pipeline.execute()
            except (RedisError, OSError) as error:
                outcome = BusLost(f"Redis at {self.location}: {error}")
            for _, _, sent in batch:
                if sent.done():  # its publisher was cancelled
                    continue
                if outcome is None:
                    sent.set_result(None)
                else:
                    sent.set_exception(outcome)

    async def listen(
        self,
        channels: Callable[[], set[str]],
        heard: Callable[[BusMessage], None],
        subscribed: Callable[[set[str]], None] = lambda _: None,
    ) -> None:
        """Hand every message on ``channels()`` to ``heard``, until the bus is lost.

        ``channels`` is asked again every moment: a node that comes to lead starts
        listening to the lobby's channel without missing its own (``subscribed`` is
        told each time the channels listened to grow). A message that is not one of
        ours is logged and ignored. Raises BusLost; never returns.
        """
        pubsub = self._client().pubsub(ignore_subscribe_messages=True)
        listened: set[str] = set()
        try:
            while True:
                wanted = channels() - listened
                if wanted:
                    await pubsub.subscribe(*wanted)
                    listened |= wanted
                    subscribed(set(listened))
                message = await pubsub.get_message(timeout=LISTEN_TICK)
                if message is not None and message.get("type") == "message":
                    _hand_over(message["data"], heard)
        except (RedisError, OSError) as error:
            raise BusLost(f"Redis at {self.location}: {error}") from None
        finally:
            with contextlib.suppress(RedisError, OSError):
                close: Callable[[], Awaitable[None]] = pubsub.aclose  # (redis types it not)
                await close()

    async def take(self, window: str, key: str, limit: int, seconds: float) -> bool:
        """Count an event of ``key`` in the nodes' ``window`` if it has room (``WINDOW_SCRIPT``).

        False (not counted) when ``limit`` events of ``key`` fell in the last ``seconds``,
        whichever node counted them. Raises BusLost.
        """
        try:
            counted = await self._client().eval(
                WINDOW_SCRIPT,
                1,
                f"{self.prefix}:{window}:{key}",
                str(limit),
                str(seconds),
                secrets.token_hex(8),
            )
        except (RedisError, OSError) as error:
            raise BusLost(f"Redis at {self.location}: {error}") from None
        return bool(counted)

    async def close(self) -> None:
        """Disconnect (quietly: Redis may be gone already)."""
        client, self._redis = self._redis, None
        if client is not None:
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    def _client(self) -> Redis:
        if self._redis is None:
            raise BusLost(f"not connected to Redis at {self.location}")
        return self._redis


def _hand_over(data: bytes, heard: Callable[[BusMessage], None]) -> None:
    """Decode one message and hand it to ``heard``; one that is not ours is only logged."""
    try:
        message = decode(data)
    except ValueError as error:
        log.warning("ignored a message on the bus that is not c4tui's: %s", error)
        return
    heard(message)
