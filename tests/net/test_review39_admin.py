"""Review of §7 (issue 39): ``c4tui admin`` on a database it did not write itself.

What admin prints comes from the database: a file copied from elsewhere, a PostgreSQL
database others write, or one a server of another version wrote. Its reports table
goes to the operator's terminal, so a text there must never act on it (an escape
sequence, a line break that forges a row), and a row it cannot read is said in words
with an exit status, never as a traceback.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from c4tui.server.stores import open_store
from tests.net.test_admin_command import admin

#: A report's text no server would have kept: a screen clear, a window title, a new row.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07evil\n9  2026-01-01 00:00:00  mod  ann  chat  forged"


async def _database(path: Path, reason: str, text: str) -> None:
    """A lobby's database with ann and bob, and one report of bob by ann as given."""
    store = open_store(path, 4)
    await store.open()
    try:
        assert await store.register("ann", "pw")
        assert await store.register("bob", "pw")
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO reports (reporter, reported, reason, text, at) VALUES (?, ?, ?, ?, 0)",
            ("ann", "bob", reason, text),
        )


async def test_admin_reports_shows_no_control_character_kept_in_the_database(
    tmp_path: Path,
) -> None:
    db = tmp_path / "accounts.sqlite3"
    await _database(db, "chat", HOSTILE)
    status, out, _ = await admin(db, "reports")
    assert status == 0
    shown = out.splitlines()
    assert len(shown) == 2, shown  # the head and the one report: no forged row
    assert not any(ch in out for ch in "\x1b\x07"), repr(out)  # nothing a terminal acts on


async def test_admin_reports_says_in_words_that_a_report_cannot_be_read(tmp_path: Path) -> None:
    db = tmp_path / "accounts.sqlite3"
    await _database(db, "spam", "a reason this c4tui does not know")
    status, _, err = await admin(db, "reports")  # admin() asserts: no traceback
    assert status != 0
    assert err.startswith("c4tui admin: ")


async def test_a_report_the_server_cannot_read_costs_no_moderator_its_connection(
    tmp_path: Path,
) -> None:
    from tests.net.lobby_client import lobby_server
    from tests.net.test_moderation import moderator

    db = tmp_path / "accounts.sqlite3"
    await _database(db, "spam", "a reason this c4tui does not know")
    async with lobby_server(tmp_path) as server:
        mod = await moderator(server)
        await mod.send("REPORTS")
        first = await mod.line()
        assert first.startswith("REPORTS:ACKSTATUS:0:"), first  # not a hang-up
        lines = [await mod.line() for _ in range(int(first.rsplit(":", 1)[1]))]
        assert all(line.isascii() and line.isprintable() for line in lines), lines
        assert (await mod.ask("PLAYERS")).startswith("PLAYERS:ACKSTATUS:0")
