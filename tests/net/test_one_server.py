"""One server per SQLite database (spec §5.6): a second ``c4tui serve`` on a held file
refuses to start, and the first keeps serving; a holder killed with kill -9 lets go."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from tests.net.lobby_client import LobbyClient
from tests.net.test_serve_command import start, stopped


def second_server(database: Path) -> subprocess.CompletedProcess[str]:
    """``c4tui serve`` on ``database``, run until it exits (it should, at once)."""
    return subprocess.run(
        [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--db", str(database)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


async def registers(port: int, user: str) -> str:
    client = await LobbyClient.connect(port)
    try:
        return await client.ask(f"REGISTER:{user}:pw")
    finally:
        await client.close()


def test_a_second_server_on_a_held_database_refuses_and_the_first_serves_on(
    tmp_path: Path,
) -> None:
    database = tmp_path / "lobby.sqlite3"
    first, port = start(tmp_path / "first.log", "--db", str(database))
    try:
        assert asyncio.run(registers(port, "ann")) == "REGISTER:ACKSTATUS:0"
        second = second_server(database)
        assert second.returncode == 1, second.stderr
        assert str(database) in second.stderr
        assert "another server holds it" in second.stderr
        assert "Traceback" not in second.stderr and "listening" not in second.stderr
        assert first.poll() is None
        assert asyncio.run(registers(port, "bob")) == "REGISTER:ACKSTATUS:0"
    finally:
        assert stopped(first) == 0


def test_a_database_whose_server_was_killed_serves_again(tmp_path: Path) -> None:
    database = tmp_path / "lobby.sqlite3"
    first, port = start(tmp_path / "first.log", "--db", str(database))
    assert asyncio.run(registers(port, "ann")) == "REGISTER:ACKSTATUS:0"
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    second, port = start(tmp_path / "second.log", "--db", str(database))
    try:
        assert asyncio.run(registers(port, "ann")) == "REGISTER:ACKSTATUS:1"  # kept
    finally:
        assert stopped(second) == 0
