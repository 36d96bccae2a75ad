"""Snapshots of an account's ssh keys (§9, issue 42), against a real server.

ann's two keys listed by fingerprint, and the add-a-key dialog saying why a paste
will not do, and the password dialog of an ssh visit (no current password asked for).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.server.core import C4Server
from c4tui.ui.screens.add_key import AddKeyDialog
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.ssh_keys import KeysScreen
from tests.net.lobby_client import lobby_server_in_a_thread, logged_in
from tests.net.test_lobby_keys import OTHER_KEY, PAGE_KEY
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import text_of, until
from tests.ui.test_snapshots_public import link_of, still


@pytest.fixture
def keys_server(tmp_path: Path) -> Iterator[int]:
    """The server: ann has two ssh keys; its port."""

    async def set_up(server: C4Server) -> None:
        ann = await logged_in(server.port, "ann")
        for key in (PAGE_KEY, OTHER_KEY):
            assert (await ann.ask(f"KEYADD:{key}")).startswith("KEYADD:ACKSTATUS:0")
        await ann.close()

    with lobby_server_in_a_thread(tmp_path / "a.sqlite3", set_up) as server:
        yield server.port


def test_the_keys_screen(snap_compare, keys_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(KeysScreen(await link_of(keys_server, "ann")))
        await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 2)
        await until(pilot, lambda: "2 ssh keys" in text_of(pilot, "#keys-status"))
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_add_key_dialog_refusing_a_paste(snap_compare, keys_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(AddKeyDialog(await link_of(keys_server, "ann")))
        await pilot.pause()
        field = pilot.app.screen.query_one("#key", Input)
        field.post_message(events.Paste("ssh-ed25519 AAAA-not-base64 ann@home"))
        await until(pilot, lambda: field.value != "")
        await pilot.press("enter")
        await until(pilot, lambda: "not an OpenSSH" in text_of(pilot, "#add-key-status"))
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_password_dialog_of_a_key_visit(snap_compare, keys_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(PasswordDialog(await link_of(keys_server, "ann"), "pw"))
        await pilot.pause()
        await pilot.press(*"fresh-pw")
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
