"""The login dialog: what it remembers from one run to the next, and registering's check."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.client import words
from c4tui.ui.preferences import preferences_path
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.login import LoginDialog
from tests.net.lobby_client import lobby_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, press_button, text_of, until


async def opened_dialog(pilot: Pilot) -> LoginDialog:
    """The menu's Start (People online): the login dialog."""
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, LoginDialog))
    dialog = pilot.app.screen
    assert isinstance(dialog, LoginDialog)
    return dialog


async def test_the_login_dialog_offers_what_logged_in_last_time_but_never_the_password(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "kim"}
        first = make_app(opponent="online", options=options)
        async with first.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret-pw", register=True)
        assert "secret-pw" not in preferences_path().read_text(encoding="utf-8")
        again = make_app(opponent="online")  # a second start, nothing on the command line
        async with again.run_test(size=SIZE) as pilot:
            dialog = await opened_dialog(pilot)
            typed = {key: dialog.query_one(f"#{key}", Input).value for key in options}
            assert typed == options
            assert dialog.query_one("#password", Input).value == ""
            assert dialog.focused is dialog.query_one("#password", Input)
            await log_in_through_the_dialog(pilot, "secret-pw", register=False, opened=True)
            assert isinstance(again.screen, LobbyScreen)


async def test_registering_asks_for_the_password_twice_and_makes_no_account_if_they_differ(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "kim"}
        async with make_app(opponent="online", options=options).run_test(size=SIZE) as pilot:
            dialog = await opened_dialog(pilot)
            dialog.query_one("#password", Input).value = "pass-1"
            dialog.query_one("#password_again", Input).value = "pass-2"
            await press_button(pilot, "#register")
            await until(pilot, lambda: words.PASSWORDS_DIFFER in text_of(pilot, "#login-status"))
            assert dialog.focused is dialog.query_one("#password_again", Input)
            await press_button(pilot, "#log-in")  # logging in asks it once: kim is nobody yet
            await until(pilot, lambda: "No such user" in text_of(pilot, "#login-status"))
