"""Reports the lobby's store did not write itself, read back on SQLite and PostgreSQL (§7).

The database may be shared with a newer c4tui, or written by hand: the open reports
are read so that no row can break a moderator's REPORTED lines or act on a terminal.
A row that does not read is left out and named (``unreadable_reports``); a text with
control characters is escaped, one this c4tui kept comes back as it was.
"""

from __future__ import annotations

from c4tui.protocols.public import MAX_REPORT_TEXT, ReportReason, parse_reported, reported
from tests.net.stores import run_sql
from tests.net.test_public_store import REPORTED_AT, opened

#: A report's row as another program may have kept it: (reporter, reported, reason, text, at).
Row = tuple[str, str, str, str, float]

HOSTILE_ROWS: tuple[Row, ...] = (
    ("ann", "bob", "spam", "a reason this c4tui does not know", REPORTED_AT),
    ("ann", "b:ob", "chat", "a name with a colon forges a field", REPORTED_AT),
    ("ann", "bob", "chat", "no time a calendar holds", 1e300),
)


def keep(db: str, *rows: Row) -> None:
    """Keep ``rows`` in the reports behind the store's back, in order."""
    run_sql(
        db,
        "INSERT INTO reports (reporter, reported, reason, text, at) VALUES (?, ?, ?, ?, ?)",
        rows,
    )


async def test_rows_that_do_not_read_are_left_out_and_named(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob") as store:
        keep(lobby_db, *HOSTILE_ROWS)
        assert await store.report("ann", "bob", ReportReason.NAME, "mine", REPORTED_AT) == 0
        listed = await store.open_reports(50)
        assert [report.text for report in listed] == ["mine"]
        assert await store.unreadable_reports(50) == [1, 2, 3]
        assert await store.unreadable_reports(2) == [1, 2]  # among the first 2 only
        assert await store.close_report(1, "mod")  # one that cannot be read can be closed
        assert await store.unreadable_reports(50) == [2, 3]


async def test_a_kept_text_with_control_characters_comes_escaped(lobby_db: str) -> None:
    hostile = "\x1b[2J\x1b]0;pwned\x07evil\nREPORTED:9:mod:ann:chat:x" + "\u202e" * 300
    mine = "é" * MAX_REPORT_TEXT  # as long as a text may be, and not ASCII: as it was
    async with opened(lobby_db, "ann", "bob") as store:
        keep(lobby_db, ("ann", "bob", "chat", hostile, REPORTED_AT))
        assert await store.report("bob", "ann", ReportReason.CHAT, mine, REPORTED_AT) == 0
        first, second = await store.open_reports(50)
    assert first.text.startswith("\\x1b[2J\\x1b]0;pwned\\x07evil\\nREPORTED:9")
    assert first.text.isprintable() and len(first.text) <= MAX_REPORT_TEXT
    assert second.text == mine
    for report in (first, second):  # each goes on the wire whole, and reads back
        line = reported(report)
        assert len(line.splitlines()) == 1
        assert parse_reported(line.split(":")) == report
