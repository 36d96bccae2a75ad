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


def store_at(db: str) -> LobbyStore:
    """The store (not yet opened) of ``db``: a SQLite file or a PostgreSQL URL."""
    return open_store(db, TEST_ROUNDS)


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
