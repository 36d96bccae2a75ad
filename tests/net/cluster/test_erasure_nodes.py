"""An account's deletion by ``c4tui admin`` reaches it on a node that does not lead (§7).

The change feed keeps only the account's stand-in (``deleted-<n>``); the leader reads
it back as the folded name and closes the account's connection, registered as ``Zoe``,
on the other node within 5 seconds: ``BYE:deleted``, and no node lets it in again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Node, two_nodes
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_moderation_admin import ACTED_WITHIN, admin


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, on a fresh database and a Redis of their own."""
    with redis_server() as bus:
        yield from two_nodes(tmp_path, postgres_url, bus)


async def deleted_on_the_other_node(a: int, b: int, database: str) -> None:
    zoe = await logged_in(b, "Zoe")
    result = await admin(database, "delete", "Zoe", "--yes")
    assert result.returncode == 0, result.stderr
    async with asyncio.timeout(ACTED_WITHIN):
        assert await zoe.line() == "BYE:deleted"
    assert await zoe.closed()
    for port in (a, b):
        again = await LobbyClient.connect(port)
        assert await again.ask("LOGIN:Zoe:pw") == "LOGIN:ACKSTATUS:1"
        await again.close()


def test_a_deletion_by_c4tui_admin_reaches_a_player_on_the_node_that_does_not_lead(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    conversation = deleted_on_the_other_node(a.port, b.port, postgres_url)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))
    a.wait_until_said("moderators' change 1: delete zoe")  # the leader acted
    with psycopg.connect(postgres_url) as connection:
        kept = connection.execute("SELECT name FROM moderation_events").fetchall()
    assert kept == [("deleted-1",)]  # the name itself only in deleted_accounts
