"""The profile and leaderboard screens and the password dialog (Pilot), against a real server."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import PasswordChange
from c4tui.lobby.ratings import Rating, Result, rated
from c4tui.ui.screens.leaderboard import LeaderboardScreen
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.past_review import PastGameReview
from c4tui.ui.screens.profile import ProfileScreen
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_standing import ann_beats_bob, rated_game
from tests.ui.helpers import make_app
from tests.ui.test_lobby_app import text_of, until

SIZE = (100, 30)


async def link_of(port: int, user: str, password: str = "pw") -> LobbyLink:
    """A link logged in as ``user`` (registered first)."""
    link = await LobbyLink.open("127.0.0.1", port)
    await link.register(user, password)
    await link.login(user, password)
    return link


def rows(pilot: Pilot) -> list[list[str]]:
    table = pilot.app.screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]


def establish(database: Path) -> None:
    """robo (a bot) at 1700 and ann at 1600, both established; cid provisional."""
    connection = sqlite3.connect(database)
    connection.execute("UPDATE accounts SET rating = 1700, deviation = 80, rated_games = 9")
    connection.execute("UPDATE accounts SET rating = 1600 WHERE name = 'ann'")
    connection.execute("UPDATE accounts SET deviation = 200 WHERE name = 'cid'")
    connection.commit()
    connection.close()


async def test_a_profile_shows_the_rating_the_record_and_reviews_a_game(tmp_path: Path) -> None:
    lost = rated(Rating(), [Result(Rating(), 0)])
    async with lobby_server(tmp_path) as server:
        ann, bob = await rated_game(server.port)
        await ann_beats_bob(ann, bob)
        link = await link_of(server.port, "cid")
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(ProfileScreen(link, "bob"))
            await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 1)
            screen = app.screen
            assert isinstance(screen, ProfileScreen)
            await until(pilot, lambda: screen.info is not None)
            said = text_of(pilot, "#profile")
            rating, deviation = round(lost.rating), round(lost.deviation)
            assert f"Rating {rating} (provisional), deviation {deviation}" in said
            assert "1 game: 0 won, 0 drawn, 1 lost" in said
            assert rows(pilot)[0][1:5] == ["ann", "rated", "lost (four in a row)", "7"]
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PastGameReview))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
            await app.screen.run_action("leave")
            await app.push_screen(ProfileScreen(link, "nobody"))
            await pilot.pause()
            await until(pilot, lambda: "No such user: nobody." in text_of(pilot, "#profile"))
        await link.close()


async def test_the_leaderboard_ranks_marks_bots_and_opens_a_profile(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        robo = await LobbyClient.connect(server.port)
        assert await robo.ask("REGISTERBOT:robo:pw") == "REGISTERBOT:ACKSTATUS:0"
        link = await link_of(server.port, "ann")
        await (await logged_in(server.port, "cid")).close()
        establish(tmp_path / "accounts.sqlite3")
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(LeaderboardScreen(link))
            await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 3)
            assert rows(pilot) == [
                ["1", "robo", "1700", "bot"],
                ["2", "ann", "1600", ""],
                ["3", "cid", "1700 (provisional)", ""],  # below the others, marked
            ]
            status = text_of(pilot, "#leaders-status")
            assert "2 best, highest first. 1 provisional below them." in status
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
            await until(pilot, lambda: "robo (bot)" in text_of(pilot, "#profile"))
            assert "Rating 1700, deviation 80" in text_of(pilot, "#profile")
        await link.close()


async def test_the_password_dialog_says_each_outcome_and_changes_it(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        link = await link_of(server.port, "ann", "old:pw")
        app = make_app()
        results: list[PasswordChange | None] = []
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(PasswordDialog(link), results.append)
            await pilot.pause()

            async def attempt(old: str, new: str, again: str, expected: str = "") -> None:
                for key, value in (("old", old), ("new", new), ("again", again)):
                    app.screen.query_one(f"#{key}", Input).value = value
                await pilot.press("enter")
                if expected:
                    await until(pilot, lambda: expected in text_of(pilot, "#password-status"))

            await attempt("old:pw", "new:pw", "other", "repetition differ")
            await attempt("old:pw", "has space", "has space", "A password is 1-128")
            await attempt("wrong", "new:pw", "new:pw", "That is not your current password")
            assert app.screen.focused is app.screen.query_one("#old", Input)
            await attempt("old:pw", "new:pw", "new:pw")
            await until(pilot, lambda: results == [PasswordChange.CHANGED])
            assert not isinstance(app.screen, PasswordDialog)
        await link.close()
        other = await LobbyClient.connect(server.port)
        assert await other.ask("LOGIN:ann:old:pw") == "LOGIN:ACKSTATUS:2"
        assert await other.ask("LOGIN:ann:new:pw") == "LOGIN:ACKSTATUS:0"
