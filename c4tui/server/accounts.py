"""The lobby's accounts: SQLite, bcrypt hashes only, nothing acknowledged before it is on disk.

Hashing is slow on purpose, so it runs in worker threads, never on the event
loop; the database is used from one thread of its own. A registration is
committed (WAL, synchronous=FULL) before ``register`` returns, so the server
acknowledges only accounts that survive a crash. bcrypt reads only 72 bytes,
so it hashes the base64 of the password's SHA-256: every character counts.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from pathlib import Path
from typing import TypeVar

import bcrypt

from c4tui.server.limits import DEFAULT_ROUNDS
from c4tui.storage import data_folder

#: Failures allowed before answers slow down; the delay then doubles up to this.
FREE_FAILURES = 2
MAX_DELAY = 30.0

T = TypeVar("T")


def default_database() -> Path:
    """Where accounts live unless ``--db`` says otherwise: the user's data directory."""
    return data_folder() / "accounts.sqlite3"


def _digest(password: str) -> bytes:
    """What bcrypt hashes: 44 bytes that depend on every character of the password."""
    return base64.b64encode(hashlib.sha256(password.encode("ascii")).digest())


class LoginResult(Enum):
    """LOGIN's outcome, in ACKSTATUS order."""

    OK = 0
    NO_SUCH_USER = 1
    WRONG_PASSWORD = 2


class AccountStore:
    """Accounts in one SQLite file.

    Args:
        path: the database file (its directory is created if need be).
        rounds: bcrypt's log2 cost (tests use the minimum, 4).
    """

    def __init__(self, path: Path, rounds: int = DEFAULT_ROUNDS) -> None:
        self.path = path
        self.rounds = rounds
        self._database = ThreadPoolExecutor(1, thread_name_prefix="c4tui-accounts")
        self._hashing = ThreadPoolExecutor(4, thread_name_prefix="c4tui-bcrypt")
        self._connection: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Open (and if need be create) the database."""
        await self._in_database(self._open)

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS accounts ("
            "name TEXT PRIMARY KEY, hash BLOB NOT NULL, created REAL NOT NULL)"
        )
        self._connection = connection

    async def close(self) -> None:
        """Close the database and stop the threads."""
        if self._connection is not None:
            await self._in_database(self._connection.close)
            self._connection = None
        self._database.shutdown(wait=False)
        self._hashing.shutdown(wait=False)

    async def register(self, user: str, password: str) -> bool:
        """Create an account, on disk before this returns; False if the name is taken."""
        if await self._stored_hash(user) is not None:
            return False
        hashed = await self._in_hashing(
            bcrypt.hashpw, _digest(password), bcrypt.gensalt(self.rounds)
        )
        return bool(await self._in_database(self._insert, user, hashed))

    def _insert(self, user: str, hashed: bytes) -> bool:
        assert self._connection is not None
        try:
            self._connection.execute(  # autocommit: committed when this returns
                "INSERT INTO accounts (name, hash, created) VALUES (?, ?, ?)",
                (user, hashed, time.time()),
            )
        except sqlite3.IntegrityError:
            return False  # registered by someone else meanwhile
        return True

    async def check(self, user: str, password: str) -> LoginResult:
        """Whether ``password`` is ``user``'s."""
        hashed = await self._stored_hash(user)
        if hashed is None:
            return LoginResult.NO_SUCH_USER
        matches = await self._in_hashing(bcrypt.checkpw, _digest(password), hashed)
        return LoginResult.OK if matches else LoginResult.WRONG_PASSWORD

    async def _stored_hash(self, user: str) -> bytes | None:
        return await self._in_database(self._select, user)

    def _select(self, user: str) -> bytes | None:
        assert self._connection is not None
        row = self._connection.execute(
            "SELECT hash FROM accounts WHERE name = ?", (user,)
        ).fetchone()
        return None if row is None else bytes(row[0])

    async def _in_database(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` in the database's own thread (SQLite is used from one thread)."""
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)

    async def _in_hashing(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` (bcrypt, slow on purpose) in a hashing thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._hashing, work, *args)


class LoginThrottle:
    """Slows failed logins down, per connection and per user, and nobody else.

    From the third failure (on a connection, or for a user) each failed answer
    waits at least 1 s after the attempt, then 2, 4 … up to 30 s. A success
    clears the user's count. The wait is the failing connection's own.
    """

    def __init__(self) -> None:
        self._by_user: dict[str, int] = {}

    def failed(self, user: str, connection_failures: int) -> float:
        """Count a failure; the seconds its answer must wait (from the attempt on)."""
        self._by_user[user] = self._by_user.get(user, 0) + 1
        return delay_for(max(self._by_user[user], connection_failures))

    def succeeded(self, user: str) -> None:
        """A good login clears the user's count."""
        self._by_user.pop(user, None)


def delay_for(failures: int) -> float:
    """0 for the first two failures, then 1, 2, 4 … seconds, at most MAX_DELAY."""
    if failures <= FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY, 2.0 ** (failures - FREE_FAILURES - 1))
