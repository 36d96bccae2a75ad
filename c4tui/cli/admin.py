"""``c4tui admin``: moderate a lobby from its database, with the server running or not (§7).

Its parser only; the acts (``server/admin.py``) and the store load when it runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from c4tui.cli.types import CommandTable, number_from
from c4tui.protocols.public import (
    MAX_BAN_HOURS,
    MAX_REPORT_TEXT,
    MUTE_MINUTES,
    REPORTS_LISTED,
    valid_text,
)

if TYPE_CHECKING:
    from c4tui.server.admin import Act

_EXITS = (
    "exit status: 0 done, 1 nothing done (no such account, not banned, no such open "
    "report, deletion not confirmed), 2 usage, or --db names no lobby's database (none "
    "there, or one without its accounts: never created), 3 the database cannot be used "
    "(unreachable, refused, not a database, or from a newer c4tui; reports: an open "
    "report it cannot read, the others listed)"
)


def reason_text(text: str) -> str:
    """A ban's reason: what a REPORT's text may be (§7)."""
    if not valid_text(text):
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_REPORT_TEXT} printable characters (no control characters)"
        )
    return text


def add_parser(commands: CommandTable) -> None:
    """Register ``admin``, its acts and its ``run``."""
    admin = commands.add_parser(
        "admin",
        description=(
            "Moderate a lobby from its database, with the server running or not: every "
            "running server (each node of a cluster) acts on it within 5 seconds. Each act "
            "is kept in the moderators' log as admin:<your login name>, and printed."
        ),
        epilog=_EXITS,
    )
    admin.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the lobby's database: the SQLite file c4tui serve keeps (it must exist) or a "
        "postgresql:// URL; default: c4tui serve's, accounts.sqlite3 in your user data directory",
    )
    acts = admin.add_subparsers(dest="act", metavar="ACT", required=True)
    role = acts.add_parser("role", help="make USER a moderator, or a player again (none)")
    role.add_argument("user", metavar="USER")
    role.add_argument("role", choices=("moderator", "none"))
    ban = acts.add_parser("ban", help="ban USER: its connections close, its logins are refused")
    ban.add_argument("user", metavar="USER")
    ban.add_argument(
        "--hours",
        type=number_from(0, MAX_BAN_HOURS),
        default=0,
        help="how long (default 0: until unbanned)",
    )
    ban.add_argument("--reason", type=reason_text, default="", help="why, for the log")
    unban = acts.add_parser("unban", help="lift USER's ban")
    unban.add_argument("user", metavar="USER")
    mute = acts.add_parser("mute", help="USER's chat reaches nobody for a while")
    mute.add_argument("user", metavar="USER")
    mute.add_argument(
        "--minutes",
        type=number_from(MUTE_MINUTES.start, MUTE_MINUTES.stop - 1),
        required=True,
        help=f"how long ({MUTE_MINUTES.start}-{MUTE_MINUTES.stop - 1})",
    )
    reports = acts.add_parser("reports", help="list the open reports, oldest first")
    reports.add_argument(
        "--limit",
        type=number_from(1, 10**6),
        default=REPORTS_LISTED,
        help=f"at most this many (default {REPORTS_LISTED})",
    )
    close = acts.add_parser("close-report", help="close the open report N")
    close.add_argument("number", metavar="N", type=number_from(0, 10**18))
    delete = acts.add_parser(
        "delete", help="erase USER's account (its games stay, under another name)"
    )
    delete.add_argument("user", metavar="USER")
    delete.add_argument("--yes", action="store_true", help="do not ask first")
    export = acts.add_parser("export", help="everything kept about USER, as JSON on stdout")
    export.add_argument("user", metavar="USER")
    admin.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Do the act asked for on the database; the server's acts and the store load only now."""
    from c4tui.server import admin  # noqa: PLC0415

    return admin.run(args.db, _act(args))


def _act(args: argparse.Namespace) -> Act:
    """The act the command line asks for."""
    from c4tui.server import admin  # noqa: PLC0415

    acts: dict[str, Callable[[], Act]] = {
        "role": lambda: admin.set_role(args.user, args.role),
        "ban": lambda: admin.ban(args.user, args.hours, args.reason),
        "unban": lambda: admin.unban(args.user),
        "mute": lambda: admin.mute(args.user, args.minutes),
        "reports": lambda: admin.reports(args.limit),
        "close-report": lambda: admin.close_report(args.number),
        "delete": lambda: admin.delete(args.user, _yes if args.yes else _asked),
        "export": lambda: admin.export(args.user),
    }
    return acts[args.act]()


def _yes(question: str) -> bool:
    """``--yes``: the question is not asked."""
    return True


def _asked(question: str) -> bool:
    """Ask ``question`` on stderr (stdout stays the act's); yes only for y or yes."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    if not answer.endswith("\n"):  # no answer at all: the input ended
        print(file=sys.stderr)
    return answer.strip().lower() in {"y", "yes"}
