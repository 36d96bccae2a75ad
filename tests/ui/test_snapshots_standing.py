"""Snapshots of a profile, the leaderboard and the password dialog, against a real server."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.client.link import LobbyLink
from c4tui.ui.screens.leaderboard import LeaderboardScreen
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.profile import ProfileScreen
from tests.net.lobby_client import LobbyClient
from tests.ui import test_snapshots_past_games
from tests.ui.helpers import SIZE, columns_fit, make_app
from tests.ui.test_lobby_app import text_of, until
from tests.ui.test_standing_app import establish

#: My games' server, with ann's two finished games (a fixture, used by ``standing_server``).
past_games_server = test_snapshots_past_games.past_games_server


@pytest.fixture
def standing_server(past_games_server: int, tmp_path: Path) -> int:
    """ann's games against bob (``past_games_server``), a bot, established ratings; its port."""

    async def add_a_bot() -> None:
        robo = await LobbyClient.connect(past_games_server)
        assert await robo.ask("REGISTERBOT:robo:pw") == "REGISTERBOT:ACKSTATUS:0"
        await robo.close()

    asyncio.run(add_a_bot())
    database = tmp_path / "a.sqlite3"
    establish(database)
    with sqlite3.connect(database) as db:  # apart from the bot's
        db.execute("UPDATE accounts SET rating = 1650.4 WHERE name = 'bob'")
    return past_games_server


async def anns_link(port: int) -> LobbyLink:
    link = await LobbyLink.open("127.0.0.1", port)
    await link.login("ann", "pw")
    return link


def test_a_profile(snap_compare, standing_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(ProfileScreen(await anns_link(standing_server), "ann"))
        await pilot.pause()

        def shown() -> bool:
            table = pilot.app.screen.query_one(DataTable)
            return table.row_count == 2 and "Rating" in text_of(pilot, "#profile")

        await until(pilot, shown)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def leaderboard_of(port: int, rows: int) -> Callable[[Pilot], Awaitable[None]]:
    """A snapshot's run_before: ann's leaderboard, once it shows ``rows`` rows in full."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(LeaderboardScreen(await anns_link(port)))
        await pilot.pause()

        def shown() -> bool:
            table = pilot.app.screen.query_one(DataTable)
            return table.row_count == rows and columns_fit(table)

        await until(pilot, shown)
        await pilot.pause()

    return run_before


def test_the_leaderboard(snap_compare, standing_server: int) -> None:
    run_before = leaderboard_of(standing_server, 3)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_leaderboard_with_provisional_players_below(
    snap_compare, standing_server: int, tmp_path: Path
) -> None:
    with sqlite3.connect(tmp_path / "a.sqlite3") as db:  # two players of few rated games
        db.executemany(
            "INSERT INTO accounts (name, hash, created, rating, deviation, rated_games)"
            " VALUES (?, x'00', 0, ?, ?, ?)",
            [("zoe", 1812.0, 180.0, 3), ("yan", 1490.0, 290.0, 1)],
        )
    run_before = leaderboard_of(standing_server, 5)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_password_dialog_with_new_ones_that_differ(snap_compare, standing_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(PasswordDialog(await anns_link(standing_server)))
        await pilot.pause()
        for key, value in (("old", "pw"), ("new", "new-pw"), ("again", "new-pq")):
            pilot.app.screen.query_one(f"#{key}", Input).value = value
        await pilot.press("enter")
        await until(pilot, lambda: "differ" in text_of(pilot, "#password-status"))
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
