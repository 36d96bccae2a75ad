"""A password for an account an ssh key made (§9, issue 42), through Pilot against a real server.

The key's visit logged in with its token, which the server takes as the current
password: the lobby's P asks only for the new one, twice, and the account then logs
in with it from any client. The title names no loopback host.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from c4tui.client import key_words
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import KeyRegisterOutcome, LoginOutcome
from c4tui.match.settings import MatchSettings
from c4tui.server.core import C4Server
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.delete_account import DeleteAccountDialog
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.login import LoggedIn
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.profile import ProfileScreen
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_keys import PAGE_KEY, token, visit
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import text_of, until


async def key_made_lobby(server: C4Server) -> tuple[LobbyScreen, str]:
    """zoe's account made by a key's visit and logged in with its token: her lobby, the token."""
    visiting = await visit(server, PAGE_KEY, token(1))
    link = await LobbyLink.open("127.0.0.1", server.port)
    assert await link.key_register("zoe", visiting) is KeyRegisterOutcome.CREATED
    assert await link.login("zoe", visiting) is LoginOutcome.LOGGED_IN
    values = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
    lobby = LobbyScreen(LoggedIn(link, values, visiting), MatchSettings(), key_visit=True)
    return lobby, visiting


async def test_a_key_made_account_gets_a_password_without_knowing_its_old_one(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        lobby, _ = await key_made_lobby(server)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(lobby)
            assert text_of(pilot, "#lobby-title") == "Lobby on this server — logged in as zoe"
            await pilot.press("P")
            await until(pilot, lambda: isinstance(app.screen, PasswordDialog))
            dialog = app.screen
            assert [field.id for field in dialog.query(Input)] == ["new", "again"]
            assert dialog.query_one("#new", Input).has_focus
            await pilot.press(*"fresh-pw", "enter", *"fresh-pw", "enter")
            await until(pilot, lambda: app.screen is lobby)
            shown = [note.message for note in app._notifications]
            assert key_words.PASSWORD_SET in shown
        elsewhere = await LobbyClient.connect(server.port)
        assert await elsewhere.ask("LOGIN:zoe:fresh-pw") == "LOGIN:ACKSTATUS:0"


async def test_a_password_login_still_asks_for_the_current_password(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        link = await LobbyLink.open("127.0.0.1", server.port)
        await link.register("zoe", "secret")
        await link.login("zoe", "secret")
        values = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(LobbyScreen(LoggedIn(link, values, "secret"), MatchSettings()))
            assert text_of(pilot, "#lobby-title") == "Lobby on 127.0.0.1 — logged in as zoe"
            await pilot.press("P")
            await until(pilot, lambda: isinstance(app.screen, PasswordDialog))
            assert [field.id for field in app.screen.query(Input)] == ["old", "new", "again"]


async def test_a_key_made_account_is_deleted_without_a_password_it_never_had(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        lobby, visiting = await key_made_lobby(server)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(lobby)
            await pilot.press("i")  # our own profile
            await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
            await pilot.press("D")
            await until(pilot, lambda: isinstance(app.screen, DeleteAccountDialog))
            assert not app.screen.query_one("Grid").display  # no password asked
            await pilot.press("enter")  # Delete…
            await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
            await pilot.press("y")
            await until(
                pilot, lambda: not isinstance(app.screen, DeleteAccountDialog | ConfirmDialog)
            )
        checker = await LobbyClient.connect(server.port)
        assert await checker.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"
