"""The lobby's terms, profiles, leaderboard, password and new ratings (Pilot, a real server).

The menu's Rated and Clock are the terms of the lobby's Create, Quick play and
challenges (issue 29, item 3); i, l and P open a profile, the leaderboard and the
password dialog (item 4); a rated game's end shows both new ratings (item 1).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.ui.app import C4App
from c4tui.ui.screens.leaderboard import LeaderboardScreen
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until

#: The menu's choices: rated, with a 3+2 clock.
RATED_BLITZ = {"rated": "yes", "clock": "3+2"}


@contextlib.asynccontextmanager
async def zoe_in_the_lobby(
    tmp_path: Path, terms: dict[str, str]
) -> AsyncIterator[tuple[C4App, Pilot[None], LobbyClient]]:
    """zoe's app in the lobby (the menu's 4 × 4 Classic on ``terms``), ann online (raw)."""
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "zoe", "secret")).close()
        ann = await logged_in(server.port, "ann")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe", **terms}
        app = make_app(opponent="online", options=options, columns=4, rows=4)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            players = app.screen.query_one(PlayerTable)
            await until(pilot, lambda: players.row_count == 2)
            yield app, pilot, ann


async def line_starting(client: LobbyClient, start: str) -> str:
    """The next line ``client`` reads that starts with ``start`` (CLOCKs, say, skipped)."""
    while not (line := await client.line()).startswith(start):
        pass
    return line


async def test_c_creates_a_room_on_the_menus_terms_and_its_rated_end_shows_the_ratings(
    tmp_path: Path,
) -> None:
    async with zoe_in_the_lobby(tmp_path, RATED_BLITZ) as (app, pilot, ann):
        assert "4 × 4 Classic, rated 3+2 (your menu choice)" in text_of(pilot, "#lobby-help")
        await pilot.press("c")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        assert "(4 × 4 Classic, rated 3+2) is open" in text_of(pilot, "#lobby-status")
        assert (await ann.ask("ROOMINFO:zoe room")).endswith(":waiting:rated:3+2")
        assert await ann.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:zoe:ann:4:4:classic"
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen)
        for turn in range(4):  # zoe: column 1 four times; ann: column 2
            await until(pilot, screen.driver.awaiting_submission)
            await pilot.press("1", "enter")
            if turn == 3:
                break
            await line_starting(ann, "BOARDSTATUS")
            await ann.send("DROP:2")
            await line_starting(ann, "BOARDSTATUS")
        assert (await line_starting(ann, "GAMEEND")).endswith(":0:zoe")
        up = await line_starting(ann, "RATING:zoe:")
        down = await line_starting(ann, "RATING:ann:")
        zoe_now, zoe_change = up.split(":")[2:]
        ann_now, ann_change = down.split(":")[2:]
        said = f"Your rating: {zoe_now} ({zoe_change}); ann's: {ann_now} ({ann_change})"
        await until(pilot, lambda: said in text_of(pilot, "#message"))
        message = text_of(pilot, "#message")
        assert "zoe (RED) wins with four in a row!" in message and "r: rematch" in message
        await pilot.press("enter")  # a move typed after the end: no news, the result stays
        await pilot.pause()
        assert text_of(pilot, "#message") == message


async def test_a_challenge_asks_for_the_menus_terms(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, RATED_BLITZ) as (app, pilot, ann):
        app.screen.query_one(PlayerTable).focus()  # ann's row is the first
        await pilot.press("c")
        assert await ann.line() == "CHALLENGED:zoe:4:4:classic:rated:3+2"
        await until(pilot, lambda: "rated 3+2): waiting for ann" in text_of(pilot, "#lobby-status"))


async def test_quick_play_asks_for_the_menus_terms(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, RATED_BLITZ) as (_, pilot, ann):
        await pilot.press("g")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        assert "Quick play (4 × 4 Classic, rated 3+2)" in text_of(pilot, "#lobby-status")
        listed = await ann.ask("ROOMLIST:PLAYER")
        room = listed.split(":", 3)[3]  # ROOMLIST:ACKSTATUS:0:<the one room>
        assert (await ann.ask(f"ROOMINFO:{room}")).endswith(":waiting:rated:3+2")


async def test_casual_terms_are_said_too(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, {}) as (_, pilot, ann):
        assert "4 × 4 Classic, casual (your menu choice)" in text_of(pilot, "#lobby-help")
        await pilot.press("c")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        assert (await ann.ask("ROOMINFO:zoe room")).endswith(":waiting:casual:-")


async def test_i_opens_a_profile_and_l_the_leaderboard(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, {}) as (app, pilot, _):
        lobby = app.screen
        await pilot.press("i")  # the rooms have the focus: our own profile
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert isinstance(app.screen, ProfileScreen) and app.screen.user == "zoe"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        players = lobby.query_one(PlayerTable)
        players.focus()
        players.move_cursor(row=0)  # ann
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert isinstance(app.screen, ProfileScreen) and app.screen.user == "ann"
        await until(pilot, lambda: "rating 1500" in text_of(pilot, "#profile").lower())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("i")  # the player list kept the focus: ann's again
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert isinstance(app.screen, ProfileScreen) and app.screen.user == "ann"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)


async def test_p_changes_the_password_and_leaving_a_room_logs_in_with_the_new_one(
    tmp_path: Path,
) -> None:
    async with zoe_in_the_lobby(tmp_path, {}) as (app, pilot, _):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await pilot.press("P")
        await until(pilot, lambda: isinstance(app.screen, PasswordDialog))
        for field, value in (("old", "secret"), ("new", "n3w:pass"), ("again", "n3w:pass")):
            app.screen.query_one(f"#{field}", Input).value = value
        app.screen.query_one("#change").focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is lobby)
        assert lobby._session.password == "n3w:pass"
        await until(pilot, lambda: "No rooms yet" in text_of(pilot, "#lobby-status"))
        await pilot.press("c")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        waiting = lobby.link
        await pilot.press("escape")  # leaving the room: a fresh login, with the new password
        await until(pilot, lambda: lobby.link is not waiting)
        await until(pilot, lambda: "No rooms yet" in text_of(pilot, "#lobby-status"))
