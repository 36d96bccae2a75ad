"""The lobby in public (§7) as work (``sql_work``) both engines run.

Blocks, reports, roles, sanctions, the moderators' log and the change feed that
running servers read.
A ban, a mute and a role live on the account's row (so the account's deletion takes
them with it); blocks, reports and the moderators' actions in tables of their own.
Every role, ban, unban, mute, deletion and change of one's blocks appends to
``moderation_events`` (so that every node's rooms hold the blocks the store keeps), numbered
by the one row of ``moderation_feed``: its update holds that row's lock to the
transaction's commit, so the numbers are taken in commit order on PostgreSQL too and a
server that has read event n never later finds an n - 1 it missed. The acts that keep
more than one row run in one transaction (``SqlStore``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from c4tui.numbers import number_in_range
from c4tui.outside.sandbox import printable
from c4tui.protocols.names import valid_user
from c4tui.protocols.public import (
    MAX_BLOCKS,
    MAX_REPORT_TEXT,
    REPORTS_PER_HOUR,
    ReportInfo,
    ReportReason,
    valid_text,
)
from c4tui.server.moderation_store import (
    NO_SANCTIONS,
    EventKind,
    ModerationEvent,
    ModeratorAction,
    Sanctions,
    iso_utc,
)
from c4tui.server.sql_work import Statement, Work

#: Seconds in the hour a reporter's reports are counted over.
REPORTS_WINDOW = 3600
#: The most events one read of the feed returns (the next read goes on from the last).
EVENTS_READ = 1000


def public_migration(identity: str, real: str, integer: str) -> tuple[str, ...]:
    """§7's columns and tables, in one engine's types.

    ``identity``: a numbered primary key; ``real``: a double; ``integer``: a 64-bit one.
    """
    return (
        "ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'player'",
        "ALTER TABLE accounts ADD COLUMN banned INTEGER NOT NULL DEFAULT 0",
        f"ALTER TABLE accounts ADD COLUMN banned_until {real}",  # NULL: until unbanned
        "ALTER TABLE accounts ADD COLUMN ban_reason TEXT NOT NULL DEFAULT ''",
        f"ALTER TABLE accounts ADD COLUMN muted_until {real}",
        "CREATE TABLE blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL,"
        f" since {real} NOT NULL, PRIMARY KEY (blocker, blocked))",
        "CREATE INDEX blocks_by_blocked ON blocks (blocked)",
        f"CREATE TABLE reports (id {identity}, reporter TEXT NOT NULL, reported TEXT NOT NULL,"
        f" reason TEXT NOT NULL, text TEXT NOT NULL, at {real} NOT NULL, game {integer},"
        f" closed_at {real}, closed_by TEXT)",
        "CREATE INDEX reports_by_reporter ON reports (reporter, at)",
        "CREATE INDEX reports_by_reported ON reports (reported)",
        "CREATE INDEX open_reports ON reports (id) WHERE closed_at IS NULL",
        f"CREATE TABLE moderator_actions (id {identity}, moderator TEXT NOT NULL,"
        f" action TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, until {real},"
        f" at {real} NOT NULL)",
        "CREATE INDEX moderator_actions_by_target ON moderator_actions (target)",
        "CREATE INDEX moderator_actions_by_moderator ON moderator_actions (moderator)",
        f"CREATE TABLE moderation_events (number {integer} PRIMARY KEY, kind TEXT NOT NULL,"
        f" name TEXT NOT NULL, at {real} NOT NULL)",
        f"CREATE TABLE moderation_feed (last {integer} NOT NULL)",
        "INSERT INTO moderation_feed (last) VALUES (0)",
        # A deleted account's stand-in is deleted-<number>; its folded name stays reserved.
        f"CREATE TABLE deleted_accounts (number {identity}, folded TEXT, at {real} NOT NULL)",
        "CREATE INDEX deleted_accounts_by_folded ON deleted_accounts (folded)",
    )


# ----- accounts --------------------------------------------------------------------


def account_exists(user: str) -> Work[bool]:
    """Whether an account is called exactly ``user``."""
    rows = yield ("SELECT 1 FROM accounts WHERE name = ?", (user,))
    return bool(rows)


def _both_exist(first: str, second: str) -> Work[bool]:
    """Whether an account is called exactly ``first`` and another exactly ``second``."""
    rows = yield ("SELECT count(*) FROM accounts WHERE name IN (?, ?)", (first, second))
    return int(rows[0][0]) == 2


def login_record(user: str, now: float) -> Work[tuple[bytes, bool] | None]:
    """``user``'s bcrypt hash and whether a ban holds at ``now``; None: no such account."""
    rows = yield ("SELECT hash, banned, banned_until FROM accounts WHERE name = ?", (user,))
    if not rows:
        return None
    hashed, banned, until = rows[0]
    return bytes(hashed), _ban_holds(banned, until, now)


def _ban_holds(banned: int, until: float | None, now: float) -> bool:
    """A ban holds from its start until ``until`` (None: until unbanned)."""
    return bool(banned) and (until is None or until > now)


# ----- blocks ----------------------------------------------------------------------


def block(blocker: str, blocked: str, now: float) -> Work[int]:
    """BLOCK's status: 0 blocked (already, too), 1 no such user or oneself, 2 MAX_BLOCKS already.

    A blocker deleted meanwhile (its connection not yet closed) blocks no one: 1.
    """
    if blocker == blocked or not (yield from _both_exist(blocker, blocked)):
        return 1
    pair = (blocker, blocked)
    if (yield ("SELECT 1 FROM blocks WHERE blocker = ? AND blocked = ?", pair)):
        return 0
    counted = yield ("SELECT count(*) FROM blocks WHERE blocker = ?", (blocker,))
    if counted[0][0] >= MAX_BLOCKS:
        return 2
    yield (
        "INSERT INTO blocks (blocker, blocked, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (*pair, now),
    )
    yield from announce(EventKind.BLOCKS, blocker, now)  # for every node's rooms
    return 0


def unblock(blocker: str, blocked: str, now: float) -> Work[bool]:
    """Whether ``blocker`` blocked ``blocked`` (and now no longer does)."""
    rows = yield (
        "DELETE FROM blocks WHERE blocker = ? AND blocked = ? RETURNING blocked",
        (blocker, blocked),
    )
    if rows:
        yield from announce(EventKind.BLOCKS, blocker, now)  # for every node's rooms
    return bool(rows)


def blocks_of(user: str) -> Work[list[str]]:
    """Whom ``user`` blocks, by name."""
    rows = yield ("SELECT blocked FROM blocks WHERE blocker = ? ORDER BY blocked", (user,))
    return [str(row[0]) for row in rows]


def all_blocks() -> Work[list[tuple[str, str]]]:
    """Every block: (blocker, blocked)."""
    rows = yield ("SELECT blocker, blocked FROM blocks ORDER BY blocker, blocked", ())
    return [(str(blocker), str(blocked)) for blocker, blocked in rows]


# ----- reports ---------------------------------------------------------------------


def report(reporter: str, reported: str, reason: ReportReason, text: str, now: float) -> Work[int]:
    """REPORT's status: 0 kept, 1 no such user (or oneself), 3 too many in the last hour.

    A report keeps the last game between the two (None: none); its reporter may send
    REPORTS_PER_HOUR in any hour. A reporter deleted meanwhile reports no one: 1.
    """
    if reporter == reported or not (yield from _both_exist(reporter, reported)):
        return 1
    counted = yield (
        "SELECT count(*) FROM reports WHERE reporter = ? AND at > ?",
        (reporter, now - REPORTS_WINDOW),
    )
    if counted[0][0] >= REPORTS_PER_HOUR:
        return 3
    games = yield (
        "SELECT id FROM games WHERE (red = ? AND yellow = ?) OR (red = ? AND yellow = ?)"
        " ORDER BY id DESC LIMIT 1",
        (reporter, reported, reported, reporter),
    )
    yield (
        "INSERT INTO reports (reporter, reported, reason, text, at, game)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (reporter, reported, reason.value, text, now, int(games[0][0]) if games else None),
    )
    return 0


def open_reports(limit: int) -> Work[list[ReportInfo]]:
    """The open reports this c4tui can read, oldest first, among the first ``limit``.

    The database may hold rows no server of ours wrote (a newer c4tui's reason, a text
    kept by hand): a row that does not read is left out (``unreadable_reports`` names
    it), and a text with control characters comes escaped, so that what is listed can
    neither break a moderator's REPORTED lines nor act on ``c4tui admin``'s terminal.
    """
    rows = yield from _open_report_rows(limit)
    return [report for report in map(_report_read, rows) if report is not None]


def unreadable_reports(limit: int) -> Work[list[int]]:
    """The open reports among the first ``limit`` that ``open_reports`` leaves out, by number."""
    rows = yield from _open_report_rows(limit)
    return [int(row[0]) for row in rows if _report_read(row) is None]


def _open_report_rows(limit: int) -> Work[list[tuple[Any, ...]]]:
    """The first ``limit`` open reports' rows, oldest first, as the database holds them."""
    rows = yield (
        "SELECT id, reporter, reported, reason, at, game, text FROM reports"
        " WHERE closed_at IS NULL ORDER BY id LIMIT ?",
        (limit,),
    )
    return [tuple(row) for row in rows]


#: The reasons a report may give, by their words.
_REASONS = {reason.value: reason for reason in ReportReason}


def _report_read(row: tuple[Any, ...]) -> ReportInfo | None:
    """One report's row as a ``ReportInfo`` (its text escaped if need be); None: unreadable."""
    number, reporter, reported, reason, at, game, text = row
    names_read = all(isinstance(name, str) and valid_user(name) for name in (reporter, reported))
    if not (names_read and reason in _REASONS and isinstance(text, str)):
        return None
    if not isinstance(at, int | float) or not (game is None or isinstance(game, int)):
        return None
    try:
        when = iso_utc(at)
    except (OverflowError, ValueError, OSError):  # no time a calendar holds
        return None
    shown = text if valid_text(text) else printable(text, MAX_REPORT_TEXT - 1)
    return ReportInfo(int(number), reporter, reported, _REASONS[reason], when, game, shown)


def close_report(number: int, by: str, now: float) -> Work[bool]:
    """Close the open report ``number`` (kept as ``by``'s action); False: no such open one."""
    rows = yield (
        "UPDATE reports SET closed_at = ?, closed_by = ? WHERE id = ? AND closed_at IS NULL"
        " RETURNING reported",
        (now, by, number),
    )
    if not rows:
        return False
    yield record(Act(by, "close-report", rows[0][0], str(number), None, now))
    return True


# ----- roles and sanctions ---------------------------------------------------------


def role(user: str) -> Work[str | None]:
    """``user``'s role (a ``Role``'s value); None: no such account."""
    rows = yield ("SELECT role FROM accounts WHERE name = ?", (user,))
    return str(rows[0][0]) if rows else None


def set_role(user: str, given: str, by: str, now: float) -> Work[bool]:
    """``user``'s role becomes ``given``; False: no such account."""
    rows = yield ("UPDATE accounts SET role = ? WHERE name = ? RETURNING name", (given, user))
    return (yield from _acted(bool(rows), EventKind.ROLE, Act(by, "role", user, given, None, now)))


def ban(user: str, until: float | None, reason: str, by: str, now: float) -> Work[bool]:
    """Ban ``user`` until ``until`` (None: until unbanned); False: no such account."""
    rows = yield (
        "UPDATE accounts SET banned = 1, banned_until = ?, ban_reason = ? WHERE name = ?"
        " RETURNING name",
        (until, reason, user),
    )
    return (yield from _acted(bool(rows), EventKind.BAN, Act(by, "ban", user, reason, until, now)))


def unban(user: str, by: str, now: float) -> Work[bool]:
    """Lift ``user``'s ban; False: no ban holds (none, an ended one, or no such account)."""
    rows = yield (
        "UPDATE accounts SET banned = 0, banned_until = NULL, ban_reason = '' WHERE name = ?"
        " AND banned = 1 AND (banned_until IS NULL OR banned_until > ?) RETURNING name",
        (user, now),
    )
    return (yield from _acted(bool(rows), EventKind.UNBAN, Act(by, "unban", user, "", None, now)))


def mute(user: str, until: float, by: str, now: float) -> Work[bool]:
    """Mute ``user`` until ``until``; False: no such account."""
    rows = yield (
        "UPDATE accounts SET muted_until = ? WHERE name = ? RETURNING name",
        (until, user),
    )
    return (yield from _acted(bool(rows), EventKind.MUTE, Act(by, "mute", user, "", until, now)))


def _acted(done: bool, kind: EventKind, act: Act) -> Work[bool]:
    """After ``act`` on its target's row: if it was ``done``, kept, then in the feed as ``kind``."""
    if done:
        yield record(act)
        yield from announce(kind, act.target, act.at)
    return done


def sanctions(user: str, now: float) -> Work[Sanctions | None]:
    """What holds against ``user`` at ``now`` (an ended ban or mute is left out); None: no user."""
    rows = yield (
        "SELECT banned, banned_until, ban_reason, muted_until FROM accounts WHERE name = ?",
        (user,),
    )
    if not rows:
        return None
    banned, banned_until, ban_reason, muted_until = rows[0]
    held = NO_SANCTIONS
    if _ban_holds(banned, banned_until, now):
        held = Sanctions(True, banned_until, str(ban_reason), None)
    if muted_until is not None and muted_until > now:
        held = Sanctions(held.banned, held.banned_until, held.ban_reason, float(muted_until))
    return held


# ----- the moderators' log and the change feed -------------------------------------

_ACTION_COLUMNS = "id, moderator, action, target, reason, until, at"


@dataclass(frozen=True)
class Act:
    """One moderator's act as it is kept: who, what, to whom, why, until when, and when.

    The times are epoch seconds (``until`` None: no end, or none to say).
    """

    by: str
    action: str
    target: str
    reason: str
    until: float | None
    at: float


def record(act: Act) -> Statement:
    """The statement that keeps ``act`` in the moderators' log."""
    return (
        "INSERT INTO moderator_actions (moderator, action, target, reason, until, at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (act.by, act.action, act.target, act.reason, act.until, act.at),
    )


def announce(kind: EventKind, user: str, now: float) -> Work[None]:
    """Append a change to the feed, numbered after every committed one (see the module)."""
    rows = yield ("UPDATE moderation_feed SET last = last + 1 RETURNING last", ())
    yield (
        "INSERT INTO moderation_events (number, kind, name, at) VALUES (?, ?, ?, ?)",
        (int(rows[0][0]), kind.value, user, now),
    )


def actions(where: str, parameters: tuple[object, ...], order: str) -> Work[list[ModeratorAction]]:
    """The moderators' actions ``where`` says, in ``order`` (both SQL, written here)."""
    rows = yield (f"SELECT {_ACTION_COLUMNS} FROM moderator_actions {where} {order}", parameters)
    return [
        ModeratorAction(
            int(number),
            moderator,
            action,
            target,
            reason,
            None if until is None else iso_utc(until),
            iso_utc(at),
        )
        for number, moderator, action, target, reason, until, at in rows
    ]


def moderator_actions(limit: int) -> Work[list[ModeratorAction]]:
    """The last ``limit`` moderators' actions, newest first."""
    return (yield from actions("", (limit,), "ORDER BY id DESC LIMIT ?"))


def events_after(number: int) -> Work[list[ModerationEvent]]:
    """The feed's changes after ``number``, in order (at most EVENTS_READ).

    Only the kinds this c4tui knows: one a newer ``c4tui admin`` wrote is passed over, so
    it never stops the changes after it from reaching the servers. A deletion is kept
    under the account's stand-in and read as its folded name (``sql_erasure``), which
    its connections' name folds to.
    """
    known = [kind.value for kind in EventKind]
    rows = yield (
        "SELECT number, kind, name FROM moderation_events WHERE number > ?"
        f" AND kind IN ({', '.join('?' * len(known))}) ORDER BY number LIMIT ?",
        (number, *known, EVENTS_READ),
    )
    events = []
    for n, kind, name in rows:
        user = str(name)
        if kind == EventKind.DELETE:
            user = yield from _folded_name_of(user)
        events.append(ModerationEvent(int(n), EventKind(kind), user))
    return events


def _folded_name_of(stand_in: str) -> Work[str]:
    """The folded name a deleted account's stand-in ``deleted-<n>`` stands for (else as is)."""
    number = number_in_range(stand_in.removeprefix("deleted-"), 1, 2**63 - 1)
    if not stand_in.startswith("deleted-") or number is None:
        return stand_in
    rows = yield ("SELECT folded FROM deleted_accounts WHERE number = ?", (number,))
    return str(rows[0][0]) if rows and rows[0][0] is not None else stand_in


def last_event() -> Work[int]:
    """The number of the feed's last committed change (0: none yet)."""
    rows = yield ("SELECT last FROM moderation_feed", ())
    return int(rows[0][0])
