"""The bus on a real Redis: messages arrive in order, garbage is ignored, a lost Redis is
BusLost (never silence), and a client the leader no longer serves is cut off."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging

import pytest
import redis
import redis.asyncio

from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import Abort, BusLost, BusMessage, Line, Send
from c4tui.server.cluster.remote import RemoteClients
from tests.dbservers import redis_server

#: Each test a lobby of its own: channels carry its name, so tests sharing a Redis are apart.
_lobbies = itertools.count(1)


@pytest.fixture
def bus_url(redis_url: str) -> str:
    return redis_url


def new_bus(url: str) -> Bus:
    """A bus for a lobby no other test uses."""
    bus = Bus(url)
    bus.serve(f"test-{next(_lobbies)}")
    return bus


async def heard_on(bus: Bus, channel: str, count: int) -> list[BusMessage]:
    """The first ``count`` messages on ``channel`` (listening starts before this returns)."""
    heard: list[BusMessage] = []
    ready = asyncio.Event()
    listening = asyncio.create_task(
        bus.listen(lambda: {channel}, heard.append, lambda _: ready.set())
    )
    await asyncio.wait_for(ready.wait(), 5)
    try:
        async with asyncio.timeout(10):
            while len(heard) < count:
                await asyncio.sleep(0.01)
    finally:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
    return heard


async def test_messages_arrive_whole_and_in_order(bus_url: str) -> None:
    bus = new_bus(bus_url)
    await bus.open()
    channel = bus.node_channel("n1")
    sent = [Send(1, f"BOARDSTATUS:{n}") for n in range(500)]

    async def publish_all() -> None:
        await asyncio.sleep(0.1)
        await asyncio.gather(*(bus.publish(channel, message) for message in sent))

    heard, _ = await asyncio.gather(heard_on(bus, channel, len(sent)), publish_all())
    assert heard == sent
    await bus.close()


async def test_garbage_on_a_channel_is_logged_and_ignored(
    bus_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    bus = new_bus(bus_url)
    await bus.open()
    channel = bus.node_channel("n1")
    raw = redis.asyncio.Redis.from_url(bus_url)

    async def publish() -> None:
        await asyncio.sleep(0.1)
        await raw.publish(channel, b"not json")
        await bus.publish(channel, Abort(7))

    with caplog.at_level(logging.WARNING, "c4tui.server"):
        heard, _ = await asyncio.gather(heard_on(bus, channel, 1), publish())
    assert heard == [Abort(7)]
    assert "not c4tui's" in caplog.text
    await raw.aclose()
    await bus.close()


async def test_a_redis_that_goes_away_is_bus_lost_for_listeners_and_publishers() -> None:
    with redis_server() as url:
        bus = new_bus(url)
        await bus.open()
        ready = asyncio.Event()
        listening = asyncio.create_task(
            bus.listen(lambda: {bus.nodes_channel}, lambda _: None, lambda _: ready.set())
        )
        await asyncio.wait_for(ready.wait(), 5)
        with contextlib.suppress(redis.ConnectionError):
            redis.Redis.from_url(url).shutdown(nosave=True)
        with pytest.raises(BusLost, match="Redis at"):
            await asyncio.wait_for(listening, 10)
        with pytest.raises(BusLost, match="Redis at"):
            await bus.publish(bus.nodes_channel, Abort(1))
        await bus.close()
    with pytest.raises(BusLost, match=r"Connection refused|connecting"):
        await Bus(url).open()


async def test_two_lobbies_on_one_redis_never_hear_each_other(bus_url: str) -> None:
    ours, theirs = new_bus(bus_url), new_bus(bus_url)
    await ours.open()
    await theirs.open()

    async def both_publish() -> None:
        await asyncio.sleep(0.1)
        await theirs.publish(theirs.nodes_channel, Abort(1))  # not for us
        await ours.publish(ours.nodes_channel, Abort(2))

    heard, _ = await asyncio.gather(heard_on(ours, ours.nodes_channel, 1), both_publish())
    assert heard == [Abort(2)]
    await ours.close()
    await theirs.close()


async def test_a_line_for_a_client_the_leader_does_not_serve_cuts_it_off(bus_url: str) -> None:
    bus = new_bus(bus_url)
    await bus.open()

    async def never_served(*_: object) -> str:
        raise AssertionError("no client was opened")

    clients = RemoteClients(bus, never_served, itertools.count(1), 5.0)

    async def a_stray_line() -> None:
        await asyncio.sleep(0.1)
        clients.heard(Line("n2", 42, "DROP:3"))  # n2's client 42 ended here while away

    heard, _ = await asyncio.gather(heard_on(bus, bus.node_channel("n2"), 1), a_stray_line())
    assert heard == [Abort(42)]
    await clients.stop()
    await bus.close()


async def test_a_redis_password_may_come_from_the_environment_instead_of_the_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with redis_server() as url:
        admin = redis.asyncio.Redis.from_url(url)
        await admin.config_set("requirepass", "s3cret")
        await admin.aclose()
        monkeypatch.delenv("REDISCLI_AUTH", raising=False)
        with pytest.raises(BusLost, match=r"(?i)auth"):
            await new_bus(url).open()  # no password anywhere: Redis says so
        monkeypatch.setenv("REDISCLI_AUTH", "s3cret")  # as redis-cli reads it
        bus = new_bus(url)
        await bus.open()
        await bus.publish(bus.nodes_channel, Abort(1))
        assert "s3cret" not in bus.location
        await bus.close()
        with_password = url.replace("redis://", "redis://:s3cret@")
        monkeypatch.setenv("REDISCLI_AUTH", "wrong")  # the URL's own password comes first
        bus = new_bus(with_password)
        await bus.open()
        assert "s3cret" not in bus.location
        await bus.close()
