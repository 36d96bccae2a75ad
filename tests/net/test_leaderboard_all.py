"""The leaderboard with its provisional players (LEADERBOARD:ALL, c4tui's own): the
established first, as LEADERBOARD lists them, then the provisional ones, marked."""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.client.link import LobbyLink
from c4tui.client.standing import leaders
from c4tui.protocols.competition import LeaderEntry
from tests.net.lobby_client import lobby_server, logged_in
from tests.net.stores import run_sql
from tests.net.test_lobby_console import TIMEOUT, console_user

#: name, rating, deviation, rated games: two established, two provisional, one never rated.
STANDINGS = [
    ("est1", 1700.0, 50.0, 20),
    ("est2", 1600.0, 60.0, 15),
    ("new1", 1800.0, 200.0, 2),
    ("new2", 1520.0, 300.0, 1),
    ("never", 1900.0, 350.0, 0),
]


def with_standings(db: str) -> None:
    run_sql(
        db,
        "INSERT INTO accounts (name, hash, created, rating, deviation, rated_games)"
        " VALUES (?, ?, 0, ?, ?, ?)",
        [(name, b"x", *numbers) for name, *numbers in STANDINGS],
    )


async def test_leaderboard_all_lists_the_provisional_players_below_marked(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await logged_in(server.port, "ann")
        assert await ann.ask("LEADERBOARD:ALL") == "LEADERBOARD:ACKSTATUS:0:"
        with_standings(lobby_db)
        assert await ann.ask("LEADERBOARD") == "LEADERBOARD:ACKSTATUS:0:est1=1700,est2=1600"
        assert await ann.ask("LEADERBOARD:ALL") == (
            "LEADERBOARD:ACKSTATUS:0:est1=1700,est2=1600,new1=1800?,new2=1520?"
        )
        assert await ann.ask("LEADERBOARD:all") == "LEADERBOARD:ACKSTATUS:1"


async def test_the_client_reads_them_and_an_older_server_still_answers(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        link = await LobbyLink.open("127.0.0.1", server.port)
        await link.register("ann", "pw")
        await link.login("ann", "pw")
        with_standings(str(tmp_path / "accounts.sqlite3"))
        assert await link.leaderboard() == [
            LeaderEntry("est1", 1700),
            LeaderEntry("est2", 1600),
            LeaderEntry("new1", 1800, provisional=True),
            LeaderEntry("new2", 1520, provisional=True),
        ]
        board = await leaders(link)
        assert [leader.line.split() for leader in board[1:3]] == [
            ["2.", "est2", "1600"],
            ["3.", "new1", "1800", "(provisional)"],
        ]
        await link.close()


async def test_the_console_shows_provisional_players_below_the_others(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "bob")).close()
        with_standings(str(tmp_path / "accounts.sqlite3"))
        ann = await console_user(server.port, "ann")
        await ann.type("leaderboard")
        assert (await ann.until(" 1. ")).split()[-2:] == ["est1", "1700"]
        assert (await ann.until(" 2. ")).split() == ["2.", "est2", "1600"]
        assert (await ann.until(" 3. ")).split() == ["3.", "new1", "1800", "(provisional)"]
        assert (await ann.until(" 4. ")).split() == ["4.", "new2", "1520", "(provisional)"]
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0
