"""``c4tui admin``'s acts on a lobby's database, with the server running or not (§7).

Each act opens the store beside whatever server holds it (a SQLite file shared, not
held: ``exclusive=False``), does one thing as the moderator ``admin:<login name>``
(so the moderators' log says who), and says what it did in one line, or why it did
nothing. The running servers read the store's change feed and act within seconds.
What went wrong with the database is said in words with an exit status, never a
traceback: 1 nothing done (no such account, nothing to undo), 2 the --db is no lobby's
database (a file or a PostgreSQL database without its accounts: never created there),
3 the database cannot be used (unreachable, refused, newer; for ``reports``, an open
report it cannot read, the readable ones listed all the same).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from c4tui.net.address import without_password
from c4tui.protocols.public import ReportInfo, Role
from c4tui.server.limits import DEFAULT_ROUNDS
from c4tui.server.moderation_store import iso_utc
from c4tui.server.store import LobbyStore, StoreError, default_database
from c4tui.server.stores import EngineMissing, holds_a_lobby, is_postgres, open_store

#: Exit statuses: done, nothing done, the --db is no database, the database is unusable.
DONE, NOTHING_DONE, NO_DATABASE, UNUSABLE = 0, 1, 2, 3
#: Seconds to reach a PostgreSQL server before saying it cannot be reached (libpq's own).
CONNECT_SECONDS = "10"
#: The words the role command takes, and the role each gives.
ROLES = {"moderator": Role.MODERATOR, "none": Role.PLAYER}
#: Seconds in a ban's and a mute's units.
HOUR, MINUTE = 3600, 60


@dataclass(frozen=True)
class Said:
    """What an act came to: its exit status and its words (to stdout if done, else stderr)."""

    status: int
    text: str


Act = Callable[[LobbyStore, str], Awaitable[Said]]


def moderator_name() -> str:
    """Who acts: ``admin:<the operating system's login name>``."""
    try:
        return f"admin:{getpass.getuser()}"
    except (OSError, KeyError):  # no login name (a container's nameless user)
        return f"admin:uid-{os.getuid()}"


def run(db: str | None, act: Act) -> int:
    """Open ``db`` (None: serve's default file), do ``act`` as the moderator, say it; the status."""
    location = db if db is not None else str(default_database())
    if not is_postgres(location) and (refused := _not_a_lobby_file(Path(location))):
        return _said(refused)
    os.environ.setdefault("PGCONNECT_TIMEOUT", CONNECT_SECONDS)
    unusable: tuple[type[BaseException], ...] = (StoreError, sqlite3.Error, OSError)
    try:
        refused = _not_a_lobby_database(location) if is_postgres(location) else None
        said = refused or asyncio.run(_in_store(location, act))
    except KeyboardInterrupt:  # Ctrl-C at delete's question, or while the database answers
        said = Said(NOTHING_DONE, "interrupted (an act already committed stays done)")
    except EngineMissing as error:
        said = Said(UNUSABLE, str(error))
    except (*unusable, *_driver_errors()) as error:
        said = Said(UNUSABLE, f"cannot use the database {_shown(location)}: {_first_line(error)}")
    return _said(said)


#: What --db names, said when it names no lobby's database.
_WHERE = "--db: the file c4tui serve keeps, or a postgresql:// URL"


def _not_a_lobby_file(path: Path) -> Said | None:
    """Why ``path`` is no lobby's SQLite file (None: it is one), read without writing.

    The store would create a missing file, or its tables in another program's database.
    """
    where = _WHERE
    if not path.is_file():
        return Said(NO_DATABASE, f"no database at {path} ({where})")
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        ) as db:
            found = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'accounts'").fetchall()
    except sqlite3.Error as error:
        return Said(UNUSABLE, f"cannot use the database {path}: {_first_line(error)}")
    return None if found else Said(NO_DATABASE, f"{path} holds no lobby's accounts ({where})")


def _not_a_lobby_database(url: str) -> Said | None:
    """Why the PostgreSQL database at ``url`` is no lobby's (None: it is one), read only."""
    if holds_a_lobby(url):
        return None
    return Said(NO_DATABASE, f"{_shown(url)} holds no lobby's accounts ({_WHERE})")


async def _in_store(location: str, act: Act) -> Said:
    """Do ``act`` on the store of ``location``, opened for it alone."""
    store = open_store(location, DEFAULT_ROUNDS, exclusive=False)
    await store.open()
    try:
        return await act(store, moderator_name())
    finally:
        await store.close()


def _driver_errors() -> tuple[type[Exception], ...]:
    """psycopg's errors, if it was loaded (only a PostgreSQL URL loads it)."""
    psycopg = sys.modules.get("psycopg")
    return () if psycopg is None else (psycopg.Error,)


def _shown(location: str) -> str:
    """The database's address as people may see it (a URL's password hidden)."""
    return without_password(location) if is_postgres(location) else location


def _first_line(error: BaseException) -> str:
    """An error's first line (psycopg's run over several)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def _said(said: Said) -> int:
    """Print what an act came to, where it belongs; its status."""
    if said.status == DONE:
        print(said.text)
    else:
        print(f"c4tui admin: {said.text}", file=sys.stderr)
    return said.status


def _no_account(user: str) -> Said:
    return Said(NOTHING_DONE, f"no account is called {user!r} (names are exact, case too)")


# ----- the acts ------------------------------------------------------------------------


def set_role(user: str, word: str) -> Act:
    """``role USER moderator|none``."""

    async def act(store: LobbyStore, by: str) -> Said:
        if not await store.set_role(user, ROLES[word].value, by):
            return _no_account(user)
        return Said(
            DONE, f"{by} made {user} {'a moderator' if word == 'moderator' else 'a player'}"
        )

    return act


def ban(user: str, hours: int, reason: str) -> Act:
    """``ban USER [--hours H] [--reason TEXT]`` (0 hours: until unbanned)."""

    async def act(store: LobbyStore, by: str) -> Said:
        until = time.time() + hours * HOUR if hours else None
        if not await store.ban(user, until, reason, by):
            return _no_account(user)
        how_long = "until unbanned" if until is None else f"until {iso_utc(until)}"
        why = f": {reason}" if reason else ""
        return Said(DONE, f"{by} banned {user} {how_long}{why}")

    return act


def unban(user: str) -> Act:
    """``unban USER``."""

    async def act(store: LobbyStore, by: str) -> Said:
        if await store.unban(user, by):
            return Said(DONE, f"{by} unbanned {user}")
        if await store.role(user) is None:
            return _no_account(user)
        return Said(NOTHING_DONE, f"{user} is not banned")

    return act


def mute(user: str, minutes: int) -> Act:
    """``mute USER --minutes M``."""

    async def act(store: LobbyStore, by: str) -> Said:
        until = time.time() + minutes * MINUTE
        if not await store.mute(user, until, by):
            return _no_account(user)
        return Said(DONE, f"{by} muted {user} until {iso_utc(until)}")

    return act


def reports(limit: int) -> Act:
    """``reports``: the open ones, oldest first, as a table."""

    async def act(store: LobbyStore, by: str) -> Said:
        listed = await store.open_reports(limit)
        table = reports_table(listed) if listed else "No open reports."
        unreadable = await store.unreadable_reports(limit)
        if not unreadable:
            return Said(DONE, table)
        print(table)  # what can be read is still shown
        return Said(UNUSABLE, _unreadable(unreadable))

    return act


def _unreadable(numbers: Sequence[int]) -> str:
    """Why some open reports are not in the table, and what can be done about them."""
    shown = ", ".join(f"#{number}" for number in numbers)
    which = "report" if len(numbers) == 1 else "reports"
    return (
        f"cannot read the open {which} {shown} (a reason, a name or a time this c4tui "
        "does not know: written by a newer c4tui, or not by c4tui); close-report N closes one"
    )


def reports_table(listed: Sequence[ReportInfo]) -> str:
    """The reports as a table people read: one line each, its text last and whole."""
    rows = [REPORTS_HEADER, *(_report_row(report) for report in listed)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(REPORTS_HEADER) - 1)]
    lines = (
        "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
        for row in rows
    )
    return "\n".join(line.rstrip() for line in lines)


#: The table's head: a column for each of a report's fields, its text last.
REPORTS_HEADER = ("#", "when (UTC)", "reporter", "reported", "reason", "game", "text")


def _report_row(report: ReportInfo) -> tuple[str, ...]:
    """One report's cells, in the head's order."""
    game = "" if report.game is None else str(report.game)
    when = report.when.replace("T", " ").removesuffix("Z")
    fields = (report.reporter, report.reported, report.reason.value, game, report.text)
    return (str(report.number), when, *fields)


def close_report(number: int) -> Act:
    """``close-report N``."""

    async def act(store: LobbyStore, by: str) -> Said:
        if not await store.close_report(number, by):
            return Said(NOTHING_DONE, f"no open report #{number}")
        return Said(DONE, f"{by} closed report #{number}")

    return act


def delete(user: str, confirm: Callable[[str], bool]) -> Act:
    """``delete USER``: ``confirm`` asked first (the question given; ``--yes`` answers it)."""

    async def act(store: LobbyStore, by: str) -> Said:
        if await store.role(user) is None:
            return _no_account(user)
        question = (
            f"Delete the account {user}? Its games stay, under another name; its name can"
            " never be registered again. This cannot be undone."
        )
        if not confirm(question):
            return Said(NOTHING_DONE, f"nothing deleted ({user} stays)")
        if not await store.delete_account(user, by):
            return _no_account(user)  # deleted meanwhile
        return Said(DONE, f"{by} deleted the account {user}")

    return act


def export(user: str) -> Act:
    """``export USER``: everything kept about the account, as JSON (never its hash)."""

    async def act(store: LobbyStore, by: str) -> Said:
        kept = await store.export(user)
        if kept is None:
            return _no_account(user)
        return Said(DONE, json.dumps(kept, indent=2))

    return act
