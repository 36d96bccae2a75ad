"""An account erased, or handed over (§7), as work (``sql_work``) both engines run.

Deletion erases the account's row (its password's hash, its role, its sanctions) and
its blocks both ways, and puts a stand-in, ``deleted-<n>``, in its place wherever
others' records name it: the games it played, the reports, the moderators' log and
the change feed. Its folded name stays reserved in ``deleted_accounts`` so that no one
registers it again (and impersonates it), and that is the one place the name is kept:
the feed's deletion names the stand-in too, and the running servers read it back as
the folded name (``sql_public.events_after``) to find the account's connections. The
export is everything kept about an account, as JSON's values, its password's hash
excepted.

The running servers act on a deletion within seconds (they read the change feed);
until then the deleted player's connection may still begin a game, win one, block or
report. The records keep such a name as its stand-in (``as_kept``), so that it never
comes back into them.
"""

from __future__ import annotations

from typing import Any

from c4tui.server.moderation_store import EventKind, ModeratorAction, iso_utc
from c4tui.server.sql_keys import erase_keys, exported_keys
from c4tui.server.sql_public import Act, account_exists, actions, announce, record
from c4tui.server.sql_work import Work

#: Where a deleted account's name is replaced by its stand-in: (table, column).
_NAMED_IN = (
    ("reports", "reporter"),
    ("reports", "reported"),
    ("reports", "closed_by"),
    ("moderator_actions", "moderator"),
    ("moderator_actions", "target"),
    ("moderation_events", "name"),
)
#: The account's row as the export groups it (its hash never read): the account itself,
#: its standing (§5.3) and its sanctions (§7).
_ACCOUNT = ("name", "created", "role", "bot")
_STANDING = ("rating", "deviation", "volatility", "rated_games", "games", "wins", "draws", "losses")
_SANCTIONS = ("banned", "banned_until", "ban_reason", "muted_until")
_PUZZLES = (  # §8
    "puzzle_rating",
    "puzzle_deviation",
    "puzzle_volatility",
    "puzzle_streak",
    "puzzle_best_streak",
)
#: An account's columns that are times (epoch seconds, exported as UTC ISO 8601).
_TIMES = frozenset({"created", "banned_until", "muted_until"})
#: Its columns that are yes or no.
_FLAGS = frozenset({"bot", "banned"})
#: Its columns that are real numbers (the rating's three).
_RATINGS = frozenset({"rating", "deviation", "volatility", *_PUZZLES[:3]})


def delete_account(user: str, by: str, now: float) -> Work[bool]:
    """Erase ``user``'s account (see the module), kept as ``by``'s act; False: no such one.

    Run in one transaction. An account that deletes itself is kept as its stand-in's act.
    The account's row goes first: of two deletions at once (a server's and ``c4tui
    admin``'s), the second waits on it, then finds none and does nothing.
    """
    if not (yield ("DELETE FROM accounts WHERE name = ? RETURNING name", (user,))):
        return False
    stand_in = yield from _stand_in(user, now)
    # The winner first, while red and yellow still find the games through their indexes.
    yield (
        "UPDATE games SET winner = ? WHERE (red = ? OR yellow = ?) AND winner = ?",
        (stand_in, user, user, user),
    )
    yield ("UPDATE games SET red = ? WHERE red = ?", (stand_in, user))
    yield ("UPDATE games SET yellow = ? WHERE yellow = ?", (stand_in, user))
    for table, column in _NAMED_IN:
        yield (f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (stand_in, user))
    yield ("DELETE FROM blocks WHERE blocker = ? OR blocked = ?", (user, user))
    yield ("DELETE FROM puzzle_tries WHERE account = ?", (user,))  # §8: its puzzles' history
    yield from erase_keys(user)  # §9: its keys (their visits then log in nothing)
    if by == user:  # its owner's deletion: the owner is gone, its stand-in remains
        yield record(Act(stand_in, "delete", stand_in, "by itself", None, now))
    else:
        yield record(Act(by, "delete", stand_in, "", None, now))
    yield from announce(EventKind.DELETE, stand_in, now)
    return True


#: The migration that takes the names out of the feed's deletions kept before they named
#: their stand-ins (the same on both engines): each names its account's stand-in (of two
#: that differ in case only, both deleted, the later: either reads back as the folded name).
ERASED_NAMES_MIGRATION = (
    "UPDATE moderation_events SET name = (SELECT 'deleted-' || CAST(max(number) AS TEXT)"
    " FROM deleted_accounts WHERE folded = lower(moderation_events.name))"
    " WHERE kind = 'delete' AND lower(name) IN (SELECT folded FROM deleted_accounts)",
)


def _stand_in(user: str, now: float) -> Work[str]:
    """A name for the deleted ``user`` in the records, ``deleted-<n>``, with its name reserved.

    A number whose name an older account holds (registered before such names were
    refused) is passed over, so a stand-in never names a living account.
    """
    while True:
        rows = yield (
            "INSERT INTO deleted_accounts (folded, at) VALUES (NULL, ?) RETURNING number",
            (now,),
        )
        number = int(rows[0][0])
        name = f"deleted-{number}"
        if not (yield ("SELECT 1 FROM accounts WHERE folded = ?", (name,))):
            yield (
                "UPDATE deleted_accounts SET folded = lower(?) WHERE number = ?",
                (user, number),
            )
            return name


def as_kept(names: tuple[str, ...]) -> Work[tuple[str, ...]]:
    """``names`` as the records keep them: a deleted account's stand-in for its name.

    One look at the (small) index of deleted names, and nothing more unless one is
    there: a name is its stand-in only if no account holds it exactly (two names that
    differ in case only, from before §5.6, share their folded name).
    """
    marks = ", ".join("lower(?)" for _ in names)
    rows = yield (f"SELECT folded, number FROM deleted_accounts WHERE folded IN ({marks})", names)
    if not rows:
        return names
    stand_ins = {str(folded): f"deleted-{int(number)}" for folded, number in rows}
    kept = []
    for name in names:
        stand_in = stand_ins.get(name.lower())
        if stand_in is None or (yield from account_exists(name)):
            kept.append(name)
        else:
            kept.append(stand_in)
    return tuple(kept)


def export(user: str) -> Work[dict[str, object] | None]:
    """Everything kept about ``user``'s account, never its password's hash; None: no such one."""
    columns = (*_ACCOUNT, *_STANDING, *_SANCTIONS, *_PUZZLES)
    rows = yield (f"SELECT {', '.join(columns)} FROM accounts WHERE name = ?", (user,))
    if not rows:
        return None
    row = dict(zip(columns, rows[0], strict=True))
    kept: dict[str, object] = {column: _exported(column, row[column]) for column in _ACCOUNT}
    kept["standing"] = {column: _exported(column, row[column]) for column in _STANDING}
    kept["sanctions"] = {column: _exported(column, row[column]) for column in _SANCTIONS}
    puzzles = {column: _exported(column, row[column]) for column in _PUZZLES}
    kept["puzzles"] = puzzles | {"first_tries": (yield from _puzzle_tries(user))}
    blocks = yield ("SELECT blocked, since FROM blocks WHERE blocker = ? ORDER BY blocked", (user,))
    kept["blocks"] = [{"user": blocked, "since": iso_utc(since)} for blocked, since in blocks]
    kept["keys"] = yield from exported_keys(user)  # §9
    kept["reports_made"] = yield from _reports("reporter", user, "reported")
    kept["reports_received"] = yield from _reports("reported", user, None)
    games = yield ("SELECT id FROM games WHERE red = ? OR yellow = ? ORDER BY id", (user, user))
    kept["games_played"] = [int(number) for (number,) in games]
    on_it = yield from actions("WHERE target = ?", (user,), "ORDER BY id")
    by_it = yield from actions("WHERE moderator = ?", (user,), "ORDER BY id")
    kept["moderator_actions_on_it"] = [_action(action) for action in on_it]
    kept["moderator_actions_by_it"] = [_action(action) for action in by_it]
    return kept


def _puzzle_tries(user: str) -> Work[list[dict[str, object]]]:
    """The account's first try of each puzzle it tried (§8): which, when, solved, rating after."""
    rows = yield (
        "SELECT puzzle, day, solved, rating_after FROM puzzle_tries WHERE account = ?"
        " ORDER BY day, puzzle",
        (user,),
    )
    return [
        {"puzzle": str(p), "day": str(day), "solved": bool(solved), "rating_after": int(after)}
        for p, day, solved, after in rows
    ]


def _exported(column: str, value: Any) -> object:
    """One column of the account as JSON holds it."""
    if value is None:
        return None
    if column in _TIMES:
        return iso_utc(value)
    if column in _FLAGS:
        return bool(value)
    if column in _RATINGS:
        return float(value)
    return value if isinstance(value, str) else int(value)


def _reports(column: str, user: str, other: str | None) -> Work[list[dict[str, object]]]:
    """The reports whose ``column`` is ``user``, each naming the account in ``other``.

    ``other`` None: reports about the account keep their reporters' names to themselves.
    """
    named = f", {other}" if other is not None else ""
    rows = yield (
        f"SELECT id, reason, text, at, game, closed_at{named} FROM reports"
        f" WHERE {column} = ? ORDER BY id",
        (user,),
    )
    found: list[dict[str, object]] = []
    for row in rows:
        number, reason, text, at, game, closed_at = row[:6]
        entry: dict[str, object] = {"id": int(number), "reason": reason, "text": text}
        entry |= {"when": iso_utc(at), "game": None if game is None else int(game)}
        entry["open"] = closed_at is None
        if other is not None:
            entry["user"] = row[6]
        found.append(entry)
    return found


def _action(action: ModeratorAction) -> dict[str, object]:
    """A moderator's action as JSON holds it."""
    return {
        "id": action.number,
        "moderator": action.moderator,
        "action": action.action,
        "target": action.target,
        "reason": action.reason,
        "until": action.until,
        "when": action.when,
    }
