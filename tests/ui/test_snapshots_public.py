"""Snapshots of the app in public (§7): its dialogs, the blocks, a moderator's reports.

Against a real server in a thread: ann blocks bob and carl; carl and ann have
reported bob (their times pinned, and shown in UTC); mod is a moderator.
"""

from __future__ import annotations

import calendar
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.client.link import LobbyLink
from c4tui.engine import Rules
from c4tui.server.core import C4Server
from c4tui.ui.screens.ban import BanDialog
from c4tui.ui.screens.blocks import BlocksScreen
from c4tui.ui.screens.delete_account import DeleteAccountDialog
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.mute import MuteDialog
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.screens.report import ReportDialog
from c4tui.ui.screens.reports import ReportsScreen
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import lobby_server_in_a_thread, logged_in
from tests.net.moderators import make_moderator
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until

#: When the reports were made, pinned (the list shows them in this computer's zone: UTC).
REPORTED_AT = ("2026-12-02 09:15:00", "2026-12-02 10:40:00")


@pytest.fixture
def public_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The server: ann blocks bob and carl, bob is reported twice, mod moderates; its port."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    database = tmp_path / "a.sqlite3"

    async def set_up(server: C4Server) -> None:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        carl = await logged_in(server.port, "carl")
        await (await logged_in(server.port, "mod")).close()
        await make_moderator(server, "mod")
        for user in ("bob", "carl"):
            assert await ann.ask(f"BLOCK:{user}") == "BLOCK:ACKSTATUS:0"
        said = "REPORT:bob:chat:called me names in room r1, then again after the game: twice"
        assert await carl.ask(said) == "REPORT:ACKSTATUS:0"
        assert await ann.ask("REPORT:bob:name:[b]bob[/b] is fine, but") == "REPORT:ACKSTATUS:0"
        for client in (ann, bob, carl):
            await client.close()

    try:
        with lobby_server_in_a_thread(database, set_up) as server:
            pin_report_times(database)
            yield server.port
    finally:
        monkeypatch.undo()
        time.tzset()


def pin_report_times(database: Path) -> None:
    """The reports' times, made fixed (the server wrote the time it was)."""
    with sqlite3.connect(database) as db:
        for number, when in enumerate(REPORTED_AT, 1):
            made = calendar.timegm(time.strptime(when, "%Y-%m-%d %H:%M:%S"))
            db.execute("UPDATE reports SET at = ? WHERE id = ?", (made, number))


async def link_of(port: int, user: str) -> LobbyLink:
    link = await LobbyLink.open("127.0.0.1", port)
    await link.login(user, "pw")
    return link


async def still(pilot: Pilot) -> None:
    """The fields' cursors steady, the screen drawn."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def test_the_report_dialog(snap_compare) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(ReportDialog("bob"))
        await pilot.pause()
        await pilot.press("right", "enter", *"every move at once, within a second")
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_report_dialog_over_200_characters(snap_compare) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(ReportDialog("bob", ascii_only=True))
        await pilot.pause()
        pilot.app.screen.query_one("#text", Input).value = "rude " * 41
        pilot.app.screen.query_one("#text", Input).focus()
        await pilot.press("enter")
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_ban_dialog(snap_compare) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(BanDialog("bob", "report 1 (chat)"))
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_mute_dialog_with_minutes_too_many(snap_compare) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(MuteDialog("bob"))
        await pilot.pause()
        pilot.app.screen.query_one("#minutes", Input).value = "20000"
        await pilot.press("enter")
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_delete_account_dialog(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(DeleteAccountDialog(await link_of(public_server, "ann")))
        await pilot.pause()
        await pilot.press(*"wrong")
        await pilot.press("enter", "y")
        await until(pilot, lambda: "Wrong password" in text_of(pilot, "#delete-status"))
        await still(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_blocks_screen(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(BlocksScreen(await link_of(public_server, "ann")))
        await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 2)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_reports_screen(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.app.push_screen(ReportsScreen(await link_of(public_server, "mod")))
        await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 2)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_a_profile_you_block_seen_by_a_moderator(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        link = await link_of(public_server, "mod")
        await link.block("bob")
        await pilot.app.push_screen(ProfileScreen(link, "bob"))

        def shown() -> bool:
            screen = pilot.app.screen
            return isinstance(screen, ProfileScreen) and bool(screen.blocked and screen.moderator)

        await until(pilot, shown)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_a_moderators_lobby_on_the_player_list(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await log_in_through_the_dialog(pilot, "pw", register=False)
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        players = lobby.query_one(PlayerTable)
        await until(pilot, lambda: players.row_count == 1 and lobby.moderator)
        players.focus()
        await pilot.pause()

    app = make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(public_server), "user": "mod"}
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_the_lobby_marks_whom_you_block(snap_compare, public_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        bob, carl = await link_of(public_server, "bob"), await link_of(public_server, "carl")
        await bob.create("b1", (7, 6, Rules.CLASSIC))  # ann blocks both: marked in both lists
        await pilot.pause()
        await log_in_through_the_dialog(pilot, "pw", register=False)
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        players = lobby.query_one(PlayerTable)
        rooms = lobby.query_one("#rooms", DataTable)
        await until(pilot, lambda: players.row_count == 3 and rooms.row_count == 1)
        lobby.refresh_timer.pause()
        players.focus()
        await pilot.pause()
        assert carl.user == "carl"  # online until the picture is taken

    app = make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(public_server), "user": "ann"}
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
