"""A deletion in the change feed names the account's stand-in only (§7), and still reaches it.

The feed keeps ``deleted-<n>``; a running server reads it back as the folded name and
closes the connections logged in as the account, in whatever case it was registered,
and only those: of two names that differ in case only (let in before §5.6), the one
deleted. A feed an older c4tui kept, with deletions named in clear, is scrubbed when
the store opens.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from c4tui.server import postgres_store, sqlite_store
from c4tui.server.moderation_store import EventKind, ModerationEvent
from c4tui.server.sql_erasure import ERASED_NAMES_MIGRATION
from c4tui.server.stores import is_postgres
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.stores import database_at_version, run_sql, store_at
from tests.net.test_moderation import gone


async def delete_behind_the_server(database: Path, user: str) -> None:
    """Delete ``user`` as ``c4tui admin`` does: from a store of its own on the server's file."""
    store = store_at(str(database), exclusive=False)
    await store.open()
    try:
        assert await store.delete_account(user, "admin:root")
    finally:
        await store.close()


async def test_a_deletion_from_elsewhere_closes_its_connections_in_their_own_case(
    tmp_path: Path,
) -> None:
    database = tmp_path / "accounts.sqlite3"
    async with lobby_server(tmp_path) as server:
        upper = await logged_in(server.port, "Zoe")
        with sqlite3.connect(database) as db:  # a twin from before §5.6: no folded name
            db.execute(
                "INSERT INTO accounts (name, folded, hash, created)"
                " SELECT 'zoe', NULL, hash, created FROM accounts WHERE name = 'Zoe'"
            )
        lower = await LobbyClient.connect(server.port)
        assert await lower.ask("LOGIN:zoe:pw") == "LOGIN:ACKSTATUS:0"
        await delete_behind_the_server(database, "zoe")
        await gone(lower, "deleted")  # within the feed's poll
        assert (await upper.ask("PLAYERS")).startswith("PLAYERS:ACKSTATUS:0")  # not its twin
        await delete_behind_the_server(database, "Zoe")
        await gone(upper, "deleted")
    with sqlite3.connect(database) as db:
        names = [row[0] for row in db.execute("SELECT name FROM moderation_events")]
    assert names == ["deleted-1", "deleted-2"]


async def test_an_older_feeds_deletions_are_scrubbed_of_their_names(lobby_db: str) -> None:
    engine = postgres_store if is_postgres(lobby_db) else sqlite_store
    database_at_version(lobby_db, engine.MIGRATIONS.index(ERASED_NAMES_MIGRATION))  # before it
    run_sql(
        lobby_db,
        "INSERT INTO deleted_accounts (folded, at) VALUES (?, 0)",
        [("ann",), ("bob",)],
    )
    run_sql(
        lobby_db,
        "INSERT INTO moderation_events (number, kind, name, at) VALUES (?, ?, ?, 0)",
        [(1, "mute", "deleted-1"), (2, "delete", "Ann"), (3, "delete", "bob"), (4, "ban", "cid")],
    )
    store = store_at(lobby_db)
    await store.open()
    try:
        events = await store.events_after(0)
    finally:
        await store.close()
    assert events == [
        ModerationEvent(1, EventKind.MUTE, "deleted-1"),
        ModerationEvent(2, EventKind.DELETE, "ann"),  # read back as the folded name
        ModerationEvent(3, EventKind.DELETE, "bob"),
        ModerationEvent(4, EventKind.BAN, "cid"),
    ]
    kept = await _names_kept(lobby_db)
    assert kept == ["deleted-1", "deleted-1", "deleted-2", "cid"]


async def _names_kept(db: str) -> list[str]:
    """The feed's names as the database holds them, in order."""
    if is_postgres(db):
        with psycopg.connect(db) as connection:
            rows = connection.execute("SELECT name FROM moderation_events ORDER BY number")
            return [row[0] for row in rows]
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT name FROM moderation_events ORDER BY number")
        return [row[0] for row in rows]
