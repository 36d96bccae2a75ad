"""Accounts (spec §5.6): no two names that differ only in case, on both engines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import bcrypt

from c4tui.server import postgres_store, sqlite_store
from c4tui.server.sql_games import FOLDED_NAMES_MIGRATION
from c4tui.server.store import LoginResult, password_digest
from c4tui.server.stores import is_postgres
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server
from tests.net.stores import database_at_version, run_sql, store_at


async def test_a_name_that_differs_only_in_case_is_taken(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        client = await LobbyClient.connect(server.port)
        exchanges = {
            "REGISTER:zoe:pw": "REGISTER:ACKSTATUS:0",
            "REGISTER:Zoe:other": "REGISTER:ACKSTATUS:1",
            "REGISTERBOT:ZOE:other": "REGISTERBOT:ACKSTATUS:1",
            "LOGIN:Zoe:pw": "LOGIN:ACKSTATUS:1",  # the exact name only
            "LOGIN:zoe:pw": "LOGIN:ACKSTATUS:0",
        }
        for line, expected in exchanges.items():
            assert await client.ask(line) == expected, line


async def test_two_registers_of_one_name_in_two_cases_at_once_make_one_account(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        for attempt in range(3):
            first = await LobbyClient.connect(server.port)
            second = await LobbyClient.connect(server.port)
            answers = await asyncio.gather(
                first.ask(f"REGISTER:Zoe{attempt}:pw"), second.ask(f"REGISTER:zoe{attempt}:pw")
            )
            assert sorted(answers) == ["REGISTER:ACKSTATUS:0", "REGISTER:ACKSTATUS:1"], answers


async def test_a_database_that_already_holds_such_a_pair_keeps_both(lobby_db: str) -> None:
    engine = postgres_store if is_postgres(lobby_db) else sqlite_store
    database_at_version(lobby_db, engine.MIGRATIONS.index(FOLDED_NAMES_MIGRATION))  # before it
    hashed = bcrypt.hashpw(password_digest("pw"), bcrypt.gensalt(TEST_ROUNDS))
    run_sql(
        lobby_db,
        "INSERT INTO accounts (name, hash, created) VALUES (?, ?, ?)",
        [("zoe", hashed, 1.0), ("Zoe", hashed, 2.0)],
    )
    store = store_at(lobby_db)
    await store.open()
    try:
        for name in ("zoe", "Zoe"):
            assert await store.check(name, "pw") is LoginResult.OK
        assert not await store.register("ZOE", "pw")
        assert not await store.register("Zoe", "pw")
        assert await store.register("amy", "pw")
        assert not await store.register("AMY", "pw")
    finally:
        await store.close()
