"""What one server does for its lobby, two nodes do across them: challenges, quick play,
the newest login, the login throttle; and what a node does when it loses the bus or
the database (it stops taking lobby clients, or stops, and says so: never two lobbies)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.messages import Leading
from c4tui.server.cluster.node import BEAT, SILENCE
from c4tui.server.postgres_store import PostgresStore
from tests.dbservers import PostgresServer, redis_server
from tests.net.cluster.nodes import (
    CONVERSATION_SECONDS,
    Cluster,
    Node,
    logged_in_again,
    two_nodes,
)
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in


@pytest.fixture
def bus() -> Iterator[str]:
    """A Redis of the test's own (one test stops it)."""
    with redis_server() as url:
        yield url


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str, bus: str) -> Iterator[tuple[Node, Node]]:
    yield from two_nodes(tmp_path, postgres_url, bus)


def talk(conversation: Coroutine[object, object, object]) -> None:
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))


async def challenge_and_quick_play(a: int, b: int) -> None:
    ann, bob = await logged_in(a, "ann"), await logged_in(b, "bob")
    assert await bob.ask("CHALLENGE:ann:6:5:classic:casual") == "CHALLENGE:ACKSTATUS:0"
    assert await ann.line() == "CHALLENGED:bob:6:5:classic:casual:-"
    assert await ann.ask("DECLINE:bob") == "DECLINE:ACKSTATUS:0"
    assert await bob.line() == "DECLINED:ann"
    cid, dan = await logged_in(b, "cid"), await logged_in(a, "dan")
    assert (await cid.ask("QUICKPLAY:7:6:classic")).startswith("QUICKPLAY:ACKSTATUS:0:")
    assert (await dan.ask("QUICKPLAY:7:6:classic")).startswith("QUICKPLAY:ACKSTATUS:0:")
    begins = {await cid.line(), await dan.line()}  # paired across the nodes
    assert len(begins) == 1 and begins.pop().startswith("BEGIN:")


def test_a_challenge_and_quick_play_pair_players_on_different_nodes(
    nodes: tuple[Node, Node],
) -> None:
    a, b = nodes
    talk(challenge_and_quick_play(a.port, b.port))


async def newest_login_and_throttle(a: int, b: int) -> None:
    first = await logged_in(a, "ann")
    second = await LobbyClient.connect(b)
    assert await second.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
    assert await first.line() == "BYE:elsewhere"  # the newest login wins, on any node
    for port in (a, b, a):  # three wrong passwords, spread over the nodes
        guesser = await LobbyClient.connect(port)
        assert await guesser.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
    slowed = await LobbyClient.connect(b)
    began = time.monotonic()
    assert await slowed.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
    assert time.monotonic() - began >= 0.9  # the fourth failure waits, counted cluster-wide


def test_the_newest_login_and_the_throttle_count_across_nodes(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    talk(newest_login_and_throttle(a.port, b.port))


async def refused_off_the_bus(port: int) -> None:
    client = await LobbyClient.connect(port)
    await client.send("LOGIN:ann:pw")
    assert await client.line() == "BYE:shutdown"


def test_a_node_that_loses_the_bus_takes_no_lobby_client_and_says_so(
    nodes: tuple[Node, Node], bus: str
) -> None:
    a, b = nodes
    with contextlib.suppress(redis.ConnectionError):  # it goes without answering
        redis.Redis.from_url(bus).shutdown(nosave=True)
    for node in (a, b):
        node.wait_until_said("lost the bus")
    talk(refused_off_the_bus(b.port))
    b.wait_until_said("refused: off the bus")


async def a_game_begun_on(port: int) -> tuple[LobbyClient, LobbyClient]:
    ann, bob = await logged_in(port, "ann"), await logged_in(port, "bob")
    assert await ann.ask("CREATE:r1:7:6:classic") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    assert (await ann.line()).startswith("BEGIN:")
    return ann, bob


#: The sessions holding an advisory lock: the leader's.
LEADERS = "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"


def end_sessions(database: str, which: str) -> None:
    """PostgreSQL ends the other sessions on ``database`` that ``which`` (SQL) picks."""
    with psycopg.connect(database, autocommit=True) as connection:
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            f" AND {which}"
        )


async def back_on(port: int) -> None:
    ann = await logged_in_again(port, "ann")
    assert await ann.line() == "REJOIN:r1"


def test_a_leader_that_loses_the_database_stops_and_the_other_node_takes_over(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    talk(a_game_begun_on(b.port))
    end_sessions(postgres_url, f"pid IN ({LEADERS})")  # a's session ends
    assert a.process.wait(30) == 1  # it noticed, or heard b lead first: it stops either way
    assert a.said("lost the database") or a.said("lost the lock")
    b.wait_until_said("leads the lobby now")
    talk(back_on(b.port))


def test_two_lobbies_sharing_one_redis_keep_apart(
    tmp_path: Path, postgres_server: PostgresServer, bus: str
) -> None:
    """Each lobby's leader leads on: neither hears the other's (its channels are its own)."""
    lobbies = [Cluster(tmp_path / name, postgres_server.database(), bus) for name in "xy"]
    try:
        leaders = []
        for cluster, name in zip(lobbies, "xy", strict=True):
            cluster.folder.mkdir()
            leaders.append(cluster.start(name))
        for leader in leaders:
            leader.wait_until_said("leads the lobby now")
        time.sleep(2 * SILENCE)  # long enough to hear the other's heartbeats, were they shared
        assert all(leader.process.poll() is None for leader in leaders)
        assert not any(leader.said("stops leading") for leader in leaders)
    finally:
        for cluster in lobbies:
            cluster.stop()


def test_a_node_that_lost_its_database_session_reconnects_and_can_still_take_over(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    talk(a_game_begun_on(b.port))
    end_sessions(postgres_url, f"pid NOT IN ({LEADERS})")  # b's session ends
    b.wait_until_said("reaches the database again")
    a.kill()
    b.wait_until_said("leads the lobby now")
    talk(back_on(b.port))


async def a_stale_leader_speaks(database: str, bus: str) -> None:
    """A dead leader's last heartbeat, arriving after another node took the lock."""
    store = PostgresStore(database, TEST_ROUNDS)
    await store.open()
    ghost = Bus(bus)
    ghost.serve(await store.lobby_identity())
    await ghost.open()
    await ghost.publish(ghost.nodes_channel, Leading("ghost-000000"))
    await ghost.close()
    await store.close()


def test_a_leader_that_hears_a_stale_leader_checks_its_lock_and_leads_on(
    nodes: tuple[Node, Node], postgres_url: str, bus: str
) -> None:
    a, _ = nodes
    talk(a_stale_leader_speaks(postgres_url, bus))
    a.wait_until_said("node ghost-000000 says it leads: node a-")
    time.sleep(2 * BEAT)
    assert a.process.poll() is None and not a.said("stops leading")
    talk(a_game_begun_on(a.port))  # and it serves the lobby still
