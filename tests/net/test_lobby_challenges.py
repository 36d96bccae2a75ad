"""Challenges, rematches and who is online, over real sockets (spec §5.5, PLAYERS)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_server import play


async def test_a_challenge_accepted_begins_a_kept_game_and_players_says_who_is_busy(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert (
            await ann.ask("PLAYERS")
            == "PLAYERS:ACKSTATUS:0:ann=1500=free=human,bob=1500=free=human"
        )
        assert await ann.ask("CHALLENGE:bob:7:6:classic:rated:3+2") == "CHALLENGE:ACKSTATUS:0"
        assert await bob.line() == "CHALLENGED:ann:7:6:classic:rated:3+2"
        assert await bob.ask("ACCEPT:ann") == "ACCEPT:ACKSTATUS:0"
        assert await bob.line() == "BEGIN:ann:bob:7:6:classic"
        assert await ann.line() == "BEGIN:ann:bob:7:6:classic"
        for clock in (await ann.line(), await bob.line()):  # a timed game: red's clock runs
            assert re.fullmatch(r"CLOCK:(180000|17[0-9]{4}):180000", clock)
        assert (await ann.ask("ROOMINFO:challenge-1")).endswith(":playing:rated:3+2")
        cid = await logged_in(server.port, "cid")
        answer = await cid.ask("PLAYERS")
        assert (
            answer
            == "PLAYERS:ACKSTATUS:0:ann=1500=busy=human,bob=1500=busy=human,cid=1500=free=human"
        )
        assert await cid.ask("CHALLENGE:ann:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:2"
        assert await cid.ask("PLAYERS:x") == "PLAYERS:ACKSTATUS:1"
        await play(bob, [ann], "FORFEIT", "GAMEEND")
        assert await ann.ask("HISTORY") != "HISTORY:ACKSTATUS:0:"  # the game was kept


async def test_a_decline_and_a_challenger_who_leaves(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("CHALLENGE:ann:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:1"
        assert await ann.ask("CHALLENGE:zed:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:1"
        assert await ann.ask("CHALLENGE:bob:7:6:chess:casual") == "CHALLENGE:ACKSTATUS:3"
        assert await ann.ask("CHALLENGE:bob:5:5:popout:casual:1+0") == "CHALLENGE:ACKSTATUS:0"
        assert await bob.line() == "CHALLENGED:ann:5:5:popout:casual:1+0"
        assert await bob.ask("DECLINE:ann") == "DECLINE:ACKSTATUS:0"
        assert await ann.line() == "DECLINED:bob"
        assert await ann.ask("CHALLENGE:bob:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await bob.line()
        await ann.close()
        assert await bob.ask("ACCEPT:ann") == "ACCEPT:ACKSTATUS:1"  # the challenger is gone
        cid = await logged_in(server.port, "cid")
        assert await cid.ask("CHALLENGE:bob:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await bob.line()
        assert await bob.ask("QUICKPLAY") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await cid.line() == "DECLINED:bob"  # bob went into a room


async def test_a_rematch_swaps_the_colours(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("REMATCH") == "REMATCH:ACKSTATUS:1"  # no game yet
        assert await ann.ask("CREATE:r:4:4:classic:casual") == "CREATE:ACKSTATUS:0"  # ann red
        assert await bob.ask("JOIN:r:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        await play(ann, [bob], "FORFEIT", "GAMEEND")
        assert await ann.ask("REMATCH") == "REMATCH:ACKSTATUS:0"
        assert await bob.line() == "CHALLENGED:ann:4:4:classic:casual:-"
        assert await bob.ask("REMATCH") == "REMATCH:ACKSTATUS:0"  # both asked: it begins
        assert await bob.line() == "BEGIN:bob:ann:4:4:classic"
        assert await ann.line() == "BEGIN:bob:ann:4:4:classic"


async def test_bots_are_marked_and_rated_quick_play_keeps_two_apart(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        for user in ("robo", "droid"):
            client = await LobbyClient.connect(server.port)
            assert await client.ask(f"REGISTER:{user}:pw") == "REGISTER:ACKSTATUS:0"
            await client.close()
        with sqlite3.connect(tmp_path / "accounts.sqlite3") as database:
            database.execute("UPDATE accounts SET bot = 1")
        robo = await LobbyClient.connect(server.port)
        droid = await LobbyClient.connect(server.port)
        for client, user in ((robo, "robo"), (droid, "droid")):
            assert await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"
        ann = await logged_in(server.port, "ann")
        players = await ann.ask("PLAYERS")
        assert (
            players
            == "PLAYERS:ACKSTATUS:0:ann=1500=free=human,droid=1500=free=bot,robo=1500=free=bot"
        )
        assert await robo.ask("QUICKPLAY:7:6:classic:rated") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await droid.ask("QUICKPLAY:7:6:classic:rated") == "QUICKPLAY:ACKSTATUS:0:quick-2"
        assert await ann.ask("QUICKPLAY:7:6:classic:rated") == "QUICKPLAY:ACKSTATUS:0:quick-1"
