"""§7 on a node's own tic-tac-toe port, on a node that does not lead (real PostgreSQL, Redis).

Each node serves tic-tac-toe rooms of its own, with the lobby's accounts; the leader
serves every lobby line. So blocks and moderators' changes must reach those rooms from
the store: the blocks kept when the node starts, and every change after it through
the change feed within §7's 5 seconds. Each node's log says every moderator's act:
who, what, to whom, why.
"""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dbservers import free_port, redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Cluster, Node, logged_in_again
from tests.net.lobby_client import logged_in
from tests.net.test_moderation_admin import ACTED_WITHIN, admin
from tests.net.tictactoe_client import TicTacToeClient


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str) -> Iterator[Cluster]:
    """A cluster whose node ``a`` leads; the test starts the others."""
    with redis_server() as bus:
        nodes = Cluster(tmp_path, postgres_url, bus)
        try:
            nodes.start("a").wait_until_said("leads the lobby now")
            yield nodes
        finally:
            nodes.stop()


def tictactoe_node(cluster: Cluster) -> tuple[Node, int]:
    """Node ``b`` beside the leader, with a tic-tac-toe port (the second value)."""
    port = free_port()
    return cluster.start("b", "--tictactoe-port", str(port)), port


async def signed_in(port: int, user: str) -> TicTacToeClient:
    client = TicTacToeClient(*await asyncio.open_connection("127.0.0.1", port))
    await client.ask(f"LOGIN:{user}:pw", "LOGIN:ACKSTATUS:0")
    return client


async def _blocks_on_the_other_nodes_port(cluster: Cluster) -> None:
    lobby = cluster.nodes[0].port
    ann = await logged_in(lobby, "ann")
    for name in ("mallory", "carol"):
        await (await logged_in(lobby, name)).close()
    assert await ann.ask("BLOCK:mallory") == "BLOCK:ACKSTATUS:0"
    _, port = await asyncio.to_thread(tictactoe_node, cluster)  # after the block
    ann_t = await signed_in(port, "ann")
    await ann_t.ask("CREATE:r", "CREATE:ACKSTATUS:0")
    mallory = await signed_in(port, "mallory")
    await mallory.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:1")  # the block kept, held there
    assert await ann.ask("BLOCK:carol") == "BLOCK:ACKSTATUS:0"  # while node b runs
    await asyncio.sleep(ACTED_WITHIN)
    carol = await signed_in(port, "carol")
    await carol.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:1")
    ann = await logged_in_again(lobby, "ann")  # the tests' nodes let silence go in 5 s
    assert await ann.ask("UNBLOCK:mallory") == "UNBLOCK:ACKSTATUS:0"
    await asyncio.sleep(ACTED_WITHIN)
    mallory = await signed_in(port, "mallory")
    await mallory.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:0")  # unblocked there too
    await mallory.expect("BEGIN:ann:mallory")


def test_blocks_hold_on_a_tic_tac_toe_port_of_a_node_that_does_not_lead(
    cluster: Cluster,
) -> None:
    conversation = _blocks_on_the_other_nodes_port(cluster)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS + 2 * ACTED_WITHIN))


def test_every_node_logs_who_banned_whom_and_why(cluster: Cluster, postgres_url: str) -> None:
    b, _ = tictactoe_node(cluster)

    async def ban() -> None:
        await (await logged_in(cluster.nodes[0].port, "bob")).close()
        result = await admin(postgres_url, "ban", "bob", "--hours", "2", "--reason", "spam bot")
        assert result.returncode == 0, result.stderr

    asyncio.run(ban())
    said = f"ban bob by admin:{getpass.getuser()} until "
    for node in (cluster.nodes[0], b):
        node.wait_until_said(said, ACTED_WITHIN + 5)
        assert node.said(": spam bot ("), node.name
