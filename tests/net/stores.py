"""The lobby's store on each engine, for tests that run on both: SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import psycopg

from c4tui.server.store import LobbyStore
from c4tui.server.stores import is_postgres, open_store
from tests.net.lobby_client import TEST_ROUNDS

#: The engines, as ``lobby_db`` (tests/net/conftest.py) is parametrised.
ENGINES = ("sqlite", "postgresql")


def store_at(db: str, *, exclusive: bool = True) -> LobbyStore:
    """The store (not yet opened) of ``db``: a SQLite file or a PostgreSQL URL.

    ``exclusive`` False: a SQLite store that shares the file with the server holding
    it, as ``c4tui admin`` does.
    """
    return open_store(db, TEST_ROUNDS, exclusive=exclusive)


def run_sql(db: str, statement: str, rows: Sequence[tuple[object, ...]] = ((),)) -> None:
    """Run ``statement`` (``?`` placeholders) once per row of ``rows``, behind the store's back."""
    if is_postgres(db):
        with psycopg.connect(db, autocommit=True) as connection, connection.cursor() as cursor:
            cursor.executemany(statement.replace("?", "%s"), rows)
        return
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        connection.executemany(statement, rows)
    finally:
        connection.close()


def database_at_version(db: str, version: int) -> None:
    """Make ``db`` as a c4tui whose schema was ``version`` left it (its engine's migrations)."""
    from c4tui.server import postgres_store, sqlite_store

    if is_postgres(db):
        statements = [s for step in postgres_store.MIGRATIONS[:version] for s in step]
        statements.append("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in statements:
            run_sql(db, statement)
        run_sql(db, "INSERT INTO schema_version (version) VALUES (?)", [(version,)])
        return
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        for step in sqlite_store.MIGRATIONS[:version]:
            for statement in step:
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {version}")
    finally:
        connection.close()
