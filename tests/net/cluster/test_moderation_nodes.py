"""A moderator's ban through ``c4tui admin`` reaches every node of a cluster (spec §7).

Two real nodes on a real PostgreSQL and a real Redis: the player is logged in on the
node that does not lead (its lines go to the leader over the bus), the ban is made
by ``c4tui admin`` on the database alone, and within 5 seconds the player hears
BYE:banned there, its game ends as a forfeit for the opponent on the other node, and
neither node lets it log in again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Node, two_nodes
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_moderation_admin import ACTED_WITHIN, admin
from tests.net.test_standing import begin


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, on a fresh database and a Redis of their own."""
    with redis_server() as bus:
        yield from two_nodes(tmp_path, postgres_url, bus)


async def banned_on_the_other_node(a: int, b: int, database: str) -> None:
    ann, bob = await logged_in(a, "ann"), await logged_in(b, "bob")
    await begin(ann, bob, "r1", ":4:4:classic")
    result = await admin(database, "ban", "bob", "--hours", "1", "--reason", "cheating")
    assert result.returncode == 0, result.stderr
    began = time.monotonic()
    async with asyncio.timeout(ACTED_WITHIN):
        assert await bob.line() == "GAMEEND:" + "0" * 16 + ":2:ann"
        assert await bob.line() == "BYE:banned"
        assert await ann.line() == "GAMEEND:" + "0" * 16 + ":2:ann"
    assert time.monotonic() - began < ACTED_WITHIN
    assert await bob.closed()
    for port in (a, b):
        again = await LobbyClient.connect(port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        await again.close()
    history = await ann.ask("HISTORY")
    game = history.rsplit(":", 1)[1]
    assert ":ann:bob:4:4:classic:ann:forfeit:" in await ann.ask(f"GAME:{game}")


def test_a_ban_by_c4tui_admin_reaches_a_player_on_the_node_that_does_not_lead(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    conversation = banned_on_the_other_node(a.port, b.port, postgres_url)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))
    a.wait_until_said("moderators' change 1: ban bob")  # the leader acted
