"""``c4tui serve`` as a real process: it logs, serves, and stops cleanly on signals."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.net.lobby_client import LobbyClient
from tests.net.raw_client import play_whole_game


def start(
    log: Path, *options: str, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """``c4tui serve`` on a free port with ``options`` (and ``env``), its log in ``log``: the
    process and its port, once it listens."""
    handle = log.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--idle-timeout", "5", *options],
        stderr=handle,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    for _ in range(600):  # an outside program as --ai is tried first: slow on a loaded machine
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())
        if match:
            return process, int(match.group(1))
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the server did not start ({process.wait()}): " + log.read_text())


def stopped(process: subprocess.Popen[bytes]) -> int:
    """End the server ``process`` with SIGTERM, if it still runs: its exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("the server did not stop on SIGTERM") from None


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serves_a_game_then_stops_cleanly_on_a_signal(tmp_path: Path, signum: int) -> None:
    log = tmp_path / "serve.log"
    process, port = start(log)
    try:
        result = asyncio.run(play_whole_game(port))
        assert result in ("WINNER_RED", "WINNER_YELLOW", "DRAW")
        process.send_signal(signum)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    text = log.read_text()
    assert re.search(r"#1 opened from 127\.0\.0\.1:\d+", text)
    assert re.search(r"#1 closed \(game over: (WINNER_RED|WINNER_YELLOW|DRAW)\)", text)
    assert "stopped" in text
    assert "Traceback" not in text


def test_a_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "first.log"
    first, port = start(log)
    own_database = str(tmp_path / "second.sqlite3")  # not the first's: that one is held
    try:
        second = subprocess.run(
            [sys.executable, "-m", "c4tui", "serve", "--port", str(port), "--db", own_database],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert second.returncode == 1
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=20)


def test_serve_help_explains_every_option() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "c4tui", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    for option in ("--host", "--port", "--ai", "--max-connections", "--idle-timeout", "--ai-first"):
        assert option in result.stdout


def test_acknowledged_accounts_survive_a_kill_and_no_password_is_stored(tmp_path: Path) -> None:
    database = tmp_path / "accounts.sqlite3"
    users = {f"user{n}": f"pass-{n}:with:colons" for n in range(5)}

    async def register_all(port: int) -> None:
        client = await LobbyClient.connect(port)
        for user, password in users.items():
            assert await client.ask(f"REGISTER:{user}:{password}") == "REGISTER:ACKSTATUS:0"

    async def log_in_all(port: int) -> None:
        client = await LobbyClient.connect(port)
        for user, password in users.items():
            client = await LobbyClient.connect(port)
            assert await client.ask(f"LOGIN:{user}:{password}") == "LOGIN:ACKSTATUS:0"
        assert await client.ask("LOGIN:user0:pass-0") == "LOGIN:ACKSTATUS:3"  # logged in

    process, port = start(tmp_path / "first.log", "--db", str(database))
    try:
        asyncio.run(register_all(port))
    finally:
        process.send_signal(signal.SIGKILL)  # right after the last ACK: no clean shutdown
        process.wait(10)
    process, port = start(tmp_path / "second.log", "--db", str(database))
    try:
        asyncio.run(log_in_all(port))
    finally:
        process.terminate()
        process.wait(10)
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("accounts.sqlite3*"))
    assert b"user3" in stored  # the names are there…
    assert not any(password.encode() in stored for password in users.values())  # …not these
    assert b"pass-" not in stored
