"""§9 on two nodes (real PostgreSQL, real Redis): a visit's words reach the leader from the
node that does not lead, as a connection's first line too, and its token logs in there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from c4tui.protocols import keys
from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Cluster, Node, two_nodes
from tests.net.lobby_client import LobbyClient
from tests.net.stores import store_at
from tests.net.test_lobby_keys import OTHER_KEY, PAGE_KEY, token
from tests.ssh.terminal import make_key


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, on a fresh database and a Redis of their own."""
    with redis_server() as bus:
        yield from two_nodes(tmp_path, postgres_url, bus)


async def visit_on_the_other_node(a: int, b: int, database: str) -> None:
    """The ssh door's visit in the shared store; its app speaks to node b, the leader answers."""
    store = store_at(database)
    await store.open()
    try:
        hashed, fingerprint = keys.token_hash(token(1)), keys.fingerprint_of(PAGE_KEY)
        await store.begin_visit(hashed, keys.Visit(fingerprint, PAGE_KEY), time.time() + 60)
    finally:
        await store.close()
    zoe = await LobbyClient.connect(b)
    assert await zoe.ask(f"KEYACCOUNT:{token(1)}") == "KEYACCOUNT:ACKSTATUS:1"  # first line
    assert await zoe.ask(f"KEYREGISTER:zoe:{token(1)}") == "KEYREGISTER:ACKSTATUS:0"
    assert await zoe.ask(f"LOGIN:zoe:{token(1)}") == "LOGIN:ACKSTATUS:0"
    added = f"KEYADD:ACKSTATUS:0:{keys.fingerprint_of(OTHER_KEY)}"
    assert await zoe.ask(f"KEYADD:{OTHER_KEY}") == added
    assert await zoe.ask(f"KEYREMOVE:{keys.fingerprint_of(OTHER_KEY)}") == "KEYREMOVE:ACKSTATUS:0"
    assert await zoe.ask("KEYS") == f"KEYS:ACKSTATUS:0:{fingerprint}"
    assert await zoe.ask(f"KEYBIND:{token(1)}") == "KEYBIND:ACKSTATUS:0"
    again = await LobbyClient.connect(a)  # the leader itself: the same account by the key
    assert await again.ask(f"KEYREGISTER:zed:{token(1)}") == "KEYREGISTER:ACKSTATUS:5"


def test_a_visits_words_are_forwarded_from_the_node_that_does_not_lead(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    conversation = visit_on_the_other_node(a.port, b.port, postgres_url)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))
    a.wait_until_said("registered zoe with an ssh key")  # the leader served it


@pytest.fixture
def guest_nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Nodes ``a`` (leading) and ``b``, each with an ssh door that takes guests (§9)."""
    host_key = make_key(tmp_path / "ssh_host_ed25519_key")
    door = ("--ssh-port", "0", "--ssh-host-key", str(host_key), "--ssh-guests")
    with redis_server() as bus:
        cluster = Cluster(tmp_path, postgres_url, bus)
        try:
            first = cluster.start("a", *door)
            first.wait_until_said("leads the lobby now")
            yield first, cluster.start("b", *door)
        finally:
            cluster.stop()


async def guest_on_the_other_node(b: int, database: str) -> None:
    """A guest at node b: the leader knows the nodes take guests, and checks the visit."""
    store = store_at(database)
    await store.open()
    try:
        hashed, fingerprint = keys.token_hash(token(2)), keys.fingerprint_of(PAGE_KEY)
        await store.begin_visit(hashed, keys.Visit(fingerprint, PAGE_KEY), time.time() + 60)
    finally:
        await store.close()
    guest = await LobbyClient.connect(b)
    assert await guest.ask(f"KEYGUEST:{token(2)}") == "KEYGUEST:ACKSTATUS:0:guest-1"  # first line
    assert await guest.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"
    assert await guest.ask("QUICKPLAY") == "BADAUTH"


def test_a_guest_is_served_through_the_node_that_does_not_lead(
    guest_nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = guest_nodes
    conversation = guest_on_the_other_node(b.port, postgres_url)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))
    a.wait_until_said("watches as guest-1")  # the leader served it
