"""§9's part of the lobby's store (issue 42) on SQLite and on PostgreSQL: visits and keys.

What the ssh door writes (a visit) and what the lobby asks of it: which account a key
logs in, a token as its account's password, an account made and bound in one go,
keys added, listed and removed, and gone with the account.
"""

from __future__ import annotations

import base64
import contextlib
import time
from collections.abc import AsyncIterator

from c4tui.protocols import keys
from c4tui.server import postgres_store, sqlite_store
from c4tui.server.sql_keys import key_migration
from c4tui.server.store import LobbyStore, LoginResult
from c4tui.server.stores import is_postgres
from tests.net.stores import database_at_version, store_at


def a_key(seed: int) -> keys.Visit:
    """An ed25519 public key of its own for each ``seed``, and its fingerprint."""
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + seed.to_bytes(32, "big")
    line = f"ssh-ed25519 {base64.b64encode(blob).decode()}"
    return keys.Visit(keys.fingerprint_of(line), line)


def token(seed: int) -> str:
    return f"{keys.VISIT_TOKEN_PREFIX}{seed:043d}"


@contextlib.asynccontextmanager
async def opened(db: str) -> AsyncIterator[LobbyStore]:
    """The store of ``db``, open for the test."""
    store = store_at(db)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


async def visiting(store: LobbyStore, seed: int, expires: float | None = None) -> str:
    """A visit of key ``seed`` begun; its token."""
    key = a_key(seed)
    when = time.time() + keys.VISIT_SECONDS if expires is None else expires
    await store.begin_visit(keys.token_hash(token(seed)), key, when)
    return token(seed)


async def test_a_visit_registers_logs_in_and_ends(lobby_db: str) -> None:
    async with opened(lobby_db) as store:
        visit = await visiting(store, 1)
        hashed = keys.token_hash(visit)
        assert await store.live_visit(hashed) == a_key(1)
        assert await store.key_account(a_key(1).fingerprint) is None
        assert await store.register("Ann", "pw")
        assert await store.key_register("ann", hashed) == keys.REGISTER_TAKEN  # any case
        assert await store.key_register("zed", keys.token_hash(token(9))) == keys.REGISTER_NO_VISIT
        assert await store.key_register("zoe", hashed) == 0
        assert await store.key_register("zia", hashed) == keys.REGISTER_KEY_BOUND
        assert await store.key_account(a_key(1).fingerprint) == "zoe"
        assert await store.keys_of("zoe") == [a_key(1).fingerprint]
        assert await store.check("zoe", visit) is LoginResult.OK
        assert await store.check("Ann", visit) is LoginResult.WRONG_PASSWORD  # not its key
        assert await store.check("zoe", token(2)) is LoginResult.WRONG_PASSWORD
        assert await store.ban("zoe", None, "spam", "admin:root")
        assert await store.check("zoe", visit) is LoginResult.BANNED  # whatever the credential
        await store.end_visit(hashed)
        assert await store.live_visit(hashed) is None
        assert await store.check("zoe", visit) is LoginResult.WRONG_PASSWORD


async def test_expired_visits_end_and_log_in_nothing(lobby_db: str) -> None:
    async with opened(lobby_db) as store:
        gone = await visiting(store, 1, expires=time.time() - 1)
        live = await visiting(store, 2)
        assert await store.live_visit(keys.token_hash(gone)) is None  # expired: as if ended
        assert await store.key_register("ann", keys.token_hash(gone)) == keys.REGISTER_NO_VISIT
        assert await store.end_expired_visits(time.time()) == 1
        assert await store.end_expired_visits(time.time()) == 0
        assert await store.live_visit(keys.token_hash(live)) == a_key(2)


async def test_keys_bound_added_removed_and_erased(lobby_db: str) -> None:
    async with opened(lobby_db) as store:
        assert await store.register("ann", "pw") and await store.register("bob", "pw")
        visit = keys.token_hash(await visiting(store, 1))
        assert await store.bind_key("ann", keys.token_hash(token(7))) == keys.BIND_NO_VISIT
        assert await store.bind_key("ann", visit) == 0
        assert await store.bind_key("ann", visit) == 0  # already
        assert await store.bind_key("bob", visit) == keys.BIND_ELSEWHERE
        assert await store.add_key("bob", a_key(1)) == keys.ADD_ELSEWHERE
        for seed in range(2, keys.MAX_KEYS + 1):
            assert await store.add_key("ann", a_key(seed)) == 0
        assert await store.add_key("ann", a_key(99)) == keys.ADD_TOO_MANY
        listed = await store.keys_of("ann")
        assert listed == [a_key(seed).fingerprint for seed in range(1, keys.MAX_KEYS + 1)]
        exported = await store.export("ann")
        assert exported is not None
        assert [k["fingerprint"] for k in exported["keys"]] == listed  # type: ignore[attr-defined]
        assert exported["keys"][0]["key"] == a_key(1).public_key  # type: ignore[index]
        assert await store.remove_key("bob", a_key(1).fingerprint) is False
        assert await store.remove_key("ann", a_key(1).fingerprint) is True
        assert await store.check("ann", token(1)) is LoginResult.WRONG_PASSWORD
        assert await store.delete_account("ann", "ann")
        assert await store.key_account(a_key(2).fingerprint) is None
        assert await store.add_key("bob", a_key(2)) == 0  # free again
        assert await store.add_key("ann", a_key(3)) == keys.ADD_ELSEWHERE  # no such account


async def test_a_store_from_before_keys_gains_them(lobby_db: str) -> None:
    engine = postgres_store if is_postgres(lobby_db) else sqlite_store
    assert engine.MIGRATIONS[-1] == key_migration(
        "DOUBLE PRECISION" if engine is postgres_store else "REAL"
    )
    database_at_version(lobby_db, engine.SCHEMA_VERSION - 1)
    async with opened(lobby_db) as store:
        visit = await visiting(store, 1)
        assert await store.key_register("ann", keys.token_hash(visit)) == 0
