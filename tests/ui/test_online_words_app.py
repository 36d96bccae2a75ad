"""What the app says of an online game's end, its terms and its chat (issue 38).

A real server and raw clients; the app plays through its lobby screen.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable

from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_clocks_app import zoe_joins_on
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until


@asynccontextmanager
async def zoe_plays_ann(
    tmp_path: Path, terms: str = "", **settings: object
) -> AsyncIterator[tuple[Pilot, OnlineGameScreen, LobbyClient]]:
    """ann's room r1 (7 x 6 classic, then ``terms``); zoe joins it in the app as YELLOW."""
    async with lobby_server(tmp_path, **settings) as server, zoe_joins_on(server, terms) as joined:
        yield joined


async def test_a_forfeit_is_said_as_one(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann):
        await ann.send("FORFEIT")
        await until(pilot, lambda: screen.driver.is_over)
        assert "zoe (YELLOW) wins: ann forfeited" in text_of(pilot, "#message")


async def test_a_player_who_stays_away_left_and_did_not_come_back(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path, reconnect_grace=0.5) as (pilot, screen, ann):
        await ann.close()
        await until(pilot, lambda: screen.driver.is_over, seconds=30)
        message = text_of(pilot, "#message")
        assert "zoe (YELLOW) wins: ann left and did not come back" in message


async def test_a_win_on_the_board_says_four_in_a_row(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann):
        for turn in range(4):
            await ann.send("DROP:1")
            await ann.line()
            if turn == 3:
                break
            await until(pilot, screen.driver.awaiting_submission)
            await pilot.press("2", "enter")
            await ann.line()
        await until(pilot, lambda: screen.driver.is_over)
        assert "ann (RED) wins with four in a row!" in text_of(pilot, "#message")


async def test_the_panel_shows_the_games_terms(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path, ":rated:3+2") as (pilot, _, _):
        await until(pilot, lambda: "rated 3+2" in text_of(pilot, "#terms"))


async def test_the_panel_says_a_casual_game_has_no_clock(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, _, _):
        await until(pilot, lambda: "casual, no clock" in text_of(pilot, "#terms"))


async def test_your_own_waiting_room_is_in_your_room_list(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            table = app.screen.query_one(DataTable)
            app.screen.refresh_timer.pause()  # the list must come from creating, not the timer
            await pilot.press("c")
            await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
            await until(pilot, lambda: table.row_count == 1)
            assert "zoe room" in str(table.get_row_at(0)[0])
