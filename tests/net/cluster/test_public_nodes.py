"""§7 on two nodes (real PostgreSQL, real Redis): the leader counts every node's clients by
their own addresses, and holds the blocks, also after it died and another node took over."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Cluster, Node, logged_in_again
from tests.net.lobby_client import logged_in
from tests.net.test_lobby_table_talk import exchange
from tests.net.test_public_limits import ELSEWHERE, connect_from

CASUAL = "4:4:classic:casual"


@pytest.fixture
def limited_nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, two registrations allowed per address an hour."""
    with redis_server() as bus:
        cluster = Cluster(tmp_path, postgres_url, bus)
        try:
            first = cluster.start("a", "--max-registrations", "2")
            first.wait_until_said("leads the lobby now")
            yield first, cluster.start("b", "--max-registrations", "2")
        finally:
            cluster.stop()


async def register(port: int, address: str, user: str) -> str:
    """REGISTER ``user`` on the node at ``port``, from ``address``: the answer."""
    client = await connect_from(port, address)
    try:
        return await client.ask(f"REGISTER:{user}:pw")
    finally:
        await client.close()


async def registrations_counted_by_address_on_the_leader(a: int, b: int) -> None:
    assert await register(b, "127.0.0.1", "x1") == "REGISTER:ACKSTATUS:0"  # forwarded
    assert await register(a, "127.0.0.1", "x2") == "REGISTER:ACKSTATUS:0"  # served here
    assert await register(b, "127.0.0.1", "x3") == "REGISTER:ACKSTATUS:3"  # both nodes' count
    assert await register(a, "127.0.0.1", "x3") == "REGISTER:ACKSTATUS:3"
    # Another address through the bus is its own: the address crossed with the client.
    assert await register(b, ELSEWHERE, "y1") == "REGISTER:ACKSTATUS:0"
    assert await register(a, ELSEWHERE, "y2") == "REGISTER:ACKSTATUS:0"
    assert await register(b, ELSEWHERE, "y3") == "REGISTER:ACKSTATUS:3"


def test_the_leader_counts_registrations_by_each_clients_own_address(
    limited_nodes: tuple[Node, Node],
) -> None:
    a, b = limited_nodes
    counting = registrations_counted_by_address_on_the_leader(a.port, b.port)
    asyncio.run(asyncio.wait_for(counting, CONVERSATION_SECONDS))
    assert a.said(f"from {ELSEWHERE}")  # the leader's log names a forwarded client's address


async def blocks_outlive_their_leader(a: Node, b: Node) -> None:
    """ann and bob, on node b, block; the leader a dies; b, leading now, still keeps them apart."""
    ann, bob = await logged_in(b.port, "ann"), await logged_in(b.port, "bob")
    assert await ann.ask("BLOCK:bob") == "BLOCK:ACKSTATUS:0"  # served by a, through the bus
    assert await bob.ask(f"CHALLENGE:ann:{CASUAL}") == "CHALLENGE:ACKSTATUS:1"
    a.kill()
    b.wait_until_said("leads the lobby now")
    ann, bob = await logged_in_again(b.port, "ann"), await logged_in_again(b.port, "bob")
    await exchange(
        {"ann": ann, "bob": bob},
        f"""
        bob> CHALLENGE:ann:{CASUAL}
        bob< CHALLENGE:ACKSTATUS:1
        ann> CREATE:r1
        ann< CREATE:ACKSTATUS:0
        bob> ROOMLIST:PLAYER
        bob< ROOMLIST:ACKSTATUS:0:
        bob> JOIN:r1:PLAYER
        bob< JOIN:ACKSTATUS:1
        ann> BLOCKS
        ann< BLOCKS:ACKSTATUS:0:bob
        """,
    )  # the node that took the lobby over loaded the blocks with the games


def test_a_node_taking_the_lobby_over_holds_the_blocks(
    limited_nodes: tuple[Node, Node],
) -> None:
    a, b = limited_nodes
    asyncio.run(asyncio.wait_for(blocks_outlive_their_leader(a, b), CONVERSATION_SECONDS))
