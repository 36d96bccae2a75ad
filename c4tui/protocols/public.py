"""The lobby in public (spec/protocols.md §7): blocks, reports, moderators, bans, limits.

Part of the lobby codec: ``c4tui.protocols.lobby`` parses these requests with the
others (``PARSERS``, ``BARE``) and reads REPORTED among the server's messages
(``parse_public_message``). Who may do what, and the limits' counting, are the
server's; the numbers they count to live here, once, for the server, its options
and the clients' words alike.

Where §7 is silent this codec chose (PROTOCOL.md says so too): a name no account
can have is "no such user" (as PROFILE's), a bad format is answered before the
server looks at the sender's role, BLOCKS or REPORTS with an argument answer
status 1, a ban is at most ``MAX_BAN_HOURS`` long (0: until unbanned), and the
REPORTED line's time holds colons of its own (``2026-12-02T10:00:00Z``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from c4tui.numbers import number_in_range, whole_number
from c4tui.protocols.chat import MAX_CHAT, REFUSED_CATEGORIES
from c4tui.protocols.names import GUEST_PREFIX, valid_password, valid_user
from c4tui.protocols.rooms import BadFormat, ack

# ----- the limits, each in one place --------------------------------------------------

#: The most users one account may block.
MAX_BLOCKS = 200
#: The most REPORTs one account may send in an hour.
REPORTS_PER_HOUR = 10
#: The most characters a report's text (or a ban's reason) holds: a chat line's.
MAX_REPORT_TEXT = MAX_CHAT
#: The minutes a MUTE may last (a week at most).
MUTE_MINUTES = range(1, 10081)
#: The longest ban in hours (about 114 years; 0 is "until unbanned").
MAX_BAN_HOURS = 1_000_000
#: The most open reports REPORTS lists.
REPORTS_LISTED = 50
#: REGISTERs per address (IPv6: per /64) per hour: ``serve --max-registrations``' default.
REGISTRATIONS_PER_HOUR = 5
#: CHAT lines per user per ``CHAT_SECONDS``: ``serve --chat-rate``' default.
CHAT_LINES = 5
CHAT_SECONDS = 10

# ----- the statuses of the answers that gained one ------------------------------------

#: LOGIN:ACKSTATUS:4: the account is banned (only once the password matched).
LOGIN_BANNED = 4
#: REGISTER:ACKSTATUS:3: too many registrations from this address in the last hour.
TOO_MANY_REGISTRATIONS = 3
#: CHAT:ACKSTATUS:1 the sender is muted; :2 too fast (a delivered CHAT is not acknowledged).
CHAT_MUTED = 1
CHAT_TOO_FAST = 2


class ReportReason(Enum):
    """What a report is about."""

    CHAT = "chat"
    CHEATING = "cheating"
    NAME = "name"
    OTHER = "other"


class Role(Enum):
    """An account's role, as the database keeps it and PROFILE's last field says it."""

    PLAYER = "player"
    MODERATOR = "moderator"


#: Names REGISTER refuses in any case though their rule allows them: a deleted account's
#: stand-in (``deleted-<n>``, which would impersonate one in the records), ``ACKSTATUS``
#: (``CHAT:ACKSTATUS:1`` from it would read as a status) and any ``guest-…`` (§9: the
#: names of ssh guests, who have no account, so an account could pass itself off as one).
_RESERVED_NAME = re.compile(rf"deleted-[0-9]+|ackstatus|{re.escape(GUEST_PREFIX)}.*")


def reserved_name(user: str) -> bool:
    """Whether ``user`` is a name no new account may take, in any case (§7)."""
    return _RESERVED_NAME.fullmatch(user.lower()) is not None


def valid_text(text: str) -> bool:
    """A report's text or a ban's reason: 0-200 printable characters, by chat's rule (§5.6)."""
    return len(text) <= MAX_REPORT_TEXT and all(
        unicodedata.category(character) not in REFUSED_CATEGORIES for character in text
    )


# ----- what clients send ---------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """BLOCK:<user>: hear nothing from ``user``, play nothing against it."""

    user: str


@dataclass(frozen=True)
class Unblock:
    """UNBLOCK:<user>."""

    user: str


@dataclass(frozen=True)
class Blocks:
    """BLOCKS: whom the caller blocks."""


@dataclass(frozen=True)
class Report:
    """REPORT:<user>:<reason>:<text>; the text (0-200 characters) may hold colons."""

    user: str
    reason: ReportReason
    text: str


@dataclass(frozen=True)
class Ban:
    """BAN:<user>:<hours>:<reason> (moderators): ``hours`` 0 bans until UNBAN."""

    user: str
    hours: int
    reason: str


@dataclass(frozen=True)
class Unban:
    """UNBAN:<user> (moderators)."""

    user: str


@dataclass(frozen=True)
class Mute:
    """MUTE:<user>:<minutes> (moderators): the user's CHAT reaches nobody for that long."""

    user: str
    minutes: int


@dataclass(frozen=True)
class Reports:
    """REPORTS (moderators): the open reports, oldest first."""


@dataclass(frozen=True)
class CloseReport:
    """CLOSEREPORT:<id> (moderators)."""

    number: int


@dataclass(frozen=True)
class DeleteAccount:
    """DELETEACCOUNT:<password>: the caller's account erased (BYE:deleted follows)."""

    password: str


PublicRequest = (
    Block | Unblock | Blocks | Report | Ban | Unban | Mute | Reports | CloseReport | DeleteAccount
)
#: The requests only moderators may send (anyone else: their "not a moderator" status).
MODERATOR_REQUESTS = (Ban, Unban, Mute, Reports, CloseReport)
#: The status each of them answers to anyone else.
NOT_A_MODERATOR = 2


def _named(command: str, kind: Callable[[str], PublicRequest]) -> Parser:
    """``<command>:<user>``; a name no account can have is no such user (status 1)."""

    def parse(rest: str) -> PublicRequest | BadFormat:
        return kind(rest) if valid_user(rest) else BadFormat(ack(command, 1))

    return parse


def parse_report(rest: str) -> Report | BadFormat:
    """REPORT:<user>:<reason>:<text>: 1 for a name no account has, 2 for any other flaw."""
    user, *fields = rest.split(":", 2)
    if not valid_user(user):
        return BadFormat(ack("REPORT", 1))
    if len(fields) != 2 or fields[0] not in _REASONS or not valid_text(fields[1]):
        return BadFormat(ack("REPORT", 2))
    return Report(user, ReportReason(fields[0]), fields[1])


def parse_ban(rest: str) -> Ban | BadFormat:
    """BAN:<user>:<hours>:<reason>: 1 for a name no account has, 3 for any other flaw."""
    user, *fields = rest.split(":", 2)
    if not valid_user(user):
        return BadFormat(ack("BAN", 1))
    hours = number_in_range(fields[0], 0, MAX_BAN_HOURS) if len(fields) == 2 else None
    if hours is None or not valid_text(fields[1]):
        return BadFormat(ack("BAN", 3))
    return Ban(user, hours, fields[1])


def parse_mute(rest: str) -> Mute | BadFormat:
    """MUTE:<user>:<minutes>: 1 for a name no account has, 3 for any other flaw."""
    user, _, text = rest.partition(":")
    if not valid_user(user):
        return BadFormat(ack("MUTE", 1))
    minutes = whole_number(text)
    if minutes is None or minutes not in MUTE_MINUTES:
        return BadFormat(ack("MUTE", 3))
    return Mute(user, minutes)


def parse_close_report(rest: str) -> CloseReport | BadFormat:
    """CLOSEREPORT:<id>; an id that is no number is no such open report (status 1)."""
    number = whole_number(rest)
    return CloseReport(number) if number is not None else BadFormat(ack("CLOSEREPORT", 1))


def parse_delete_account(rest: str) -> DeleteAccount | BadFormat:
    """DELETEACCOUNT:<password>; a password no account can have is wrong (status 1)."""
    return DeleteAccount(rest) if valid_password(rest) else BadFormat(ack("DELETEACCOUNT", 1))


def _refused(command: str) -> Parser:
    """The bare command is the request; with any argument it is a bad format (status 1)."""

    def parse(rest: str) -> PublicRequest | BadFormat:
        return BadFormat(ack(command, 1))

    return parse


Parser = Callable[[str], "PublicRequest | BadFormat"]
_REASONS = frozenset(reason.value for reason in ReportReason)
#: Each command's parser (its arguments after the first colon).
PARSERS: dict[str, Parser] = {
    "BLOCK": _named("BLOCK", Block),
    "UNBLOCK": _named("UNBLOCK", Unblock),
    "BLOCKS": _refused("BLOCKS"),
    "REPORT": parse_report,
    "BAN": parse_ban,
    "UNBAN": _named("UNBAN", Unban),
    "MUTE": parse_mute,
    "REPORTS": _refused("REPORTS"),
    "CLOSEREPORT": parse_close_report,
    "DELETEACCOUNT": parse_delete_account,
}
#: The commands that come without an argument.
BARE: dict[str, PublicRequest] = {"BLOCKS": Blocks(), "REPORTS": Reports()}
#: The command (and so the answer's word) of each request.
COMMANDS: dict[type[PublicRequest], str] = {
    Block: "BLOCK",
    Unblock: "UNBLOCK",
    Blocks: "BLOCKS",
    Report: "REPORT",
    Ban: "BAN",
    Unban: "UNBAN",
    Mute: "MUTE",
    Reports: "REPORTS",
    CloseReport: "CLOSEREPORT",
    DeleteAccount: "DELETEACCOUNT",
}


# ----- what the server sends, and clients receive ------------------------------------


@dataclass(frozen=True)
class ReportInfo:
    """One open report, as REPORTED carries it; ``when`` in UTC ISO 8601 (``…T10:00:00Z``)."""

    number: int
    reporter: str
    reported: str
    reason: ReportReason
    when: str
    game: int | None
    text: str


_WHEN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_ID = re.compile(r"[0-9]{1,18}")


def blocks_answer(users: Sequence[str]) -> str:
    """BLOCKS:ACKSTATUS:0:<user>,<user>,… (none: a trailing colon)."""
    return ack("BLOCKS", 0, ",".join(users))


def reported(report: ReportInfo) -> str:
    """REPORTED:<id>:<reporter>:<reported>:<reason>:<when>:<game or empty>:<text>."""
    game = "" if report.game is None else str(report.game)
    fields = [report.reporter, report.reported, report.reason.value, report.when, game]
    return ":".join(["REPORTED", str(report.number), *fields, report.text])


def reports_answer(reports: Sequence[ReportInfo]) -> list[str]:
    """REPORTS:ACKSTATUS:0:<n>, then the n REPORTED lines in order (oldest first)."""
    return [ack("REPORTS", 0, str(len(reports))), *(reported(report) for report in reports)]


def parse_reported(line_fields: Sequence[str]) -> ReportInfo | None:
    """A REPORTED line split at every colon (its word first); None if it is not one.

    The time holds two colons and the text any number, so the fields are counted
    from both ends; every field but the text must be by its rule, the text by chat's.
    """
    if len(line_fields) < 10 or line_fields[0] != "REPORTED":
        return None
    number, reporter, target, reason = line_fields[1:5]
    when, game, text = ":".join(line_fields[5:8]), line_fields[8], ":".join(line_fields[9:])
    if not (_ID.fullmatch(number) and valid_user(reporter) and valid_user(target)):
        return None
    if reason not in _REASONS or not _WHEN.fullmatch(when) or not valid_text(text):
        return None
    if game and not _ID.fullmatch(game):
        return None
    kept_game = int(game) if game else None
    return ReportInfo(int(number), reporter, target, ReportReason(reason), when, kept_game, text)


PublicMessage = ReportInfo


def parse_public_message(fields: list[str]) -> PublicMessage | None:
    """REPORTED from a server line split at its colons (None: not one of §7's messages)."""
    return parse_reported(fields)
