"""The lobby's accounts, games and moves as work (``sql_work``) in the SQL both engines speak.

Statements use ``?`` placeholders and only what SQLite (3.35 and later) and
PostgreSQL share: ``INSERT … ON CONFLICT DO NOTHING RETURNING``, quoted
``"columns"`` and ``"rows"``. What is made of the rows (a ``StoredGame``, a game's
number) is written here once; the engines' stores only run the work.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from c4tui.engine import Move, Rules, format_move, parse_move
from c4tui.lobby.journal import EndReason, GameBegan, GameEvent, MoveMade, MoveTakenBack
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.terms import Clock, parse_clock
from c4tui.server import sql_erasure, sql_standing
from c4tui.server.sql_work import Work
from c4tui.server.store import HISTORY_LIMIT, NewRatings, StoredGame

#: Names looked up in one statement (well below either engine's limit on parameters).
_NAMES_PER_QUERY = 500
_GAME_COLUMNS = (
    'id, room, red, yellow, "columns", "rows", rules, rated, started, ended, winner, reason, clock'
)


def utc_now() -> str:
    """The time now, UTC, ISO 8601 to the second (``2026-11-26T23:05:03Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ----- accounts --------------------------------------------------------------------

#: The migration that makes names unique whatever their case (§5.6), the same on both
#: engines. ``folded`` is the name in lower case under a unique index, so of two
#: REGISTERs of ``Zoe`` and ``zoe`` at once one insert fails in the database itself.
#: A pair an older server let in keeps both accounts: one of them (the first name in
#: the engine's order) holds the folded name, the other none (NULLs never collide).
FOLDED_NAMES_MIGRATION = (
    "ALTER TABLE accounts ADD COLUMN folded TEXT",
    "UPDATE accounts SET folded = lower(name)"
    " WHERE name IN (SELECT min(name) FROM accounts GROUP BY lower(name))",
    "CREATE UNIQUE INDEX accounts_by_folded_name ON accounts (folded)",
)


def stored_hash(user: str) -> Work[bytes | None]:
    """``user``'s bcrypt hash; None: no such account."""
    rows = yield ("SELECT hash FROM accounts WHERE name = ?", (user,))
    return bytes(rows[0][0]) if rows else None


def name_taken(user: str) -> Work[bool]:
    """Whether an account is, or a deleted one was, called ``user`` in any case (§5.6, §7)."""
    rows = yield ("SELECT 1 FROM accounts WHERE folded = lower(?) OR name = ?", (user, user))
    if rows:
        return True
    rows = yield ("SELECT 1 FROM deleted_accounts WHERE folded = lower(?)", (user,))
    return bool(rows)


def insert_account(user: str, hashed: bytes, bot: bool) -> Work[bool]:
    """A new account; False if the name, in any case, was taken (perhaps meanwhile)."""
    rows = yield (
        "INSERT INTO accounts (name, folded, hash, created, bot) VALUES (?, lower(?), ?, ?, ?)"
        " ON CONFLICT DO NOTHING RETURNING name",
        (user, user, hashed, time.time(), int(bot)),
    )
    return bool(rows)


def change_password(user: str, hashed: bytes) -> Work[None]:
    """``hashed`` becomes ``user``'s password's hash."""
    yield ("UPDATE accounts SET hash = ? WHERE name = ?", (hashed, user))


def ratings(users: Sequence[str]) -> Work[dict[str, tuple[float, bool]]]:
    """Each account's rating and whether it is a bot (names with no account left out)."""
    found: dict[str, tuple[float, bool]] = {}
    for start in range(0, len(users), _NAMES_PER_QUERY):
        names = tuple(users[start : start + _NAMES_PER_QUERY])
        rows = yield (
            f"SELECT name, rating, bot FROM accounts WHERE name IN ({', '.join('?' * len(names))})",
            names,
        )
        found.update((name, (float(rating), bool(bot))) for name, rating, bot in rows)
    return found


# ----- games -----------------------------------------------------------------------


def insert_game(
    room: str,
    players: tuple[str, str],
    settings: ConnectFourSettings,
    rated: bool,
    clock: Clock | None,
) -> Work[int]:
    """A game that has just begun in ``room`` (red and yellow); its number.

    A player deleted meanwhile is kept as its stand-in (``sql_erasure.as_kept``).
    """
    red, yellow = yield from sql_erasure.as_kept(players)
    columns, rows, rules = settings
    clock_text = None if clock is None else clock.text
    inserted = yield (
        'INSERT INTO games (room, red, yellow, "columns", "rows", rules, rated, started, clock)'
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (room, red, yellow, columns, rows, rules.value, int(rated), utc_now(), clock_text),
    )
    return int(inserted[0][0])


def insert_move(game: int, ply: int, move: Move, left: tuple[int, int] | None = None) -> Work[None]:
    """One move; ``left``: in a timed game, RED's and YELLOW's milliseconds after it."""
    red_ms, yellow_ms = (None, None) if left is None else left
    yield (
        "INSERT INTO moves (game, ply, move, red_ms, yellow_ms) VALUES (?, ?, ?, ?, ?)",
        (game, ply, format_move(move), red_ms, yellow_ms),
    )


def delete_move(game: int, ply: int) -> Work[None]:
    """The move of ``ply`` taken back (§5.6): the game goes on as if it was never played."""
    yield ("DELETE FROM moves WHERE game = ? AND ply = ?", (game, ply))


def end_game(game: int, winner: str | None, reason: EndReason) -> Work[NewRatings | None]:
    """The end, then what it does to the players' standing (run inside one transaction).

    An aborted game is kept (HISTORY lists it) but counts in nobody's record or rating.
    A winner that is neither player was deleted meanwhile: its stand-in is the winner.
    """
    players = yield (
        "UPDATE games SET ended = ?, winner = ?, reason = ? WHERE id = ? RETURNING red, yellow",
        (utc_now(), winner, reason.value, game),
    )
    if winner is not None and players and winner not in players[0]:
        (winner,) = yield from sql_erasure.as_kept((winner,))
        yield ("UPDATE games SET winner = ? WHERE id = ?", (winner, game))
    if reason is EndReason.ABORTED:
        return None
    return (yield from sql_standing.game_finished(game, winner))


def keep(
    journal: Sequence[GameEvent[ConnectFourSettings, Move]], under_way: dict[str, int]
) -> Work[list[NewRatings]]:
    """The rooms' journal, in order; what the ratings became for each rated game that ended.

    ``under_way`` is each room's game in progress by number, kept up to date here.
    """
    changed = []
    for event in journal:
        ratings = yield from _keep_event(event, under_way)
        if ratings is not None:
            changed.append(ratings)
    return changed


def _keep_event(
    event: GameEvent[ConnectFourSettings, Move], under_way: dict[str, int]
) -> Work[NewRatings | None]:
    """One event of the journal; the rooms' games are known by room while under way."""
    if isinstance(event, GameBegan):
        terms, players = event.terms, (event.red, event.yellow)
        number = yield from insert_game(
            event.room, players, event.settings, terms.rated, terms.clock
        )
        under_way[event.room] = number
    elif isinstance(event, MoveMade):
        yield from insert_move(under_way[event.room], event.ply, event.move, event.clock)
    elif isinstance(event, MoveTakenBack):
        yield from delete_move(under_way[event.room], event.ply)
    else:
        return (yield from end_game(under_way.pop(event.room), event.winner, event.reason))
    return None


def games_under_way() -> Work[dict[str, int]]:
    """Each room's game that began and has not ended: room → number."""
    rows = yield ("SELECT room, id FROM games WHERE ended IS NULL ORDER BY id", ())
    return {str(room): int(number) for room, number in rows}


def unfinished_games() -> Work[list[StoredGame]]:
    """Every game that began and has not ended, oldest first, with its moves."""
    rows = yield (f"SELECT {_GAME_COLUMNS} FROM games WHERE ended IS NULL ORDER BY id", ())
    games = []
    for row in rows:
        games.append((yield from _with_moves(row)))
    return games


def history(user: str) -> Work[list[int] | None]:
    """``user``'s finished games, newest first, at most HISTORY_LIMIT; None: no such user."""
    if (yield from stored_hash(user)) is None:
        return None
    rows = yield (
        "SELECT id FROM games WHERE (red = ? OR yellow = ?) AND ended IS NOT NULL"
        " ORDER BY ended DESC, id DESC LIMIT ?",
        (user, user, HISTORY_LIMIT),
    )
    return [int(row[0]) for row in rows]


def game(number: int) -> Work[StoredGame | None]:
    """Game ``number`` with its moves; None if there is none."""
    rows = yield (f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (number,))
    return (yield from _with_moves(rows[0])) if rows else None


def _with_moves(row: tuple[Any, ...]) -> Work[StoredGame]:
    """The game of ``row`` (``_GAME_COLUMNS``), with its moves read."""
    number, room, red, yellow, columns, rows, rules, rated = row[:8]
    started, ended, winner, reason, clock_text = row[8:]
    moves = yield (
        "SELECT move, red_ms, yellow_ms FROM moves WHERE game = ? ORDER BY ply",
        (number,),
    )
    clock = None if clock_text is None else parse_clock(clock_text)
    left = None
    if clock is not None and moves and moves[-1][1] is not None:
        left = (int(moves[-1][1]), int(moves[-1][2]))
    return StoredGame(
        number,
        room,
        red,
        yellow,
        (columns, rows, Rules(rules)),
        tuple(parse_move(text) for text, _, _ in moves),
        bool(rated),
        started,
        ended,
        winner,
        None if reason is None else EndReason(reason),
        clock,
        left,
    )
