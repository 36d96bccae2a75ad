"""The lobby's store on PostgreSQL: its migrations, its one session (leadership, a lost
connection), choosing the engine, and the test servers themselves."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest
import redis.asyncio

from c4tui.net.address import without_password
from c4tui.server import postgres_store, sqlite_store
from c4tui.server.postgres_store import PostgresStore, placeholders
from c4tui.server.sql_standing import LEADERBOARD_QUERY
from c4tui.server.sqlite_store import SqliteStore
from c4tui.server.store import LoginResult, StoreLost, default_database
from c4tui.server.stores import EngineMissing, is_postgres, open_store
from tests.dbservers import PostgresServer, free_port
from tests.needs import missing
from tests.net.lobby_client import TEST_ROUNDS
from tests.net.stores import run_sql, store_at

#: Any advisory lock's key, as the lead's code would pick one.
LEADER_KEY = 31
#: A time for the leaderboard's query (epoch seconds): its bans are read at it.
NOW = 1_800_000_000.0


def _rows(url: str, query: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as connection:
        return connection.execute(query).fetchall()


async def test_a_fresh_database_migrates_once(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, TEST_ROUNDS)
    await store.open()
    try:
        assert await store.register("ann", "pw")
    finally:
        await store.close()
    assert _rows(postgres_url, "SELECT version FROM schema_version") == [
        (postgres_store.SCHEMA_VERSION,)
    ]
    tables = _rows(postgres_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    assert {row[0] for row in tables} == {
        *("accounts", "games", "moves", "schema_version"),
        *("blocks", "reports", "moderator_actions", "moderation_events", "moderation_feed"),
        "deleted_accounts",
        *("puzzles", "puzzle_tries"),  # §8
        *("account_keys", "ssh_visits"),  # §9
    }
    reopened = PostgresStore(postgres_url, TEST_ROUNDS)  # a second open changes nothing
    await reopened.open()
    try:
        assert await reopened.check("ann", "pw") is LoginResult.OK
    finally:
        await reopened.close()
    assert len(_rows(postgres_url, "SELECT version FROM schema_version")) == 1


async def test_two_stores_opening_a_fresh_database_at_once_migrate_it_once(
    postgres_url: str,
) -> None:
    stores = [PostgresStore(postgres_url, TEST_ROUNDS) for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    for store in stores:
        await store.close()
    assert _rows(postgres_url, "SELECT version FROM schema_version") == [
        (postgres_store.SCHEMA_VERSION,)
    ]


async def test_a_newer_schema_is_refused_and_left_untouched(lobby_db: str) -> None:
    store = store_at(lobby_db)
    await store.open()
    await store.close()
    newer = (sqlite_store if not is_postgres(lobby_db) else postgres_store).SCHEMA_VERSION + 1
    if is_postgres(lobby_db):
        run_sql(lobby_db, "UPDATE schema_version SET version = ?", [(newer,)])
    else:
        with sqlite3.connect(lobby_db) as connection:
            connection.execute(f"PRAGMA user_version = {newer}")
    refused = store_at(lobby_db)
    with pytest.raises(
        (sqlite_store.NewerDatabaseError, postgres_store.NewerDatabaseError),
        match=f"schema version {newer};",
    ):
        await refused.open()
    await refused.close()
    if is_postgres(lobby_db):
        assert _rows(lobby_db, "SELECT version FROM schema_version") == [(newer,)]


@contextlib.asynccontextmanager
async def two_stores(url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two nodes' stores on one database, each its own session; closed afterwards."""
    stores = PostgresStore(url, TEST_ROUNDS), PostgresStore(url, TEST_ROUNDS)
    try:
        for store in stores:
            await store.open()
        yield stores
    finally:
        for store in stores:
            await store.close()


async def test_the_first_store_leads_until_its_connection_closes(postgres_url: str) -> None:
    async with two_stores(postgres_url) as (first, second):
        assert not await first.holds_lead(LEADER_KEY)
        assert await first.try_lead(LEADER_KEY)
        assert await first.holds_lead(LEADER_KEY)
        assert not await second.try_lead(LEADER_KEY)
        assert not await second.holds_lead(LEADER_KEY)
        assert await second.try_lead(LEADER_KEY + 1)  # another key is another lock
        await first.close()
        assert await _eventually_leads(second)


async def test_a_lobby_is_known_by_its_database_whatever_address_reaches_it(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    async with two_stores(postgres_url) as (first, second):
        same = await first.lobby_identity()
        assert same == await second.lobby_identity()
    by_socket = postgres_url.replace("127.0.0.1", "localhost")  # another address, one database
    async with two_stores(by_socket) as (third, _):
        assert await third.lobby_identity() == same
    other = postgres_server.database()
    try:
        async with two_stores(other) as (fourth, _):
            assert await fourth.lobby_identity() != same
    finally:
        postgres_server.drop(other)


async def _eventually_leads(store: PostgresStore) -> bool:
    """Whether ``store`` takes the lock within a few seconds (a closed session's goes soon)."""
    for _ in range(100):
        if await store.try_lead(LEADER_KEY):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_lost_connection_raises_store_lost_and_frees_the_lead(postgres_url: str) -> None:
    async with two_stores(postgres_url) as (leader, other):
        assert await leader.try_lead(LEADER_KEY)
        run_sql(  # the database ends the leader's session (as a failover would)
            postgres_url,
            "SELECT pg_terminate_backend(pid) FROM pg_locks"
            " WHERE locktype = 'advisory' AND objid = ? AND granted",
            [(LEADER_KEY,)],
        )
        with pytest.raises(StoreLost):
            await leader.profile("ann")
        with pytest.raises(StoreLost):  # and stays lost
            await leader.keep([])
        assert await _eventually_leads(other)


def test_the_location_hides_the_password() -> None:
    url = "postgresql://ann:s3cret@db.example:5433/lobby?sslmode=require"
    assert without_password(url) == "postgresql://ann:***@db.example:5433/lobby?sslmode=require"
    assert without_password("postgres://db.example/lobby") == "postgres://db.example/lobby"
    assert PostgresStore(url).location == without_password(url)


def test_open_store_chooses_the_engine_by_the_address(tmp_path: Path) -> None:
    assert isinstance(open_store("postgresql://db/lobby", 4), PostgresStore)
    assert isinstance(open_store("postgres://db/lobby", 4), PostgresStore)
    path = tmp_path / "lobby.sqlite3"
    for db in (path, str(path)):
        store = open_store(db, 4)
        assert isinstance(store, SqliteStore) and store.path == path
    default = open_store(None, 4)
    assert isinstance(default, SqliteStore) and default.path == default_database()


def test_postgresql_without_psycopg_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "c4tui.server.postgres_store", None)
    with pytest.raises(EngineMissing, match=r"pip install '\.\[server\]'"):
        open_store("postgresql://db/lobby", 4)


def test_serve_on_an_unreachable_database_says_so_without_the_password() -> None:
    url = f"postgresql://ann:s3cret@127.0.0.1:{free_port()}/lobby"
    result = subprocess.run(
        [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "cannot open the database postgresql://ann:***@127.0.0.1:" in result.stderr
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr


async def test_the_redis_server_answers_ping(redis_url: str) -> None:
    client = redis.asyncio.from_url(redis_url)
    try:
        assert await client.ping()
    finally:
        await client.aclose()


def test_a_missing_server_skips_saying_what_to_install_and_fails_on_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"apt-get install postgresql$"):
        missing("PostgreSQL", "postgresql")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL is not installed"):
        missing("PostgreSQL", "postgresql")


async def test_the_leaderboard_can_read_the_partial_index(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, TEST_ROUNDS)
    await store.open()
    await store.close()
    with psycopg.connect(postgres_url) as connection:
        # A tiny table: make the index's use show (its plain scan, read in its order).
        connection.execute("SET enable_seqscan = off")
        connection.execute("SET enable_bitmapscan = off")
        explained = connection.execute(f"EXPLAIN {placeholders(LEADERBOARD_QUERY)}", (NOW,))
        plan = " ".join(str(row[0]) for row in explained)
    assert "Index Scan using accounts_by_rating" in plan and "Sort" not in plan
