"""``c4tui serve --metrics-port`` (spec §7): the series move as a real server serves real games.

Each test reads the metrics as Prometheus would, over HTTP, and parses them with
prometheus_client's own parser; the lobby is played over real sockets. A flood of
garbage on the metrics port is tried too: the lobby goes on serving through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from c4tui.server import metrics_door
from c4tui.server.core import C4Server
from tests.net.lobby_client import TIMEOUT, LobbyClient, lobby_server, logged_in
from tests.net.raw_client import RawClient
from tests.net.test_lobby_games import ANN_WINS
from tests.net.test_lobby_server import play, playing
from tests.net.test_serve_command import start, stopped

#: One sample: its series' name and its labels.
Key = tuple[str, tuple[tuple[str, str], ...]]


def scrape(port: int) -> dict[Key, float]:
    """Every sample ``http://127.0.0.1:port/metrics`` shows, as Prometheus would read it."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=TIMEOUT) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = answer.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def series(server: C4Server) -> dict[Key, float]:
    """``scrape`` of ``server``'s metrics port, off the loop the server runs on."""
    port = server.metrics_door.port
    assert port is not None
    return await asyncio.to_thread(scrape, port)


def value(samples: dict[Key, float], name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


async def until_no_connection_is_left(server: C4Server) -> dict[Key, float]:
    """The samples once every c4tui_connections is back to 0 (the server notices closes)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        samples = await series(server)
        if all(v == 0 for (name, _), v in samples.items() if name == "c4tui_connections"):
            return samples
        assert time.monotonic() < deadline, samples
        await asyncio.sleep(0.05)


async def test_the_series_move_with_a_real_game(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, metrics_port=0) as server:
        before = await series(server)
        assert value(before, "c4tui_connections", protocol="lobby") == 0
        assert value(before, "c4tui_logins_total", result="banned") == 0  # shown from the start
        assert value(before, "c4tui_move_commit_seconds_count") == 0
        ann, bob = await playing(server.port, ":4:4:classic")  # two accounts, two logins
        stranger = await LobbyClient.connect(server.port)
        assert await stranger.ask("REGISTER:ann:other") == "REGISTER:ACKSTATUS:1"  # taken
        assert await stranger.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
        assert await stranger.ask("LOGIN:nobody:pw") == "LOGIN:ACKSTATUS:1"
        ai = await RawClient.connect(server.port)
        await ai.send("I32CFSP_HELLO probe")
        assert await ai.line() == "WELCOME probe"
        during = await series(server)
        assert value(during, "c4tui_connections", protocol="lobby") == 3
        assert value(during, "c4tui_connections", protocol="i32cfsp") == 1
        assert value(during, "c4tui_registrations_total") == 2
        assert value(during, "c4tui_logins_total", result="ok") == 2
        assert value(during, "c4tui_logins_total", result="wrong") == 1
        assert value(during, "c4tui_logins_total", result="unknown") == 1
        assert value(during, "c4tui_games_in_progress") == 1
        assert value(during, "c4tui_moves_total") == 0
        await ann.send("CHAT:good luck")
        assert await ann.line() == await bob.line() == "CHAT:ann:good luck"
        for index, move in enumerate(ANN_WINS):
            mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
            await play(mover, [other], move, "BOARDSTATUS" if index < 6 else "GAMEEND")
        after = await series(server)
        assert value(after, "c4tui_games_in_progress") == 0
        assert value(after, "c4tui_games_finished_total", reason="four") == 1
        assert value(after, "c4tui_games_finished_total", reason="forfeit") == 0
        assert value(after, "c4tui_moves_total") == len(ANN_WINS)
        assert value(after, "c4tui_move_commit_seconds_count") == len(ANN_WINS)  # one at a time
        assert value(after, "c4tui_move_commit_seconds_sum") > 0
        assert value(after, "c4tui_move_commit_seconds_bucket", le="+Inf") == len(ANN_WINS)
        assert value(after, "c4tui_chat_lines_total") == 1
        assert value(after, "c4tui_reports_total") == value(after, "c4tui_bans_total") == 0
        for client in (ann, bob, stranger, ai):
            await client.close()
        await until_no_connection_is_left(server)


async def test_only_what_the_limits_let_through_is_counted(tmp_path: Path) -> None:
    async with lobby_server(
        tmp_path, metrics_port=0, max_registrations=2, chat_rate=1, max_per_address=10
    ) as server:
        ann, bob = await playing(server.port)  # the address's two registrations
        third = await LobbyClient.connect(server.port)
        assert await third.ask("REGISTER:cid:pw") == "REGISTER:ACKSTATUS:3"  # over the limit
        await ann.send("CHAT:hi")
        assert await ann.line() == await bob.line() == "CHAT:ann:hi"
        assert await ann.ask("CHAT:again") == "CHAT:ACKSTATUS:2"  # too fast: said to nobody
        assert await ann.ask("REPORT:bob:chat:rude") == "REPORT:ACKSTATUS:0"
        assert await ann.ask("REPORT:nobody:chat:rude") == "REPORT:ACKSTATUS:1"
        samples = await series(server)
        assert value(samples, "c4tui_registrations_total") == 2
        assert value(samples, "c4tui_chat_lines_total") == 1
        assert value(samples, "c4tui_reports_total") == 1


async def test_a_forfeit_is_finished_by_its_reason(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, metrics_port=0) as server:
        ann, bob = await playing(server.port)
        await play(ann, [bob], "DROP:4", "BOARDSTATUS")
        await play(bob, [ann], "FORFEIT", "GAMEEND")
        samples = await series(server)
        assert value(samples, "c4tui_games_finished_total", reason="forfeit") == 1
        assert value(samples, "c4tui_games_in_progress") == 0
        assert value(samples, "c4tui_moves_total") == 1


async def test_games_restored_after_a_restart_are_in_progress(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, metrics_port=0, reconnect_grace=30) as server:
        ann, bob = await playing(server.port)
        await play(ann, [bob], "DROP:4", "BOARDSTATUS")
    async with lobby_server(tmp_path, metrics_port=0, reconnect_grace=30) as server:
        samples = await series(server)
        assert value(samples, "c4tui_games_in_progress") == 1
        assert value(samples, "c4tui_moves_total") == 0  # kept before: not this server's
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        await ann.send("FORFEIT")
        while not (await ann.line()).startswith("GAMEEND:"):
            pass  # REJOIN, the board, bob away
        samples = await series(server)
        assert value(samples, "c4tui_games_in_progress") == 0


async def test_two_servers_in_one_process_count_apart(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    async with (
        lobby_server(tmp_path / "one", metrics_port=0) as one,
        lobby_server(tmp_path / "two", metrics_port=0) as two,
    ):
        client = await logged_in(one.port, "ann")
        first, second = await series(one), await series(two)
        assert value(first, "c4tui_registrations_total") == 1
        assert value(first, "c4tui_connections", protocol="lobby") == 1
        assert value(second, "c4tui_registrations_total") == 0
        assert value(second, "c4tui_connections", protocol="lobby") == 0
        await client.close()


async def test_no_metrics_port_serves_no_metrics_and_the_port_closes_with_the_server(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        assert server.metrics_door.port is None
        client = await logged_in(server.port, "ann")  # counted all the same, for nobody
        await client.close()
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        await series(server)
    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_connection("127.0.0.1", port)


def ask_raw(port: int, request: bytes) -> bytes:
    """``request`` sent as is to the metrics port; everything it answers before closing."""
    answer = b""
    with (
        socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock,
        contextlib.suppress(ConnectionResetError, BrokenPipeError),  # cut off: the answer so far
    ):
        sock.sendall(request)
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


async def test_the_metrics_port_answers_nothing_but_get_metrics(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None

        async def ask(request: bytes) -> bytes:
            return await asyncio.to_thread(ask_raw, port, request)

        assert (await ask(b"GET / HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404 ")
        assert (await ask(b"GET /metrics/../x HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404 ")
        assert (await ask(b"POST /metrics HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 405 ")
        assert (await ask(b"hello there\r\n\r\n")).startswith(b"HTTP/1.1 400 ")
        assert await ask(b"X" * (metrics_door.REQUEST_BYTES * 4)) == b""  # cut off, no answer
        head = await ask(b"HEAD /metrics?x=1 HTTP/1.1\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 ") and head.endswith(b"\r\n\r\n")  # no body
        with pytest.raises(urllib.error.HTTPError):
            await asyncio.to_thread(urllib.request.urlopen, f"http://127.0.0.1:{port}/", None, 5)


async def flood(port: int, kind: int) -> asyncio.StreamWriter | None:
    """One connection of garbage to the metrics port, left open (None: refused at once)."""
    garbage = [
        os.urandom(4096),  # bytes, never a request's end
        b"A" * (4 * metrics_door.REQUEST_BYTES),  # more than a request may be
        b"GET /metrics HTTP/1.1\r\nHost: x\r\n",  # a request that never ends
        b"",  # nothing at all
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64),  # a TLS hello
    ][kind]
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(garbage)
        await writer.drain()
    except OSError:
        return None
    return writer


async def test_a_flood_of_garbage_on_the_metrics_port_does_not_stop_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metrics_door, "REQUEST_SECONDS", 2.0)  # the silent ones go sooner
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        writers = await asyncio.gather(*(flood(port, n % 5) for n in range(150)))
        ann, bob = await playing(server.port, ":4:4:classic")  # while the garbage waits
        for index, move in enumerate(ANN_WINS):
            mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
            await play(mover, [other], move, "BOARDSTATUS" if index < 6 else "GAMEEND")
        more = await asyncio.gather(*(flood(port, n % 5) for n in range(150)))
        assert await ann.ask("HISTORY") != ""  # the lobby still answers at once
        for writer in [*writers, *more]:
            if writer is not None:
                writer.transport.abort()
        deadline = time.monotonic() + TIMEOUT
        while True:  # the garbage's slots free up; Prometheus is answered again
            with contextlib.suppress(OSError):
                samples = await series(server)
                break
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        assert value(samples, "c4tui_moves_total") == len(ANN_WINS)
        assert value(samples, "c4tui_connections", protocol="lobby") == 2  # garbage: not counted


def metrics_port_in(log: Path) -> int:
    """The port a ``c4tui serve`` process says it serves its metrics on."""
    found = re.search(r"metrics for Prometheus at http://[0-9.]+:(\d+)/metrics", log.read_text())
    assert found, log.read_text()
    return int(found.group(1))


def test_serve_metrics_port_as_a_process_and_a_busy_one_is_a_clear_error(tmp_path: Path) -> None:
    first, lobby = start(
        tmp_path / "serve.log", "--db", str(tmp_path / "a.sqlite3"), "--metrics-port", "0"
    )
    try:
        port = metrics_port_in(tmp_path / "serve.log")
        assert scrape(port)[("c4tui_connections", (("protocol", "lobby"),))] == 0
        command = [sys.executable, "-m", "c4tui", "serve", "--port", "0"]
        second = subprocess.run(
            [*command, "--metrics-port", str(port), "--db", str(tmp_path / "b.sqlite3")],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode == 1
        assert f"cannot serve the metrics on 127.0.0.1:{port}" in second.stderr
        assert "Traceback" not in second.stderr
        assert lobby > 0
    finally:
        assert stopped(first) == 0
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT).close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def test_a_metrics_host_without_a_metrics_port_is_a_usage_error() -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "c4tui", "serve", "--metrics-host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert "--metrics-host" in refused.stderr and "--metrics-port" in refused.stderr
