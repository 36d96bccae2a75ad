"""An account's ssh keys in the app (§9, issue 42), through Pilot against a real server.

From our own profile (the lobby's i, then k or its button): the keys listed by
fingerprint, one added by pasting a .pub line (a bad paste said and asked for
again), one removed after a question. Any account has keys, not only one made by ssh.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from c4tui.client import key_words
from c4tui.client.outcomes import KeyAddOutcome
from c4tui.client.words import Voice
from c4tui.protocols import keys
from c4tui.server.core import C4Server
from c4tui.ui.app import C4App
from c4tui.ui.screens.add_key import AddKeyDialog
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.screens.ssh_keys import LAST_KEY, KeysScreen, key_removed
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_keys import OTHER_KEY, PAGE_KEY
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, press_button, text_of, until


@contextlib.asynccontextmanager
async def zoes_keys(tmp_path: Path) -> AsyncIterator[tuple[C4Server, C4App, Pilot[None]]]:
    """zoe (an account made with a password) in her app, on her own profile's keys."""
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "zoe", "secret")).close()
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, columns=4, rows=4)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            await pilot.press("i")  # the rooms have the focus: our own profile
            await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
            profile = app.screen
            await until(
                pilot, lambda: isinstance(profile, ProfileScreen) and profile.info is not None
            )
            await press_button(pilot, "#keys-button")
            await until(pilot, lambda: isinstance(app.screen, KeysScreen))
            await until(pilot, lambda: "No ssh keys" in text_of(pilot, "#keys-status"))
            yield server, app, pilot


async def paste(pilot: Pilot[None], text: str) -> None:
    """Paste ``text`` into the add-a-key dialog's field, and press Enter."""
    field = pilot.app.screen.query_one("#key", Input)
    field.post_message(events.Paste(text))
    await until(pilot, lambda: field.value != "")
    await pilot.press("enter")


async def test_a_pasted_key_is_listed_by_its_fingerprint_and_removed_after_a_question(
    tmp_path: Path,
) -> None:
    async with zoes_keys(tmp_path) as (server, app, pilot):
        screen = app.screen
        assert isinstance(screen, KeysScreen)
        assert "ssh -p PORT HOST logs you in with any of these keys" in text_of(pilot, "#keys-help")
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddKeyDialog))
        await paste(pilot, f"{PAGE_KEY} zoe@home\n")
        await until(pilot, lambda: app.screen is screen)
        fingerprint = keys.fingerprint_of(PAGE_KEY)
        await until(pilot, lambda: screen.fingerprints == [fingerprint])
        assert text_of(pilot, "#keys-status") == key_words.key_added(fingerprint)
        assert str(screen.query_one(DataTable).get_row_at(0)[0]) == fingerprint
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("n")  # kept
        await until(pilot, lambda: app.screen is screen)
        assert screen.fingerprints == [fingerprint]
        await pilot.press("delete")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert LAST_KEY in str(app.screen.query_one(Static).render())
        await pilot.press("y")
        await until(pilot, lambda: screen.fingerprints == [])
        assert text_of(pilot, "#keys-status") == key_removed(fingerprint)
        zoe = await LobbyClient.connect(server.port)  # the server's list, asked apart
        assert await zoe.ask("LOGIN:zoe:secret") == "LOGIN:ACKSTATUS:0"
        assert await zoe.ask("KEYS") == "KEYS:ACKSTATUS:0:"


async def test_a_bad_paste_is_asked_for_again_with_the_reason(tmp_path: Path) -> None:
    async with zoes_keys(tmp_path) as (server, app, pilot):
        ann = await logged_in(server.port, "ann")
        assert (await ann.ask(f"KEYADD:{OTHER_KEY}")).startswith("KEYADD:ACKSTATUS:0")
        screen = app.screen
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddKeyDialog))
        dialog = app.screen
        await paste(pilot, "-----BEGIN OPENSSH PRIVATE KEY-----")
        not_a_key = key_words.KEYADD.said(KeyAddOutcome.NOT_A_KEY, Voice.APP)
        await until(pilot, lambda: text_of(pilot, "#add-key-status") == not_a_key)
        assert app.screen is dialog
        field = dialog.query_one("#key", Input)
        field.value = ""
        await paste(pilot, OTHER_KEY)
        anothers = key_words.KEYADD.said(KeyAddOutcome.ANOTHER_ACCOUNT, Voice.APP)
        await until(pilot, lambda: text_of(pilot, "#add-key-status") == anothers)
        assert app.screen is dialog and field.has_focus
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert isinstance(screen, KeysScreen) and screen.fingerprints == []
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
