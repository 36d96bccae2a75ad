"""The lobby codec's words in public (§7): blocks, reports, bans, mutes, deletion, REPORTED."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.net.errors import ProtocolError
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols import public as pub
from c4tui.protocols.presence import ByeReason, bye

WHEN = "2026-12-02T10:00:00Z"


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("BLOCK:bob", pub.Block("bob")),
        ("UNBLOCK:bob", pub.Unblock("bob")),
        ("BLOCKS", pub.Blocks()),
        ("REPORT:bob:chat:rude words", pub.Report("bob", pub.ReportReason.CHAT, "rude words")),
        ("REPORT:bob:cheating:", pub.Report("bob", pub.ReportReason.CHEATING, "")),
        ("REPORT:bob:name:a:b::c", pub.Report("bob", pub.ReportReason.NAME, "a:b::c")),
        ("REPORT:bob:other:né ça 🙂", pub.Report("bob", pub.ReportReason.OTHER, "né ça 🙂")),
        ("BAN:bob:24:spam", pub.Ban("bob", 24, "spam")),
        ("BAN:bob:0:", pub.Ban("bob", 0, "")),
        ("BAN:bob:007:why: this", pub.Ban("bob", 7, "why: this")),
        (f"BAN:bob:{pub.MAX_BAN_HOURS}:x", pub.Ban("bob", pub.MAX_BAN_HOURS, "x")),
        ("UNBAN:bob", pub.Unban("bob")),
        ("MUTE:bob:1", pub.Mute("bob", 1)),
        ("MUTE:bob:10080", pub.Mute("bob", 10080)),
        ("REPORTS", pub.Reports()),
        ("CLOSEREPORT:12", pub.CloseReport(12)),
        ("DELETEACCOUNT:pa:ss:w0rd", pub.DeleteAccount("pa:ss:w0rd")),
    ],
)
def test_each_request_parses(line: str, parsed: object) -> None:
    assert wire.parse_request(line) == parsed


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        # a name no account can have: no such user (or, for UNBLOCK, not blocked; UNBAN, not banned)
        ("BLOCK:", "BLOCK:ACKSTATUS:1"),
        ("BLOCK:bob:x", "BLOCK:ACKSTATUS:1"),
        ("BLOCK:b b", "BLOCK:ACKSTATUS:1"),
        ("BLOCK:" + "a" * 21, "BLOCK:ACKSTATUS:1"),
        ("UNBLOCK:", "UNBLOCK:ACKSTATUS:1"),
        ("UNBLOCK:zoé", "UNBLOCK:ACKSTATUS:1"),
        ("BLOCKS:", "BLOCKS:ACKSTATUS:1"),
        ("BLOCKS:bob", "BLOCKS:ACKSTATUS:1"),
        ("REPORT:", "REPORT:ACKSTATUS:1"),
        ("REPORT:b!b:chat:x", "REPORT:ACKSTATUS:1"),
        ("REPORT:bob", "REPORT:ACKSTATUS:2"),
        ("REPORT:bob:chat", "REPORT:ACKSTATUS:2"),  # the text's field is there, even empty
        ("REPORT:bob:Chat:x", "REPORT:ACKSTATUS:2"),  # reasons are case-sensitive
        ("REPORT:bob:spam:x", "REPORT:ACKSTATUS:2"),
        ("REPORT:bob:chat:" + "x" * 201, "REPORT:ACKSTATUS:2"),
        ("REPORT:bob:chat:a\x1b[2Jb", "REPORT:ACKSTATUS:2"),  # a control character
        ("REPORT:bob:chat:a\u202eb", "REPORT:ACKSTATUS:2"),  # a bidirectional override
        ("BAN:", "BAN:ACKSTATUS:1"),
        ("BAN:bob", "BAN:ACKSTATUS:3"),
        ("BAN:bob:24", "BAN:ACKSTATUS:3"),
        ("BAN:bob:-1:x", "BAN:ACKSTATUS:3"),
        ("BAN:bob:+1:x", "BAN:ACKSTATUS:3"),
        ("BAN:bob:1.5:x", "BAN:ACKSTATUS:3"),
        ("BAN:bob::x", "BAN:ACKSTATUS:3"),
        ("BAN:bob:³:x", "BAN:ACKSTATUS:3"),  # a digit that is not ASCII
        (f"BAN:bob:{pub.MAX_BAN_HOURS + 1}:x", "BAN:ACKSTATUS:3"),
        ("BAN:bob:99999999999999999999999:x", "BAN:ACKSTATUS:3"),
        ("BAN:bob:1:" + "x" * 201, "BAN:ACKSTATUS:3"),
        ("BAN:bob:1:\x07", "BAN:ACKSTATUS:3"),
        ("UNBAN:", "UNBAN:ACKSTATUS:1"),
        ("UNBAN:bob:1", "UNBAN:ACKSTATUS:1"),
        ("MUTE:", "MUTE:ACKSTATUS:1"),
        ("MUTE:bob", "MUTE:ACKSTATUS:3"),
        ("MUTE:bob:", "MUTE:ACKSTATUS:3"),
        ("MUTE:bob:0", "MUTE:ACKSTATUS:3"),
        ("MUTE:bob:10081", "MUTE:ACKSTATUS:3"),
        ("MUTE:bob:5:x", "MUTE:ACKSTATUS:3"),
        ("MUTE:bob:-5", "MUTE:ACKSTATUS:3"),
        ("REPORTS:", "REPORTS:ACKSTATUS:1"),
        ("REPORTS:all", "REPORTS:ACKSTATUS:1"),
        ("CLOSEREPORT:", "CLOSEREPORT:ACKSTATUS:1"),
        ("CLOSEREPORT:x", "CLOSEREPORT:ACKSTATUS:1"),
        ("CLOSEREPORT:-3", "CLOSEREPORT:ACKSTATUS:1"),
        ("CLOSEREPORT:3:4", "CLOSEREPORT:ACKSTATUS:1"),
        ("DELETEACCOUNT:", "DELETEACCOUNT:ACKSTATUS:1"),
        ("DELETEACCOUNT:two words", "DELETEACCOUNT:ACKSTATUS:1"),
        ("DELETEACCOUNT:" + "p" * 129, "DELETEACCOUNT:ACKSTATUS:1"),
    ],
)
def test_each_bad_format_gets_its_status(line: str, answer: str) -> None:
    parsed = wire.parse_request(line)
    assert parsed == wire.BadFormat(answer)
    assert not parsed.account  # answered only after a login, like any room request


@pytest.mark.parametrize("line", ["block:bob", "Blocks", "REPORTS ", "DELETE:pw", "BANS"])
def test_other_spellings_are_unknown_commands(line: str) -> None:
    with pytest.raises(wire.Violation):
        wire.parse_request(line)


def test_the_moderators_requests_are_the_five_of_the_spec() -> None:
    assert set(pub.MODERATOR_REQUESTS) == {
        pub.Ban,
        pub.Unban,
        pub.Mute,
        pub.Reports,
        pub.CloseReport,
    }
    assert set(pub.COMMANDS) == set(pub.PublicRequest.__args__)
    assert all(command in wire.PARSERS for command in pub.COMMANDS.values())


def test_the_limits_are_the_specs() -> None:
    assert (pub.MAX_BLOCKS, pub.REPORTS_PER_HOUR, pub.MAX_REPORT_TEXT) == (200, 10, 200)
    assert (pub.MUTE_MINUTES.start, pub.MUTE_MINUTES.stop - 1) == (1, 10080)
    assert (pub.REPORTS_LISTED, pub.REGISTRATIONS_PER_HOUR) == (50, 5)
    assert (pub.CHAT_LINES, pub.CHAT_SECONDS) == (5, 10)
    assert [role.value for role in pub.Role] == ["player", "moderator"]
    assert [reason.value for reason in pub.ReportReason] == ["chat", "cheating", "name", "other"]


def test_blocks_answer_lists_names_with_a_trailing_colon_when_none() -> None:
    assert pub.blocks_answer(["ann", "bob"]) == "BLOCKS:ACKSTATUS:0:ann,bob"
    assert pub.blocks_answer([]) == "BLOCKS:ACKSTATUS:0:"
    assert wire.parse_server_message(pub.blocks_answer([])) == wire.Ack("BLOCKS", 0, ("",))


REPORT = pub.ReportInfo(7, "ann", "bob", pub.ReportReason.CHAT, WHEN, 42, "said: rude things")


def test_reported_is_the_specs_line() -> None:
    line = "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42:said: rude things"
    assert pub.reported(REPORT) == line
    no_game = pub.ReportInfo(8, "ann", "deleted-3", pub.ReportReason.NAME, WHEN, None, "")
    assert pub.reported(no_game) == "REPORTED:8:ann:deleted-3:name:2026-12-02T10:00:00Z::"


def test_reports_answer_counts_then_lists_in_order() -> None:
    other = pub.ReportInfo(9, "cid", "bob", pub.ReportReason.OTHER, WHEN, None, "x")
    assert pub.reports_answer([REPORT, other]) == [
        "REPORTS:ACKSTATUS:0:2",
        pub.reported(REPORT),
        pub.reported(other),
    ]
    assert pub.reports_answer([]) == ["REPORTS:ACKSTATUS:0:0"]


def test_a_reported_line_is_read_by_the_lobby_client() -> None:
    assert wire.parse_server_message(pub.reported(REPORT)) == REPORT
    unicode = pub.ReportInfo(1, "ann", "bob", pub.ReportReason.OTHER, WHEN, None, "né 🙂:")
    assert wire.parse_server_message(pub.reported(unicode)) == unicode


@pytest.mark.parametrize(
    "line",
    [
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42",  # no text field
        "REPORTED:x:ann:bob:chat:2026-12-02T10:00:00Z:42:t",
        "REPORTED:7:a n:bob:chat:2026-12-02T10:00:00Z:42:t",
        "REPORTED:7:ann::chat:2026-12-02T10:00:00Z:42:t",
        "REPORTED:7:ann:bob:spam:2026-12-02T10:00:00Z:42:t",
        "REPORTED:7:ann:bob:chat:2026-12-02 10:00:00Z:42:t",
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00Z:42:t",
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:g1:t",
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42:\x1b[2J",  # escapes never reach a screen
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42:é\x1b[2J",
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42:\u202etxt",
        "REPORTED:7:annë:bob:chat:2026-12-02T10:00:00Z:42:t",  # only the text may be Unicode
        "REPORTED:7:ann:bob:chat:2026-12-02T10:00:00Z:42:" + "x" * 201,
    ],
)
def test_a_reported_line_out_of_the_rules_is_a_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError):
        wire.parse_server_message(line)


def test_a_chat_ack_with_unicode_is_still_refused_field_by_field() -> None:
    assert wire.parse_server_message("CHAT:ACKSTATUS:1") == wire.Ack("CHAT", 1)
    assert wire.parse_server_message("CHAT:ann:né") == wire.ChatLine("ann", "né")
    with pytest.raises(ProtocolError):
        wire.parse_server_message("BYE:é")  # Unicode outside a text: refused as before


def test_bye_has_the_two_new_reasons() -> None:
    assert bye(ByeReason.BANNED) == "BYE:banned"
    assert bye(ByeReason.DELETED) == "BYE:deleted"
    assert wire.parse_server_message("BYE:deleted") == wire.Bye("deleted")


def test_profile_carries_the_role_and_reads_old_servers_as_players() -> None:
    line = competition.profile("ann", 1500.4, 349.6, (3, 1, 1, 1), False, role="moderator")
    assert line == "PROFILE:ACKSTATUS:0:ann:1500:350:3:1:1:1:0:moderator"
    answer = wire.parse_server_message(line)
    assert isinstance(answer, wire.Ack)
    info = competition.parse_profile_answer(answer.extra)
    assert info is not None and info.role == "moderator" and not info.bot
    old = competition.parse_profile_answer(("ann", "1500", "350", "3", "1", "1", "1", "1"))
    assert old is not None and old.role == "player" and old.bot
    assert competition.profile("ann", 1500, 350, (0, 0, 0, 0), False, role="player").endswith(
        ":0:player"
    )
    assert competition.profile("ann", 1500, 350, (0, 0, 0, 0), False).endswith(":0:0:0:0:0")


@pytest.mark.parametrize("role", ["", "Moder ator", "MODERATOR", "x" * 21, "1"])
def test_a_profile_with_a_role_out_of_shape_is_none(role: str) -> None:
    fields = ("ann", "1500", "350", "3", "1", "1", "1", "0", role)
    assert competition.parse_profile_answer(fields) is None


# ----- properties -------------------------------------------------------------------------

users = st.from_regex(r"[A-Za-z0-9_-]{1,20}", fullmatch=True)
texts = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs")), max_size=200
)
reasons = st.sampled_from(pub.ReportReason)
reports = st.builds(
    pub.ReportInfo,
    number=st.integers(0, 10**18 - 1),
    reporter=users,
    reported=users,
    reason=reasons,
    when=st.datetimes(datetime(2000, 1, 1), datetime(9999, 1, 1)).map(
        lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    ),
    game=st.none() | st.integers(0, 10**18 - 1),
    text=texts,
)


@given(reports)
def test_every_report_reads_back_the_same(report: pub.ReportInfo) -> None:
    assert wire.parse_server_message(pub.reported(report)) == report


@given(users, reasons, texts)
def test_every_report_request_reads_back_the_same(
    user: str, reason: pub.ReportReason, text: str
) -> None:
    line = f"REPORT:{user}:{reason.value}:{text}"
    assert wire.parse_request(line) == pub.Report(user, reason, text)


@given(users, st.integers(0, pub.MAX_BAN_HOURS), texts)
def test_every_ban_reads_back_the_same(user: str, hours: int, reason: str) -> None:
    assert wire.parse_request(f"BAN:{user}:{hours}:{reason}") == pub.Ban(user, hours, reason)


@given(users, st.integers(-20000, 20000))
def test_a_mute_reads_exactly_when_its_minutes_are_in_range(user: str, minutes: int) -> None:
    parsed = wire.parse_request(f"MUTE:{user}:{minutes}")
    if minutes in pub.MUTE_MINUTES:
        assert parsed == pub.Mute(user, minutes)
    else:
        assert parsed == wire.BadFormat("MUTE:ACKSTATUS:3")


@given(st.text(max_size=300))
def test_any_report_text_parses_or_gets_the_bad_format(text: str) -> None:
    parsed = wire.parse_request(f"REPORT:bob:other:{text}")
    assert parsed in (
        pub.Report("bob", pub.ReportReason.OTHER, text),
        wire.BadFormat("REPORT:ACKSTATUS:2"),
    )
    assert isinstance(parsed, pub.Report) == pub.valid_text(text)


@given(st.lists(users, max_size=pub.MAX_BLOCKS))
def test_a_blocks_answer_lists_back_its_names(names: list[str]) -> None:
    answer = wire.parse_server_message(pub.blocks_answer(names))
    assert isinstance(answer, wire.Ack) and answer.status == 0
    assert [name for name in ":".join(answer.extra).split(",") if name] == names
