"""``c4tui admin`` run as its own process on a real server's database (§7): SQLite while the
server holds the file, and PostgreSQL; what it says, what it keeps, and how it refuses."""

from __future__ import annotations

import asyncio
import getpass
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from c4tui.protocols.public import ReportReason
from tests.dbservers import free_port
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_public_store import REPORTED_AT, opened

#: Seconds one ``c4tui admin`` may take (a fresh interpreter, one act).
ADMIN_SECONDS = 60


async def admin(db: str | Path, *arguments: str, answer: str | None = None) -> tuple[int, str, str]:
    """``python -m c4tui admin --db DB ARGUMENTS…`` in a process of its own: status, out, err.

    ``answer``: what its standard input holds (None: nothing, at once at its end).
    """
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "c4tui", "admin", "--db", str(db), *arguments),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    given = b"" if answer is None else answer.encode()
    out, err = await asyncio.wait_for(process.communicate(given), ADMIN_SECONDS)
    assert process.returncode is not None
    said_out, said_err = out.decode(), err.decode()
    assert "Traceback" not in said_out + said_err  # words, never a traceback
    return process.returncode, said_out, said_err


def me() -> str:
    """Who ``c4tui admin`` acts as in these tests."""
    return f"admin:{getpass.getuser()}"


async def test_every_act_on_a_running_servers_database(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        store = server.lobby.store  # the server's own (the SQLite file held by it)
        assert await store.report("ann", "bob", ReportReason.CHAT, "rude: very", REPORTED_AT) == 0

        assert await admin(lobby_db, "role", "ann", "moderator") == (
            0,
            f"{me()} made ann a moderator\n",
            "",
        )
        assert await store.role("ann") == "moderator"
        status, said, _ = await admin(lobby_db, "ban", "bob", "--hours", "2", "--reason", "spam")
        assert status == 0 and said.startswith(f"{me()} banned bob until ") and "spam" in said
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        assert await admin(lobby_db, "unban", "bob") == (0, f"{me()} unbanned bob\n", "")
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        status, said, _ = await admin(lobby_db, "mute", "bob", "--minutes", "30")
        assert status == 0 and said.startswith(f"{me()} muted bob until ")
        sanctions = await store.sanctions("bob")
        assert sanctions is not None and sanctions.muted_until is not None

        status, table, _ = await admin(lobby_db, "reports")
        head, row = table.splitlines()
        words = ["#", "when", "(UTC)", "reporter", "reported", "reason", "game", "text"]
        assert head.split() == words
        assert row.split() == ["1", "2026-12-02", "10:00:00", "ann", "bob", "chat", "rude:", "very"]
        assert await admin(lobby_db, "close-report", "1") == (0, f"{me()} closed report #1\n", "")
        assert await admin(lobby_db, "reports") == (0, "No open reports.\n", "")

        status, exported, _ = await admin(lobby_db, "export", "bob")
        kept = json.loads(exported)
        assert status == 0 and kept["name"] == "bob" and "hash" not in exported
        assert [a["action"] for a in kept["moderator_actions_on_it"]] == [
            *("ban", "unban", "mute", "close-report")
        ]

        assert await admin(lobby_db, "delete", "bob", "--yes") == (
            0,
            f"{me()} deleted the account bob\n",
            "",
        )
        newcomer = await LobbyClient.connect(server.port)
        assert await newcomer.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:1"
        assert await newcomer.ask("REGISTER:Bob:pw") == "REGISTER:ACKSTATUS:1"
        actions = await store.moderator_actions(20)
        for client in (ann, bob, again, newcomer):
            await client.close()
    assert {action.moderator for action in actions} == {me()}
    assert [action.action for action in reversed(actions)] == [
        *("role", "ban", "unban", "mute", "close-report", "delete")
    ]


async def test_delete_asks_first_and_no_answer_is_no(lobby_db: str) -> None:
    async with opened(lobby_db, "ann"):
        pass
    status, said, asked = await admin(lobby_db, "delete", "ann")  # the input ends at once
    assert (status, said) == (1, "")
    assert "Delete the account ann?" in asked and "nothing deleted" in asked
    status, _, asked = await admin(lobby_db, "delete", "ann", answer="no\n")
    assert status == 1 and "nothing deleted" in asked
    async with opened(lobby_db) as store:
        assert await store.role("ann") == "player"  # still there
    assert (await admin(lobby_db, "delete", "ann", answer="y\n"))[0] == 0
    async with opened(lobby_db) as store:
        assert await store.role("ann") is None


@pytest.mark.parametrize(
    "act",
    [
        ["role", "nobody", "moderator"],
        ["ban", "nobody"],
        ["unban", "nobody"],
        ["mute", "nobody", "--minutes", "5"],
        ["delete", "nobody", "--yes"],
        ["export", "nobody"],
        ["role", "Ann", "none"],  # names are exact
    ],
)
async def test_a_missing_user_is_said_with_status_1(lobby_db: str, act: list[str]) -> None:
    async with opened(lobby_db, "ann"):
        pass
    status, said, refused = await admin(lobby_db, *act)
    assert (status, said) == (1, "")
    assert refused.startswith("c4tui admin: no account is called ")
    async with opened(lobby_db) as store:
        assert await store.moderator_actions(5) == []  # nothing done, nothing kept
        assert await store.last_event() == 0


async def test_nothing_to_undo_is_said_with_status_1(lobby_db: str) -> None:
    async with opened(lobby_db, "ann"):
        pass
    assert await admin(lobby_db, "unban", "ann") == (1, "", "c4tui admin: ann is not banned\n")
    assert await admin(lobby_db, "close-report", "7") == (
        1,
        "",
        "c4tui admin: no open report #7\n",
    )


@pytest.mark.parametrize(
    "act",
    [
        ["ban", "ann", "--hours", "-1"],
        ["ban", "ann", "--hours", "1.5"],
        ["ban", "ann", "--reason", "a\nsecond line"],
        ["mute", "ann"],
        ["mute", "ann", "--minutes", "0"],
        ["mute", "ann", "--minutes", "10081"],
        ["role", "ann", "admin"],
        ["close-report", "x"],
        ["frobnicate", "ann"],
    ],
)
async def test_bad_arguments_are_usage_errors(tmp_path: Path, act: list[str]) -> None:
    status, said, refused = await admin(tmp_path / "none.sqlite3", *act)
    assert (status, said) == (2, "") and "usage: c4tui admin" in refused


async def test_a_db_that_is_no_lobby_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite3"
    status, _, refused = await admin(missing, "reports")
    assert status == 2 and f"no database at {missing}" in refused
    assert not missing.exists()  # not created
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    status, _, refused = await admin(other, "role", "ann", "moderator")
    assert status == 2 and "holds no lobby's accounts" in refused
    with sqlite3.connect(other) as connection:  # untouched: no tables of ours
        tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("notes",)]
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database at all")
    status, _, refused = await admin(junk, "reports")
    assert status == 3 and "cannot use the database" in refused


async def test_an_unreachable_postgresql_is_said_with_status_3_its_password_hidden() -> None:
    url = f"postgresql://c4tui:secret-word@127.0.0.1:{free_port()}/lobby"
    status, said, refused = await admin(url, "reports")
    assert (status, said) == (3, "")
    assert "cannot use the database postgresql://c4tui:***@127.0.0.1" in refused
    assert "secret-word" not in refused


async def test_a_postgresql_database_that_is_no_lobbys_is_refused_and_left_alone(
    postgres_url: str,
) -> None:
    import psycopg

    with psycopg.connect(postgres_url) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    status, said, refused = await admin(postgres_url, "role", "ann", "moderator")
    assert (status, said) == (2, "") and "holds no lobby's accounts" in refused
    with psycopg.connect(postgres_url) as connection:  # untouched: no tables of ours
        tables = connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    assert tables == [("notes",)]
