"""The bus on a real Redis: a node's many clients publishing at once all get through."""

from __future__ import annotations

import asyncio

from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import Alive, BusMessage

#: More clients at once than redis-py's pool gives connections by default (100).
AT_ONCE = 300


async def publish_at_once(url: str) -> list[BusMessage]:
    """``AT_ONCE`` publishes together, as a node forwarding that many busy clients does."""
    bus, listener = Bus(url), Bus(url)
    await bus.open()
    await listener.open()
    heard: list[BusMessage] = []
    listening = asyncio.Event()
    channel = bus.node_channel("test")
    task = asyncio.create_task(
        listener.listen(lambda: {channel}, heard.append, lambda _: listening.set())
    )
    try:
        await asyncio.wait_for(listening.wait(), 10)
        await asyncio.gather(*(bus.publish(channel, Alive(f"n{k}")) for k in range(AT_ONCE)))
        async with asyncio.timeout(10):
            while len(heard) < AT_ONCE:
                await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await bus.close()
        await listener.close()
    return heard


def test_hundreds_of_publishes_at_once_all_get_through(redis_url: str) -> None:
    heard = asyncio.run(publish_at_once(redis_url))
    assert sorted(heard, key=str) == sorted((Alive(f"n{k}") for k in range(AT_ONCE)), key=str)
