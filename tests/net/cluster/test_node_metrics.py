"""Each node of a cluster serves its own metrics (§7), on a real PostgreSQL and a real Redis.

A node counts the connections made to it; the leader, which serves every lobby line,
counts the logins and the games of players on either node.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Cluster, Node
from tests.net.lobby_client import logged_in
from tests.net.test_lobby_server import play
from tests.net.test_metrics import metrics_port_in, scrape, value


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, each serving its metrics on a port of its own."""
    with redis_server() as bus:
        cluster = Cluster(tmp_path, postgres_url, bus)
        try:
            leader = cluster.start("a", "--metrics-port", "0")
            leader.wait_until_said("leads the lobby now")
            yield leader, cluster.start("b", "--metrics-port", "0")
        finally:
            cluster.stop()


async def a_game_across_nodes(a: Node, b: Node) -> None:
    ann, bob = await logged_in(a.port, "ann"), await logged_in(b.port, "bob")
    assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    for client in (ann, bob):
        assert (await client.line()).startswith("BEGIN:ann:bob:")
    await play(ann, [bob], "DROP:4", "BOARDSTATUS")
    leader, other = [await asyncio.to_thread(scrape, metrics_port_in(n.log)) for n in (a, b)]
    assert value(leader, "c4tui_connections", protocol="lobby") == 1  # ann's socket
    assert value(other, "c4tui_connections", protocol="lobby") == 1  # bob's, forwarded
    assert value(leader, "c4tui_logins_total", result="ok") == 2  # the leader serves both
    assert value(other, "c4tui_logins_total", result="ok") == 0
    assert value(leader, "c4tui_games_in_progress") == 1
    assert value(other, "c4tui_games_in_progress") == 0
    assert value(leader, "c4tui_moves_total") == value(leader, "c4tui_move_commit_seconds_count")
    assert value(leader, "c4tui_moves_total") == 1
    for client in (ann, bob):
        await client.close()


def test_each_node_serves_its_own_metrics(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    assert metrics_port_in(a.log) != metrics_port_in(b.log)
    asyncio.run(asyncio.wait_for(a_game_across_nodes(a, b), CONVERSATION_SECONDS))
