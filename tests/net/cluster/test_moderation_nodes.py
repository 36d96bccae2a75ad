"""A moderator's ban through ``c4tui admin`` reaches every node of a cluster (spec §7),
and bans and mutes outlive the leader that acted on them.

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
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Node, logged_in_again, two_nodes
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_moderation_admin import ACTED_WITHIN, admin, within
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


async def sanctions_outlive_their_leader(a: Node, b: Node, database: str) -> None:
    """On node b: cid muted and bob banned by c4tui admin; the leader a dies; b, leading
    now, still refuses bob, still mutes cid, and acts on what the admin does next."""
    bob, cid = await logged_in(b.port, "bob"), await logged_in(b.port, "cid")
    assert (await admin(database, "mute", "cid", "--minutes", "30")).returncode == 0
    assert await cid.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"

    async def muted() -> bool:
        return await cid.ask("CHAT:hello") == "CHAT:ACKSTATUS:1"

    await within(ACTED_WITHIN, muted)
    assert (await admin(database, "ban", "bob")).returncode == 0
    async with asyncio.timeout(ACTED_WITHIN):
        assert await bob.line() == "BYE:banned"
    a.kill()
    b.wait_until_said("leads the lobby now")
    cid = await logged_in_again(b.port, "cid")
    assert await cid.ask("CREATE:r2") == "CREATE:ACKSTATUS:0"
    assert await cid.ask("CHAT:still muted?") == "CHAT:ACKSTATUS:1"  # read at login, on b
    again = await LobbyClient.connect(b.port)
    assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
    assert (await admin(database, "unban", "bob")).returncode == 0
    assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
    assert (await admin(database, "ban", "cid", "--reason", "after the takeover")).returncode == 0
    async with asyncio.timeout(ACTED_WITHIN):  # b reads the feed now, from where it took over
        assert await cid.line() == "BYE:banned"
    assert await again.quiet(1.5)  # the old ban, lifted, closes nothing on the new leader


def test_mutes_and_bans_hold_when_the_other_node_takes_the_lobby_over(
    nodes: tuple[Node, Node], postgres_url: str
) -> None:
    a, b = nodes
    conversation = sanctions_outlive_their_leader(a, b, postgres_url)
    asyncio.run(asyncio.wait_for(conversation, CONVERSATION_SECONDS))
