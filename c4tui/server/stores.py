"""Which engine keeps the lobby: a file path means SQLite, a ``postgresql://`` URL PostgreSQL.

psycopg is imported only for a PostgreSQL URL, so a server on SQLite needs nothing
beyond c4tui's own dependencies (PostgreSQL needs the ``server`` extra).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

from c4tui.server.sqlite_store import SqliteStore
from c4tui.server.store import LobbyStore, default_database

#: How a database's address names PostgreSQL (anything else is a file for SQLite).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class EngineMissing(RuntimeError):
    """The database asked for needs a driver that is not installed."""


def is_postgres(db: str | Path | None) -> TypeGuard[str]:
    """Whether ``db`` is a PostgreSQL URL."""
    return isinstance(db, str) and db.startswith(POSTGRES_SCHEMES)


def open_store(db: str | Path | None, rounds: int, *, exclusive: bool = True) -> LobbyStore:
    """The store for ``db`` (not yet opened): a PostgreSQL URL, or a SQLite file.

    ``db`` None is the file in the user's data directory (``default_database``);
    ``rounds`` is bcrypt's cost; ``exclusive`` False shares a SQLite file with the
    server that holds it (``c4tui admin``). Raises EngineMissing for a PostgreSQL URL
    without psycopg.
    """
    if is_postgres(db):
        with _needs_psycopg():
            from c4tui.server.postgres_store import PostgresStore  # noqa: PLC0415
        return PostgresStore(db, rounds)
    path = Path(db) if db is not None else default_database()
    return SqliteStore(path, rounds, exclusive=exclusive)


def holds_a_lobby(url: str) -> bool:
    """Whether the PostgreSQL database at ``url`` holds a lobby's accounts (read, never written).

    A store's ``open`` would create its tables in any database; ``c4tui admin`` asks
    first. Raises EngineMissing without psycopg, psycopg's errors if it cannot be used.
    """
    with _needs_psycopg():
        from c4tui.server import postgres_store  # noqa: PLC0415
    return postgres_store.holds_a_lobby(url)


@contextlib.contextmanager
def _needs_psycopg() -> Iterator[None]:
    """Around PostgreSQL's engine's import: without psycopg, EngineMissing says what to install."""
    try:
        yield
    except ImportError as error:
        raise EngineMissing(
            f"PostgreSQL needs psycopg ({error}):"
            " python3 -m pip install '.[server]' in c4tui's folder"
        ) from error
