"""The lobby's store in PostgreSQL (psycopg 3): the same tables as SQLite's, on one connection.

The whole store uses one ``AsyncConnection`` in autocommit mode, one act at a time
(an asyncio lock), so each write is committed before its method returns and a
journal or a game's end runs in one transaction. One connection, one session: a
node's leadership is a session-level advisory lock on it (``try_lead``), so a node
that loses its database loses its leadership with it and cannot write — every call
then raises ``StoreLost``. bcrypt runs in threads (``SqlStore``).

The schema's version is the one row of ``schema_version``; ``MIGRATIONS`` bring a
database up to date when the store opens, each step in one transaction under an
advisory lock, so two nodes opening a fresh database at once migrate it once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from functools import lru_cache
from typing import TypeVar

import psycopg

from c4tui.net.address import without_password
from c4tui.server.limits import DEFAULT_ROUNDS
from c4tui.server.sql_erasure import ERASED_NAMES_MIGRATION
from c4tui.server.sql_games import FOLDED_NAMES_MIGRATION
from c4tui.server.sql_keys import key_migration
from c4tui.server.sql_public import public_migration
from c4tui.server.sql_puzzles import puzzle_migration
from c4tui.server.sql_standing import PROVISIONAL_INDEX_MIGRATION
from c4tui.server.sql_store import SqlStore
from c4tui.server.sql_work import Rows, Statement, Work, drive_async
from c4tui.server.store import StoreError, StoreLost

T = TypeVar("T")

#: Each migration's statements, in order: the schema after migration n is version n + 1.
#: The tables and columns are SQLite's (``sqlite_store.MIGRATIONS``), in PostgreSQL's types.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE accounts ("
        "name TEXT PRIMARY KEY, hash BYTEA NOT NULL, created DOUBLE PRECISION NOT NULL,"
        " rating DOUBLE PRECISION NOT NULL DEFAULT 1500,"
        " deviation DOUBLE PRECISION NOT NULL DEFAULT 350,"
        " volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,"
        " rated_games INTEGER NOT NULL DEFAULT 0, games INTEGER NOT NULL DEFAULT 0,"
        " wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,"
        " losses INTEGER NOT NULL DEFAULT 0, bot INTEGER NOT NULL DEFAULT 0)",
        "CREATE TABLE games ("
        "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, room TEXT NOT NULL,"
        ' red TEXT NOT NULL, yellow TEXT NOT NULL, "columns" INTEGER NOT NULL,'
        ' "rows" INTEGER NOT NULL, rules TEXT NOT NULL, rated INTEGER NOT NULL DEFAULT 0,'
        " started TEXT NOT NULL, ended TEXT, winner TEXT, reason TEXT,"
        " clock TEXT)",  # <minutes>+<increment>; NULL: none
        "CREATE TABLE moves ("
        "game BIGINT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL, move TEXT NOT NULL,"
        " red_ms INTEGER, yellow_ms INTEGER,"  # time left after the move (timed games)
        " PRIMARY KEY (game, ply))",
        "CREATE INDEX games_by_red ON games (red, ended)",
        "CREATE INDEX games_by_yellow ON games (yellow, ended)",
        # The leaderboard reads this index alone: established ratings, highest first.
        "CREATE INDEX accounts_by_rating ON accounts (rating DESC)"
        " WHERE deviation < 110 AND rated_games > 0",
    ),
    FOLDED_NAMES_MIGRATION,  # §5.6: no two names that differ only in case
    PROVISIONAL_INDEX_MIGRATION,  # LEADERBOARD:ALL's provisional players
    public_migration(  # §7: blocks, reports, bans
        "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "DOUBLE PRECISION", "BIGINT"
    ),
    ERASED_NAMES_MIGRATION,  # §7: a deletion in the feed names its stand-in
    puzzle_migration(
        "DOUBLE PRECISION"
    ),  # §8: each account's puzzle rating, its tries, the puzzles
    key_migration("DOUBLE PRECISION"),  # §9: each account's ssh keys, the ssh door's visits
)
SCHEMA_VERSION = len(MIGRATIONS)
#: The transaction-level advisory lock that migrations take (any constant, c4tui's own).
MIGRATION_LOCK = 0x6334_7475_6900


class NewerDatabaseError(StoreError):
    """The database was written by a newer c4tui (its schema is past what this one knows)."""


@lru_cache(maxsize=256)
def placeholders(statement: str) -> str:
    """``statement`` with psycopg's placeholders (``%s``) for the shared SQL's ``?``."""
    return statement.replace("%", "%%").replace("?", "%s")


def holds_a_lobby(url: str) -> bool:
    """Whether the database at ``url`` holds a lobby's accounts (read, never written)."""
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT to_regclass('accounts') IS NOT NULL").fetchone()
    return row is not None and bool(row[0])


def migrate() -> Work[bool]:
    """One step towards ``SCHEMA_VERSION`` (run in one transaction); False once up to date.

    Raises NewerDatabaseError for a database from a newer c4tui (left untouched).
    """
    yield ("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
    yield ("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", ())
    rows = yield ("SELECT version FROM schema_version", ())
    version = int(rows[0][0]) if rows else 0
    if version > SCHEMA_VERSION:
        raise NewerDatabaseError(f"schema version {version}; this c4tui knows {SCHEMA_VERSION}")
    if version == SCHEMA_VERSION:
        return False
    for statement in MIGRATIONS[version]:
        yield (statement, ())
    yield ("DELETE FROM schema_version", ())
    yield ("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
    return True


def _advisory_lock(key: int) -> Work[bool]:
    """Take the session-level advisory lock ``key`` if no other session holds it."""
    rows = yield ("SELECT pg_try_advisory_lock(?)", (key,))
    return bool(rows[0][0])


def _holds_lock(key: int) -> Work[bool]:
    """Whether this session holds the session-level advisory lock ``key``.

    PostgreSQL keeps a bigint key in two halves: ``classid`` the high, ``objid`` the low.
    """
    rows = yield (
        "SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND pid = pg_backend_pid() AND classid = ? AND objid = ? AND objsubid = 1",
        (key >> 32, key & 0xFFFFFFFF),
    )
    return bool(rows[0][0])


def _lobby_identity() -> Work[str]:
    """The database's own name for itself: its server's system identifier and its OID."""
    rows = yield (
        "SELECT (SELECT system_identifier FROM pg_control_system())::text || '-' || oid::text"
        " FROM pg_database WHERE datname = current_database()",
        (),
    )
    return str(rows[0][0])


class PostgresStore(SqlStore):
    """The ``LobbyStore`` in a PostgreSQL database, on one connection.

    Args:
        url: the database's address (``postgresql://user:password@host:port/name``).
        rounds: bcrypt's log2 cost (tests use the minimum, 4).
    """

    def __init__(self, url: str, rounds: int = DEFAULT_ROUNDS) -> None:
        super().__init__(rounds)
        self.url = url
        self._connection: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._one_at_a_time = asyncio.Lock()

    @property
    def location(self) -> str:
        """The database's address, its password hidden."""
        return without_password(self.url)

    async def open(self) -> None:
        """Connect, and create or upgrade the tables if need be (again: a new session).

        Raises StoreLost if the database cannot be reached, NewerDatabaseError for a
        schema from a newer c4tui, StoreError for anything else the database refuses.
        """
        if self._connection is not None:  # opened again after the session was lost
            with contextlib.suppress(psycopg.Error):
                await self._connection.close()
        try:
            self._connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.OperationalError as error:
            raise StoreLost(str(error)) from error  # the log names the database
        try:
            while await self._run_in_transaction(migrate()):
                pass
        except psycopg.Error as error:
            raise StoreError(str(error)) from error
        await self._learn_games_under_way()

    async def close(self) -> None:
        """Close the connection (which releases its advisory locks) and stop the threads."""
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
        self._stop_hashing()

    async def try_lead(self, key: int) -> bool:
        """Take the session-level advisory lock ``key`` on the store's connection, if free.

        It is held until the connection closes or breaks: whoever holds it leads.
        """
        return await self._run(_advisory_lock(key))

    async def holds_lead(self, key: int) -> bool:
        """Whether the store's session still holds the lock ``key`` (StoreLost: it is gone)."""
        return await self._run(_holds_lock(key))

    async def lobby_identity(self) -> str:
        """What tells this lobby's database from any other, whatever address reaches it.

        The nodes of one lobby share it; a bus shared by two lobbies keeps them apart by it.
        """
        return await self._run(_lobby_identity())

    async def _run(self, work: Work[T]) -> T:
        """Run ``work`` in autocommit mode: each of its writes committed as it runs."""
        async with self._session() as connection:
            return await drive_async(work, lambda statement: _rows(connection, statement))

    async def _run_in_transaction(self, work: Work[T]) -> T:
        """Run ``work`` in one transaction: committed whole, or rolled back whole if it raises."""
        async with self._session() as connection, connection.transaction():
            return await drive_async(work, lambda statement: _rows(connection, statement))

    @contextlib.asynccontextmanager
    async def _session(self) -> AsyncIterator[psycopg.AsyncConnection[tuple[object, ...]]]:
        """The connection, to this act alone; a broken one raises StoreLost."""
        async with self._one_at_a_time:
            connection = self._connection
            assert connection is not None, "the store is used only between open and close"
            if connection.broken:
                raise StoreLost(f"lost the database {self.location}")
            try:
                yield connection
            except psycopg.OperationalError as error:
                if connection.broken:
                    raise StoreLost(f"lost the database {self.location}: {error}") from error
                raise


async def _rows(
    connection: psycopg.AsyncConnection[tuple[object, ...]], statement: Statement
) -> Rows:
    """Run one statement; every row it returns (none for most writes)."""
    text, parameters = statement
    cursor = await connection.execute(placeholders(text), parameters)
    return await cursor.fetchall() if cursor.description is not None else []
