"""The app as a web visitor gets it: network modes only towards the servers allowed,
and no default taken from the host's user name."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.login import LoginDialog
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import SIZE, typed_into_open

ALLOWED = (("127.0.0.1", 4444),)


async def test_without_allowed_servers_only_local_modes_are_offered() -> None:
    app = C4App(visitor_servers=())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert menu.query_one("#mode", ChoiceSet).labels == ("Two players", "Computer")


async def test_the_connect_dialog_takes_only_an_allowed_server() -> None:
    app = C4App(MatchSettings(opponent="network"), visitor_servers=ALLOWED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConnectDialog)
        host = dialog.query_one("#host", Input)
        assert (host.value, dialog.query_one("#port", Input).value) == ("127.0.0.1", "4444")
        assert dialog.query_one("#user", Input).value == "player"  # not this host's user
        host.value = "192.0.2.1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog  # refused, not connected
        status = str(dialog.query_one("#connect-status", Static).render())
        assert "only on: 127.0.0.1:4444" in status


async def test_the_online_login_takes_only_an_allowed_server() -> None:
    app = C4App(MatchSettings(opponent="online"), visitor_servers=ALLOWED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        dialog.query_one("#port", Input).value = "22"
        dialog.query_one("#password", Input).value = "secret"
        dialog.query_one("#user", Input).value = "alice"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert "only on: 127.0.0.1:4444" in str(dialog.query_one("#login-status", Static).render())


async def test_a_visitor_cannot_open_the_hosts_files(tmp_path: Path) -> None:
    secret = tmp_path / "secret.c4g"
    secret.write_text("Size: 7x6\n\n1. d4 banana\n")
    app = C4App(visitor_servers=())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = await typed_into_open(pilot, str(secret))
        await pilot.press("enter")
        await pilot.pause()
        status = str(dialog.query_one("#open-status", Static).render())
        assert "as digits" in status and "banana" not in status
        assert str(tmp_path) not in str(dialog.query_one(Static).render())


async def test_quitting_mid_game_does_not_promise_a_visitor_their_game_back() -> None:
    app = C4App(visitor_servers=())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter", "4", "enter")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        question = str(app.screen.query_one(Static).render())
        assert "not kept" in question and "Resume" not in question
