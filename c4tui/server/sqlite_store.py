"""The lobby's store in one SQLite file: accounts, games and moves, committed before answered.

The database is used from one thread of its own and bcrypt runs in worker
threads, so neither ever blocks the event loop. Every write is committed
(WAL, synchronous=FULL: a commit survives a crash of the process and of the
machine) before its method returns. The rooms' journal is kept in one
transaction for all the acts waiting to be announced (``keep``): one commit, and
one trip to the database's thread, for a burst of moves.

One server per file (§5.6): the store holds an exclusive ``flock`` on the database
file from its opening to its closing, so a second server on the same file stops at
once (``DatabaseHeld``) instead of restoring the same games and splitting them. The
operating system drops the lock with the process, however it ends (kill -9 too).
SQLite's own locks are POSIX record locks, which an ``flock`` does not disturb on
Linux; the lock's descriptor is closed only after SQLite's connection, since closing
any descriptor of a file drops the process's record locks on it.

The schema's version is SQLite's ``user_version``: 0 is the accounts-only file
that servers before games were kept wrote (or a new, empty file), and
``MIGRATIONS`` bring either up to date when the store opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from c4tui.server.limits import DEFAULT_ROUNDS
from c4tui.server.sql_erasure import ERASED_NAMES_MIGRATION
from c4tui.server.sql_games import FOLDED_NAMES_MIGRATION
from c4tui.server.sql_keys import key_migration
from c4tui.server.sql_public import public_migration
from c4tui.server.sql_puzzles import puzzle_migration
from c4tui.server.sql_standing import PROVISIONAL_INDEX_MIGRATION
from c4tui.server.sql_store import SqlStore
from c4tui.server.sql_work import Rows, Statement, Work, drive
from c4tui.server.store import StoreError

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
    FOLDED_NAMES_MIGRATION,  # §5.6: no two names that differ only in case
    PROVISIONAL_INDEX_MIGRATION,  # LEADERBOARD:ALL's provisional players
    public_migration("INTEGER PRIMARY KEY", "REAL", "INTEGER"),  # §7: blocks, reports, bans
    ERASED_NAMES_MIGRATION,  # §7: a deletion in the feed names its stand-in
    puzzle_migration("REAL"),  # §8: each account's puzzle rating, its tries, the puzzles
    key_migration("REAL"),  # §9: each account's ssh keys, the ssh door's visits
)
SCHEMA_VERSION = len(MIGRATIONS)


class NewerDatabaseError(sqlite3.DatabaseError):
    """The file was written by a newer c4tui (its schema is past what this one knows)."""


class DatabaseHeld(StoreError):
    """Another running server holds the database file (one server per database, §5.6)."""


def hold(path: Path) -> int:
    """Take the exclusive lock on ``path`` (created if need be): its descriptor, to close later.

    Raises DatabaseHeld if another process (or another store here) holds it.
    """
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)  # not inherited by children
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatabaseHeld("another server holds it (one server per database)") from None
    return descriptor


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


class SqliteStore(SqlStore):
    """The ``LobbyStore`` in one SQLite file.

    Args:
        path: the database file (its directory is created if need be).
        rounds: bcrypt's log2 cost (tests use the minimum, 4).
        synchronous: SQLite's ``synchronous`` in WAL mode: FULL (the default) keeps a
            commit through a power loss; NORMAL only through a crash of the process.
        exclusive: whether the store holds the file against every other (a server's
            does; a tool beside a running server, reading or mending, need not).
    """

    def __init__(
        self,
        path: Path,
        rounds: int = DEFAULT_ROUNDS,
        synchronous: str = "FULL",
        *,
        exclusive: bool = True,
    ) -> None:
        super().__init__(rounds)
        self.path = path
        self.synchronous = synchronous
        self.exclusive = exclusive
        self._database = ThreadPoolExecutor(1, thread_name_prefix="c4tui-store")
        self._connection: sqlite3.Connection | None = None
        self._held: int | None = None  # the lock's descriptor, while open

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    async def open(self) -> None:
        """Open (and if need be create, or upgrade) the database."""
        await self._in_database(self._open)
        await self._learn_games_under_way()

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.exclusive:
            self._held = hold(self.path)
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(f"PRAGMA synchronous={self.synchronous}")
            migrate(connection)
        except BaseException:
            connection.close()
            self._let_go()
            raise
        self._connection = connection

    async def close(self) -> None:
        """Close the database, let go of it, and stop the threads."""
        if self._connection is not None:
            await self._in_database(self._connection.close)
            self._connection = None
        self._let_go()
        self._database.shutdown(wait=False)
        self._stop_hashing()

    def _let_go(self) -> None:
        """Release the file's lock (after SQLite's connection is closed: see the module)."""
        if self._held is not None:
            with contextlib.suppress(OSError):
                os.close(self._held)
            self._held = None

    async def _run(self, work: Work[T]) -> T:
        """Run ``work`` in the database's thread, in autocommit mode: each write committed."""
        return await self._in_database(drive, work, self._rows)

    async def _run_in_transaction(self, work: Work[T]) -> T:
        """Run ``work`` in one transaction, in one trip to the database's thread."""
        return await self._in_database(self._in_transaction, work)

    def _in_transaction(self, work: Work[T]) -> T:
        self._execute("BEGIN IMMEDIATE")
        try:
            result = drive(work, self._rows)
        except BaseException:
            self._execute("ROLLBACK")
            raise
        self._execute("COMMIT")
        return result

    def _rows(self, statement: Statement) -> Rows:
        """Every row ``statement`` returns (none for most writes)."""
        return self._execute(*statement).fetchall()

    def _execute(self, statement: str, parameters: tuple[object, ...] = ()) -> sqlite3.Cursor:
        """One statement in autocommit mode: a write is committed when this returns."""
        assert self._connection is not None, "the store is used only between open and close"
        return self._connection.execute(statement, parameters)

    async def _in_database(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` in the database's own thread (SQLite is used from one thread)."""
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)
