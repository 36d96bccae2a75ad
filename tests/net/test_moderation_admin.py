"""What ``c4tui admin`` does to a running server's database, acted on within 5 s (§7);
bans and mutes that hold across a restart, on SQLite and on PostgreSQL.

``c4tui admin`` runs as its own process on the server's database (its SQLite file
while the server holds it, or its PostgreSQL), as an operator would run it.
"""

from __future__ import annotations

import asyncio
import functools
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_table_talk import bottom, exchange, played, table
from tests.net.test_metrics import series, value
from tests.net.test_moderation import gone, moderator

#: Seconds a running server has to act on what ``c4tui admin`` did (§7).
ACTED_WITHIN = 5.0


async def admin(database: str | Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``c4tui admin --db DATABASE ARGUMENTS…``, in a process of its own."""
    command = [sys.executable, "-m", "c4tui", "admin", "--db", str(database), *arguments]
    return await asyncio.to_thread(
        subprocess.run, command, capture_output=True, text=True, timeout=60, check=False
    )


async def within(seconds: float, check: Callable[[], Awaitable[bool]]) -> float:
    """Seconds until ``check`` answers True (at most ``seconds``)."""
    began = time.monotonic()
    while not await check():
        assert time.monotonic() - began < seconds, "not acted on in time"
        await asyncio.sleep(0.1)
    return time.monotonic() - began


async def test_a_ban_by_c4tui_admin_closes_the_players_connection_mid_game(
    tmp_path: Path,
) -> None:
    database = tmp_path / "accounts.sqlite3"
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        one = bottom("1000")
        await exchange(clients, played("ann", "DROP:1", one))
        result = await admin(database, "ban", "bob", "--reason", "cheating")
        assert result.returncode == 0, result.stderr
        began = time.monotonic()
        await exchange(
            clients,
            f"""
            bob< GAMEEND:{one}:2:ann
            bob< BYE:banned
            ann< GAMEEND:{one}:2:ann
            vic< GAMEEND:{one}:2:ann
            """,
        )
        assert time.monotonic() - began < ACTED_WITHIN
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        assert (await admin(database, "unban", "bob")).returncode == 0
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"


async def test_a_role_and_a_mute_by_c4tui_admin_hold_at_once(tmp_path: Path) -> None:
    database = tmp_path / "accounts.sqlite3"
    async with lobby_server(tmp_path) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await ann.ask("MUTE:bob:5") == "MUTE:ACKSTATUS:2"
        assert (await admin(database, "role", "ann", "moderator")).returncode == 0

        async def moderates() -> bool:
            return await ann.ask("REPORTS") == "REPORTS:ACKSTATUS:0:0"

        assert await within(ACTED_WITHIN, moderates) < ACTED_WITHIN
        assert await bob.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
        assert (await admin(database, "mute", "bob", "--minutes", "30")).returncode == 0

        async def muted() -> bool:
            return await bob.ask("CHAT:hello") == "CHAT:ACKSTATUS:1"

        await within(ACTED_WITHIN, muted)
        assert (await admin(database, "role", "ann", "none")).returncode == 0

        async def no_longer() -> bool:
            return await ann.ask("REPORTS") == "REPORTS:ACKSTATUS:2"

        await within(ACTED_WITHIN, no_longer)


async def test_a_deletion_by_c4tui_admin_forfeits_and_says_bye_deleted(tmp_path: Path) -> None:
    database = tmp_path / "accounts.sqlite3"
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        result = await admin(database, "delete", "bob", "--yes")
        assert result.returncode == 0, result.stderr
        empty = "0" * 16
        await exchange(
            clients,
            f"""
            bob< GAMEEND:{empty}:2:ann
            bob< BYE:deleted
            ann< GAMEEND:{empty}:2:ann
            vic< GAMEEND:{empty}:2:ann
            """,
        )
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:1"
        assert await again.ask("REGISTER:bob:pw") == "REGISTER:ACKSTATUS:1"
        ann = clients["ann"]
        game = (await ann.ask("HISTORY")).rsplit(":", 1)[1]
        kept = await ann.ask(f"GAME:{game}")  # ended after the deletion, kept all the same
        assert kept.startswith(f"GAME:ACKSTATUS:0:{game}:ann:deleted-"), kept
        assert ":4:4:classic:ann:forfeit::" in kept
        assert await ann.ask("PROFILE:ann") == "PROFILE:ACKSTATUS:0:ann:1500:350:1:1:0:0:0:player"


async def test_bans_and_mutes_hold_across_a_restart(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        mod = await moderator(server)
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await mod.ask("MUTE:ann:60") == "MUTE:ACKSTATUS:0"
        assert await mod.ask("BAN:bob:0:for good") == "BAN:ACKSTATUS:0"
        await gone(bob, "banned")
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
        assert await ann.ask("CHAT:after the restart") == "CHAT:ACKSTATUS:1"
        bob = await LobbyClient.connect(server.port)
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        mod = await LobbyClient.connect(server.port)
        assert await mod.ask("LOGIN:mod:pw") == "LOGIN:ACKSTATUS:0"
        assert await mod.ask("UNBAN:bob") == "UNBAN:ACKSTATUS:0"  # still a moderator
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"


async def test_each_ban_counts_once_in_the_metrics_from_the_wire_or_from_admin(
    tmp_path: Path,
) -> None:
    database = tmp_path / "accounts.sqlite3"
    async with lobby_server(tmp_path, metrics_port=0) as server:
        mod = await moderator(server)
        bob, _ = await logged_in(server.port, "bob"), await logged_in(server.port, "cid")
        assert await mod.ask("BAN:bob:1:spam") == "BAN:ACKSTATUS:0"
        await gone(bob, "banned")
        assert (await admin(database, "ban", "cid")).returncode == 0

        async def bans(count: int) -> bool:
            return value(await series(server), "c4tui_bans_total") == count

        await within(ACTED_WITHIN, functools.partial(bans, 2))
        await asyncio.sleep(2.5)  # two more reads of the feed: neither counted again
        assert await bans(2)
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        assert value(await series(server), "c4tui_logins_total", result="banned") == 1
