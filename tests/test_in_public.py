"""What people type for §7 is read by the wire's rules, and what the server says reads well.

``client.in_public`` checks hours, minutes, texts and reasons before anything is sent;
the console reads ``report`` and ``ban`` lines and lays the open reports out as a table.
Every value the checks accept, the codec parses back to the same request (so a typed
request the front ends let through is never a bad format on the wire).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.client import in_public
from c4tui.console.public import parse_report, report_table
from c4tui.protocols import lobby as wire
from c4tui.protocols.public import (
    MAX_BAN_HOURS,
    MAX_REPORT_TEXT,
    Ban,
    Mute,
    Report,
    ReportInfo,
    ReportReason,
)


@pytest.mark.parametrize(
    ("typed", "hours"),
    [("0", 0), ("24", 24), (" 3 ", 3), (str(MAX_BAN_HOURS), MAX_BAN_HOURS)],
)
def test_hours_a_ban_may_last(typed: str, hours: int) -> None:
    assert in_public.hours_of(typed) == hours


@pytest.mark.parametrize("typed", ["", "-1", "1.5", "³", "two", str(MAX_BAN_HOURS + 1), "9" * 40])
def test_hours_no_ban_may_last(typed: str) -> None:
    assert in_public.hours_of(typed) is None


@pytest.mark.parametrize("typed", ["0", "10081", "-5", "", "٣", "1e3"])
def test_minutes_no_mute_may_last(typed: str) -> None:
    assert in_public.minutes_of(typed) is None


def test_minutes_a_mute_may_last_run_from_one_to_a_week() -> None:
    assert [in_public.minutes_of(text) for text in ("1", "60", "10080")] == [1, 60, 10080]


def test_a_text_is_refused_past_200_characters_or_with_a_control_character() -> None:
    assert in_public.text_refused("x" * MAX_REPORT_TEXT) is None
    assert in_public.text_refused("") is None  # a report may say nothing more
    assert in_public.text_refused("zoë: “gg”, 🙂") is None  # chat's rule: Unicode
    too_long = in_public.text_refused("x" * (MAX_REPORT_TEXT + 1))
    assert too_long == "That text has 201 characters: it may have 200 at most."
    for sneaky in ("a\nREPORT:bob:chat:again", "bell\a", "esc\x1b[2J", "\u202eevil"):
        assert "control character" in (in_public.text_refused(sneaky) or ""), sneaky


@given(st.text(max_size=MAX_REPORT_TEXT + 10))
def test_a_text_the_check_lets_through_is_one_the_codec_takes_as_it_is(text: str) -> None:
    """No text the front ends send is a bad format, nor smuggles a second request in."""
    if in_public.text_refused(text) is not None:
        return
    assert wire.parse_request(f"REPORT:bob:chat:{text}") == Report("bob", ReportReason.CHAT, text)
    assert wire.parse_request(f"BAN:bob:3:{text}") == Ban("bob", 3, text)


@given(st.integers(min_value=-5, max_value=20_000))
def test_minutes_the_check_lets_through_are_minutes_the_codec_takes(minutes: int) -> None:
    checked = in_public.minutes_of(str(minutes))
    parsed = wire.parse_request(f"MUTE:bob:{minutes}")
    assert (checked is not None) == isinstance(parsed, Mute)


def test_a_reason_is_read_in_any_case_and_only_from_the_list() -> None:
    assert in_public.reason_of("Cheating") is ReportReason.CHEATING
    assert in_public.reason_of("spam") is None
    assert in_public.REASON_WORDS == "chat, cheating, name or other"


@pytest.mark.parametrize(
    ("typed", "opponent", "read"),
    [
        ("bob chat he swore: a lot", None, ("bob", ReportReason.CHAT, "he swore: a lot")),
        ("bob name", None, ("bob", ReportReason.NAME, "")),
        ("cheating engine moves", "bob", ("bob", ReportReason.CHEATING, "engine moves")),
        ("carl other  spaces  kept", "bob", ("carl", ReportReason.OTHER, "spaces  kept")),
        ("bob spam", None, None),  # no such reason
        ("chat he swore", None, None),  # a user called chat, and no reason
        ("", "bob", None),
    ],
)
def test_the_console_reads_a_report(
    typed: str, opponent: str | None, read: tuple[str, ReportReason, str] | None
) -> None:
    assert parse_report(typed, opponent) == read


def test_the_reports_table_lines_its_columns_up_and_keeps_the_whole_text() -> None:
    reports = [
        ReportInfo(1, "ann", "bob", ReportReason.CHAT, "2026-12-02T10:00:00Z", 17, "rude: very"),
        ReportInfo(12, "carlotta", "bo", ReportReason.NAME, "2026-12-02T11:30:00Z", None, ""),
    ]
    header, first, second = report_table(reports)
    assert header.split() == ["N", "When", "Reporter", "Reported", "Reason", "Game", "Text"]
    assert first.split()[3:] == ["ann", "bob", "chat", "17", "rude:", "very"]
    assert second.split()[3:] == ["carlotta", "bo", "name", "-", "-"]
    for column in ("Reporter", "Reported", "Reason", "Game", "Text"):
        at = header.index(column)
        assert first[at - 1] == second[at - 1] == " "  # every column starts in one place
        assert first[at] != " " and second[at] != " "


def test_a_reports_time_is_said_in_this_computers_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+5:30, no summer time
    time.tzset()
    try:
        report = ReportInfo(1, "a", "b", ReportReason.CHAT, "2026-12-02T10:00:00Z", None, "")
        assert in_public.report_when(report) == "2026-12-02 15:30"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_only_a_ban_or_a_deletion_is_a_goodbye() -> None:
    assert in_public.sent_away("banned") == (
        "A moderator banned this account: you cannot log in while the ban lasts."
    )
    assert in_public.sent_away("deleted") == "This account was deleted: it cannot log in again."
    others = (None, "idle", "shutdown", "elsewhere")
    assert [in_public.sent_away(why) for why in others] == [None] * len(others)


def test_the_words_of_a_ban_and_a_mute() -> None:
    assert [in_public.for_hours(hours) for hours in (0, 1, 1500)] == [
        "until unbanned",
        "for 1 hour",
        "for 1,500 hours",
    ]
    assert in_public.for_minutes(1) == "for 1 minute"
    assert in_public.blocks_line(["zed", "Ann"]) == "You block 2: Ann, zed."
    assert in_public.blocks_line([]) == "You block nobody."
