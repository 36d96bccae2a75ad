"""Two nodes, one lobby, on a real PostgreSQL and a real Redis (issue 31).

Players connected to different nodes meet in rooms, play, chat and are rated; kill -9
of either node in the middle of a game loses it not: its players log in again on the
other node and the game goes on from the database.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from c4tui.client.comeback import Account, Comeback, come_back
from c4tui.protocols import lobby as wire
from tests.dbservers import redis_server
from tests.net.cluster.nodes import CONVERSATION_SECONDS, Node, logged_in_again, two_nodes
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_lobby_restore import COLUMNS, SIX_PLAYED
from tests.net.test_lobby_server import play
from tests.net.test_standing import RATED_4_BY_4, ann_beats_bob, begin, expected_after_a_win


@pytest.fixture
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a`` (leading) and node ``b``, on a fresh database and a Redis of their own."""
    with redis_server() as bus:
        yield from two_nodes(tmp_path, postgres_url, bus)


async def meet_play_chat_and_be_rated(a: int, b: int) -> None:
    ann, bob = await logged_in(a, "ann"), await logged_in(b, "bob")
    assert "ann" in await bob.ask("PLAYERS")  # who is online, whichever node they are on
    assert await ann.ask("CREATE:r1" + RATED_4_BY_4) == "CREATE:ACKSTATUS:0"
    assert await bob.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:r1"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    for client in (ann, bob):
        assert (await client.line()).startswith("BEGIN:ann:bob:")
    await bob.send("CHAT:hello from node b")
    for client in (ann, bob):
        assert await client.line() == "CHAT:bob:hello from node b"
    await ann_beats_bob(ann, bob)
    winner, loser = expected_after_a_win()
    up, down = round(winner.rating), round(loser.rating)
    for client in (ann, bob):  # rated in the transaction that kept the end, told to both
        assert await client.line() == f"RATING:ann:{up}:{up - 1500:+d}"
        assert await client.line() == f"RATING:bob:{down}:{down - 1500:+d}"


def test_players_on_two_nodes_meet_play_chat_and_are_rated(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    asyncio.run(asyncio.wait_for(meet_play_chat_and_be_rated(a.port, b.port), CONVERSATION_SECONDS))


async def six_moves(red_port: int, yellow_port: int) -> tuple[LobbyClient, LobbyClient]:
    """ann (on one node) and bob (on the other) play the first six moves of a 7 x 6 game."""
    ann, bob = await logged_in(red_port, "ann"), await logged_in(yellow_port, "bob")
    await begin(ann, bob, "r1", ":7:6:classic")
    for index, column in enumerate(COLUMNS[:-1]):
        mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
        await play(mover, [other], f"DROP:{column}", "BOARDSTATUS")
    return ann, bob


async def rejoined(client: LobbyClient) -> None:
    """``client`` is back in r1, where the six moves were played."""
    assert await client.line() == "REJOIN:r1"
    assert await client.line() == "INPROGRESS:ann:bob:7:6:classic"
    assert await client.line() == SIX_PLAYED


async def next_besides_presence(client: LobbyClient) -> str:
    """The next line that is not about who is away or back."""
    while re.match(r"(AWAY|BACK):", line := await client.line()):
        pass
    return line


async def the_game_survives(victim: Node, survivor: Node) -> None:
    """ann plays on the survivor, bob on the victim; after the kill both finish on the survivor."""
    ann, _ = await six_moves(survivor.port, victim.port)  # bob's connection dies with b
    victim.kill()
    clients = {"ann": ann}
    if victim.name == "a":  # the leader died: everyone comes back, to the node taking over
        survivor.wait_until_said("leads the lobby now")
        clients["ann"] = await logged_in_again(survivor.port, "ann")
        await rejoined(clients["ann"])
    clients["bob"] = await logged_in_again(survivor.port, "bob")
    await rejoined(clients["bob"])
    await clients["ann"].send(f"DROP:{COLUMNS[-1]}")
    end = await next_besides_presence(clients["ann"])
    assert end.startswith("GAMEEND:") and end.endswith(":0:ann"), end
    assert await next_besides_presence(clients["bob"]) == end


@pytest.mark.parametrize("victim", ["a", "b"], ids=["the leader", "the other node"])
def test_killing_either_node_mid_game_loses_no_game(
    nodes: tuple[Node, Node], postgres_url: str, victim: str
) -> None:
    a, b = nodes
    killed, survivor = (a, b) if victim == "a" else (b, a)
    asyncio.run(asyncio.wait_for(the_game_survives(killed, survivor), CONVERSATION_SECONDS))
    with psycopg.connect(postgres_url) as database:
        rows = database.execute("SELECT winner, reason, ended IS NOT NULL FROM games").fetchall()
        moves = database.execute("SELECT count(*) FROM moves").fetchone()
    assert rows == [("ann", "four", True)] and moves == (7,), (rows, moves)


async def our_client_comes_back(victim: Node, survivor: Node) -> None:
    """c4tui's own client, knowing both nodes, comes back to the survivor by itself."""
    await six_moves(victim.port, survivor.port)  # ann's connection is on the victim
    victim.kill()
    nodes = f"127.0.0.1:{victim.port},127.0.0.1:{survivor.port}"  # as typed in the host field
    comeback = await come_back(Account(nodes, victim.port, "ann", "pw"), delays=(0.5,) * 40)
    assert isinstance(comeback, Comeback), comeback
    assert comeback.rejoined == "r1"
    assert await comeback.link.pushed() == wire.Rejoin("r1")
    start = await comeback.link.pushed()
    assert isinstance(start, wire.InProgress) and start.to_move == "ann"
    await comeback.link.close()


@pytest.mark.parametrize("victim", ["a", "b"], ids=["the leader", "the other node"])
def test_our_client_comes_back_through_the_other_node(
    nodes: tuple[Node, Node], victim: str
) -> None:
    a, b = nodes
    killed, survivor = (a, b) if victim == "a" else (b, a)
    asyncio.run(asyncio.wait_for(our_client_comes_back(killed, survivor), CONVERSATION_SECONDS))
