"""The lobby's store in one SQLite file: accounts, games and moves, committed before answered.

The database is used from one thread of its own and bcrypt runs in worker
threads, so neither ever blocks the event loop. Every write is committed
(WAL, synchronous=FULL: a commit survives a crash of the process and of the
machine) before its method returns. The rooms' journal is kept in one
transaction for all the acts waiting to be announced (``keep``): one commit, and
one trip to the database's thread, for a burst of moves.

The schema's version is SQLite's ``user_version``: 0 is the accounts-only file
that servers before games were kept wrote (or a new, empty file), and
``MIGRATIONS`` bring either up to date when the store opens.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from c4tui.engine import Move, Rules, format_move, parse_move
from c4tui.lobby.journal import EndReason, GameBegan, GameEvent, MoveMade
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.competition import ProfileInfo
from c4tui.protocols.terms import Clock, parse_clock
from c4tui.server import sqlite_standing
from c4tui.server.limits import DEFAULT_ROUNDS
from c4tui.server.store import (
    HISTORY_LIMIT,
    LoginResult,
    NewRatings,
    StoredGame,
    hash_password,
    password_matches,
)

T = TypeVar("T")

#: Each migration's statements, in order: the schema after migration n is version n + 1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE IF NOT EXISTS accounts ("
        "name TEXT PRIMARY KEY, hash BLOB NOT NULL, created REAL NOT NULL)",
        "CREATE TABLE games ("
        "id INTEGER PRIMARY KEY, room TEXT NOT NULL, red TEXT NOT NULL, yellow TEXT NOT NULL,"
        ' "columns" INTEGER NOT NULL, "rows" INTEGER NOT NULL, rules TEXT NOT NULL,'
        " rated INTEGER NOT NULL DEFAULT 0, started TEXT NOT NULL,"
        " ended TEXT, winner TEXT, reason TEXT)",
        "CREATE TABLE moves ("
        "game INTEGER NOT NULL REFERENCES games (id), ply INTEGER NOT NULL,"
        " move TEXT NOT NULL, PRIMARY KEY (game, ply)) WITHOUT ROWID",
        "CREATE INDEX games_by_red ON games (red, ended)",
        "CREATE INDEX games_by_yellow ON games (yellow, ended)",
    ),
    (  # §5.3-5.5: ratings, each account's record, bots, clocks
        "ALTER TABLE accounts ADD COLUMN rating REAL NOT NULL DEFAULT 1500",
        "ALTER TABLE accounts ADD COLUMN deviation REAL NOT NULL DEFAULT 350",
        "ALTER TABLE accounts ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06",
        "ALTER TABLE accounts ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN games INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN wins INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN draws INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN losses INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0",
        # The games already kept count in each account's record.
        "UPDATE accounts SET"
        " games = (SELECT count(*) FROM games WHERE ended IS NOT NULL"
        " AND (red = accounts.name OR yellow = accounts.name)),"
        " wins = (SELECT count(*) FROM games WHERE ended IS NOT NULL AND winner = accounts.name),"
        " draws = (SELECT count(*) FROM games WHERE ended IS NOT NULL AND winner IS NULL"
        " AND (red = accounts.name OR yellow = accounts.name))",
        "UPDATE accounts SET losses = games - wins - draws",
        # The leaderboard reads this index alone: established ratings, highest first.
        "CREATE INDEX accounts_by_rating ON accounts (rating DESC)"
        " WHERE deviation < 110 AND rated_games > 0",
        "ALTER TABLE games ADD COLUMN clock TEXT",  # <minutes>+<increment>; NULL: none
        "ALTER TABLE moves ADD COLUMN red_ms INTEGER",  # time left after the move (timed games)
        "ALTER TABLE moves ADD COLUMN yellow_ms INTEGER",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
#: Names looked up in one statement (SQLite's limit on parameters is well above it).
_NAMES_PER_QUERY = 500
_GAME_COLUMNS = (
    'id, room, red, yellow, "columns", "rows", rules, rated, started, ended, winner, reason, clock'
)
_GameRow = tuple[
    int, str, str, str, int, int, str, int, str, str | None, str | None, str | None, str | None
]


class NewerDatabaseError(sqlite3.DatabaseError):
    """The file was written by a newer c4tui (its schema is past what this one knows)."""


def utc_now() -> str:
    """The time now, UTC, ISO 8601 to the second (``2026-11-26T23:05:03Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def migrate(connection: sqlite3.Connection) -> None:
    """Bring the schema up to ``SCHEMA_VERSION``, each step in one transaction.

    Raises NewerDatabaseError for a file from a newer c4tui (left untouched).
    """
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise NewerDatabaseError(f"schema version {version}; this c4tui knows {SCHEMA_VERSION}")
    for number in range(version, SCHEMA_VERSION):
        connection.execute("BEGIN IMMEDIATE")
        for statement in MIGRATIONS[number]:
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {number + 1}")
        connection.execute("COMMIT")


class SqliteStore:
    """The ``LobbyStore`` in one SQLite file.

    Args:
        path: the database file (its directory is created if need be).
        rounds: bcrypt's log2 cost (tests use the minimum, 4).
        synchronous: SQLite's ``synchronous`` in WAL mode: FULL (the default) keeps a
            commit through a power loss; NORMAL only through a crash of the process.
    """

    def __init__(self, path: Path, rounds: int = DEFAULT_ROUNDS, synchronous: str = "FULL") -> None:
        self.path = path
        self.rounds = rounds
        self.synchronous = synchronous
        self._database = ThreadPoolExecutor(1, thread_name_prefix="c4tui-store")
        self._hashing = ThreadPoolExecutor(4, thread_name_prefix="c4tui-bcrypt")
        self._connection: sqlite3.Connection | None = None
        self._under_way: dict[str, int] = {}  # room -> its game's number (the database thread's)

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    async def open(self) -> None:
        """Open (and if need be create, or upgrade) the database."""
        await self._in_database(self._open)

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(f"PRAGMA synchronous={self.synchronous}")
        migrate(connection)
        self._connection = connection
        unfinished = self._execute("SELECT room, id FROM games WHERE ended IS NULL ORDER BY id")
        self._under_way = dict(unfinished.fetchall())

    async def close(self) -> None:
        """Close the database and stop the threads."""
        if self._connection is not None:
            await self._in_database(self._connection.close)
            self._connection = None
        self._database.shutdown(wait=False)
        self._hashing.shutdown(wait=False)

    # ----- accounts ----------------------------------------------------------------

    async def register(self, user: str, password: str, bot: bool = False) -> bool:
        """Create an account, on disk before this returns; False if the name is taken."""
        if await self._in_database(self._stored_hash, user) is not None:
            return False
        hashed = await self._in_hashing(hash_password, password, self.rounds)
        return await self._in_database(self._insert_account, user, hashed, bot)

    def _insert_account(self, user: str, hashed: bytes, bot: bool) -> bool:
        try:
            self._execute(  # autocommit: committed when this returns
                "INSERT INTO accounts (name, hash, created, bot) VALUES (?, ?, ?, ?)",
                (user, hashed, time.time(), int(bot)),
            )
        except sqlite3.IntegrityError:
            return False  # registered by someone else meanwhile
        return True

    async def check(self, user: str, password: str) -> LoginResult:
        """Whether ``password`` is ``user``'s."""
        hashed = await self._in_database(self._stored_hash, user)
        if hashed is None:
            return LoginResult.NO_SUCH_USER
        matches = await self._in_hashing(password_matches, password, hashed)
        return LoginResult.OK if matches else LoginResult.WRONG_PASSWORD

    def _stored_hash(self, user: str) -> bytes | None:
        row = self._execute("SELECT hash FROM accounts WHERE name = ?", (user,)).fetchone()
        return None if row is None else bytes(row[0])

    # ----- games -------------------------------------------------------------------

    async def game_started(
        self, room: str, red: str, yellow: str, settings: ConnectFourSettings, rated: bool = False
    ) -> int:
        """Keep a game that has just begun in ``room``; its number."""
        return await self._in_database(self._insert_game, room, red, yellow, settings, rated)

    def _insert_game(  # noqa: PLR0917 (a game's row, column by column)
        self,
        room: str,
        red: str,
        yellow: str,
        settings: ConnectFourSettings,
        rated: bool,
        clock: Clock | None = None,
    ) -> int:
        columns, rows, rules = settings
        cursor = self._execute(
            'INSERT INTO games (room, red, yellow, "columns", "rows", rules, rated, started, clock)'
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                room,
                red,
                yellow,
                columns,
                rows,
                rules.value,
                int(rated),
                utc_now(),
                None if clock is None else clock.text,
            ),
        )
        assert cursor.lastrowid is not None, "an INSERT into a rowid table has a rowid"
        return cursor.lastrowid

    async def move_played(self, game: int, ply: int, move: Move) -> None:
        """Keep the move of ``ply`` in ``game``."""
        await self._in_database(self._insert_move, game, ply, move)

    def _insert_move(
        self, game: int, ply: int, move: Move, left: tuple[int, int] | None = None
    ) -> None:
        """One move; ``left``: in a timed game, RED's and YELLOW's milliseconds after it."""
        red_ms, yellow_ms = (None, None) if left is None else left
        self._execute(
            "INSERT INTO moves (game, ply, move, red_ms, yellow_ms) VALUES (?, ?, ?, ?, ?)",
            (game, ply, format_move(move), red_ms, yellow_ms),
        )

    async def game_ended(
        self, game: int, winner: str | None, reason: EndReason
    ) -> NewRatings | None:
        """Keep how ``game`` ended, and its players' records and ratings, in one transaction."""
        return await self._in_database(self._in_transaction, self._end_game, game, winner, reason)

    def _end_game(self, game: int, winner: str | None, reason: EndReason) -> NewRatings | None:
        """The end, then what it does to the players' standing (inside a transaction)."""
        self._execute(
            "UPDATE games SET ended = ?, winner = ?, reason = ? WHERE id = ?",
            (utc_now(), winner, reason.value, game),
        )
        return self._with_connection(sqlite_standing.game_finished, game, winner)

    async def keep(
        self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]
    ) -> list[NewRatings]:
        """Keep what happened to the rooms' games, in order, in one transaction.

        What the ratings became, for each rated game that ended (for RATING).
        """
        return await self._in_database(self._in_transaction, self._keep, journal)

    def _keep(self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]) -> list[NewRatings]:
        changed = (self._keep_event(event) for event in journal)
        return [ratings for ratings in changed if ratings is not None]

    def _keep_event(self, event: GameEvent[ConnectFourSettings, Move]) -> NewRatings | None:
        """One event of the journal; the rooms' games are known by room while under way."""
        if isinstance(event, GameBegan):
            terms = event.terms
            number = self._insert_game(
                event.room, event.red, event.yellow, event.settings, terms.rated, terms.clock
            )
            self._under_way[event.room] = number
        elif isinstance(event, MoveMade):
            self._insert_move(self._under_way[event.room], event.ply, event.move, event.clock)
        else:
            return self._end_game(self._under_way.pop(event.room), event.winner, event.reason)
        return None

    def _in_transaction(self, work: Callable[..., T], *args: object) -> T:
        """``work`` in one transaction: committed whole, or rolled back whole if it raises."""
        self._execute("BEGIN IMMEDIATE")
        try:
            result = work(*args)
        except BaseException:
            self._execute("ROLLBACK")
            raise
        self._execute("COMMIT")
        return result

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game that began and has not ended, oldest first, with its moves."""
        return await self._in_database(self._unfinished_games)

    def _unfinished_games(self) -> list[StoredGame]:
        rows = self._execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE ended IS NULL ORDER BY id"
        ).fetchall()
        return [self._with_moves(row) for row in rows]

    async def history(self, user: str) -> list[int] | None:
        """``user``'s finished games, newest first, at most HISTORY_LIMIT; None: no such user."""
        return await self._in_database(self._history, user)

    def _history(self, user: str) -> list[int] | None:
        if self._stored_hash(user) is None:
            return None
        rows = self._execute(
            "SELECT id FROM games WHERE (red = ? OR yellow = ?) AND ended IS NOT NULL"
            " ORDER BY ended DESC, id DESC LIMIT ?",
            (user, user, HISTORY_LIMIT),
        ).fetchall()
        return [int(row[0]) for row in rows]

    async def game(self, number: int) -> StoredGame | None:
        """Game ``number`` with its moves; None if there is none."""
        return await self._in_database(self._game, number)

    def _game(self, number: int) -> StoredGame | None:
        row = self._execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (number,)).fetchone()
        return None if row is None else self._with_moves(row)

    def _with_moves(self, row: _GameRow) -> StoredGame:
        number, room, red, yellow, columns, rows, rules, rated = row[:8]
        started, ended, winner, reason, clock_text = row[8:]
        moves = self._execute(
            "SELECT move, red_ms, yellow_ms FROM moves WHERE game = ? ORDER BY ply", (number,)
        ).fetchall()
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

    # ----- standing (§5.3) ----------------------------------------------------------

    async def profile(self, user: str) -> ProfileInfo | None:
        """``user``'s rating and record; None: no such user."""
        return await self._in_database(self._with_connection, sqlite_standing.profile, user)

    async def leaderboard(self) -> list[tuple[str, float]]:
        """The best established ratings, highest first, from the index ``accounts_by_rating``."""
        return await self._in_database(self._with_connection, sqlite_standing.leaderboard)

    async def change_password(self, user: str, new: str) -> None:
        """Make ``new`` ``user``'s password, committed before this returns."""
        hashed = await self._in_hashing(hash_password, new, self.rounds)
        await self._in_database(
            self._execute, "UPDATE accounts SET hash = ? WHERE name = ?", (hashed, user)
        )

    def _with_connection(self, work: Callable[..., T], *args: object) -> T:
        """``work(connection, *args)`` (in the database's thread)."""
        assert self._connection is not None, "the store is used only between open and close"
        return work(self._connection, *args)

    # ----- who is online (§5.5, PLAYERS) ---------------------------------------------

    async def ratings(self, users: Sequence[str]) -> dict[str, tuple[float, bool]]:
        """Each account's rating and whether it is a bot (names with no account left out)."""
        return await self._in_database(self._ratings, list(users))

    def _ratings(self, users: list[str]) -> dict[str, tuple[float, bool]]:
        found: dict[str, tuple[float, bool]] = {}
        for start in range(0, len(users), _NAMES_PER_QUERY):
            names = users[start : start + _NAMES_PER_QUERY]
            rows = self._execute(
                "SELECT name, rating, bot FROM accounts"
                f" WHERE name IN ({', '.join('?' * len(names))})",
                tuple(names),
            ).fetchall()
            found.update((name, (float(rating), bool(bot))) for name, rating, bot in rows)
        return found

    # ----- threads -----------------------------------------------------------------

    def _execute(self, statement: str, parameters: tuple[object, ...] = ()) -> sqlite3.Cursor:
        """One statement in autocommit mode: a write is committed when this returns."""
        assert self._connection is not None, "the store is used only between open and close"
        return self._connection.execute(statement, parameters)

    async def _in_database(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` in the database's own thread (SQLite is used from one thread)."""
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)

    async def _in_hashing(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` (bcrypt, slow on purpose) in a hashing thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._hashing, work, *args)
