"""The nodes' bus: Redis's publish/subscribe, through the ``redis`` package's asyncio client.

A message published while a node is away is lost, so a node never papers over a
gap: any error on the bus (Redis gone, a reply too slow) is ``BusLost`` and the node
cuts off the clients it was serving through the bus; they come back by themselves
(``c4tui.client.comeback``) and find the lobby as the database has it. The client
does not retry on its own for the same reason.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from c4tui.server.cluster.messages import BusLost, BusMessage, decode, encode

log = logging.getLogger("c4tui.server")

#: Seconds Redis has to connect or answer before the bus counts as lost.
BUS_TIMEOUT = 2.0
#: Connections to Redis a node holds at most: a publish beyond waits (BUS_TIMEOUT at
#: most) for one to be free. redis-py's default pool refuses a 101st at once ("Too many
#: connections"), which cut off a node's clients as soon as more than 100 spoke together.
BUS_CONNECTIONS = 50
#: Seconds between two looks for new channels to listen to while the bus is quiet.
LISTEN_TICK = 0.2


def hidden_password(url: str) -> str:
    """``url`` as the log may show it: a password in it replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


class Bus:
    """One node's way onto the bus: publish to a channel, listen to some.

    ``url`` is Redis's address (``redis://host:port/0``). Publish/subscribe channels
    belong to no database number, so the number is part of every channel's name:
    lobbies on one Redis are kept apart by their numbers.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"c4tui:{urlsplit(url).path.strip('/') or '0'}"
        self._redis: Redis | None = None

    @property
    def location(self) -> str:
        """Where the bus is, for the log (no password)."""
        return hidden_password(self.url)

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
        """Publish ``message`` on ``channel``. Raises BusLost if Redis does not take it."""
        try:
            await self._client().publish(channel, encode(message))
        except (RedisError, OSError) as error:
            raise BusLost(f"Redis at {self.location}: {error}") from None

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
                await pubsub.reset()  # typed; the same as aclose

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
