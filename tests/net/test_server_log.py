"""What the operator reads in ``c4tui serve``'s log: TLS connections marked, registrations
(never a password), games' starts and ends, and a hostile client's bytes escaped."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from pathlib import Path

import pytest

from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_serve_command import start, stopped
from tests.net.test_standing import ann_beats_bob, begin
from tests.net.test_tls import certificates, tls_link


def logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "c4tui.server"]


async def test_tls_connections_are_marked_in_each_of_their_lines(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="c4tui.server")
    certs = certificates(tmp_path, "127.0.0.1")
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as server:
        plain = await logged_in(server.port, "ann")
        secure = await tls_link(server, certs.ca, "bob")
        await plain.close()
        await secure.close()
        await server.lobby.announced()
        for _ in range(100):  # the server logs a close once its side has closed too
            if sum(" closed (" in line for line in logged(caplog)) == 2:
                break
            await asyncio.sleep(0.05)
    lines = logged(caplog)
    ann = [line for line in lines if line.startswith("#1 ")]
    bob = [line for line in lines if line.startswith("#2 ")]
    assert [line.split(" ", 2)[1] for line in ann] == ["opened", "registered", "logged", "closed"]
    assert not any("TLS" in line for line in ann)
    assert len(bob) == 4 and all(line.startswith("#2 (TLS) ") for line in bob), bob


async def test_registrations_are_logged_without_their_passwords(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with lobby_server(tmp_path) as server:
        client = await LobbyClient.connect(server.port)
        assert await client.ask("REGISTER:zoe:s3cret-one") == "REGISTER:ACKSTATUS:0"
        assert await client.ask("REGISTER:Zoe:s3cret-two") == "REGISTER:ACKSTATUS:1"
        assert await client.ask("REGISTERBOT:robo:s3cret-three") == "REGISTERBOT:ACKSTATUS:0"
    lines = logged(caplog)
    assert "#1 registered zoe" in lines
    assert "#1 registered robo (a bot)" in lines
    assert "#1 could not register Zoe (the name is taken)" in lines
    assert not any("s3cret" in line for line in lines)


async def test_a_games_start_and_end_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with lobby_server(tmp_path) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        await begin(ann, bob, "r1", ":4:4:classic:casual")
        await ann_beats_bob(ann, bob)
        await begin(bob, ann, "r2", ":7:6:popout:rated")
        assert (await bob.ask("FORFEIT")).startswith("GAMEEND:")
        await server.lobby.announced()
    lines = logged(caplog)
    assert "game began in room r1: ann (red) vs bob (yellow), 4x4 classic, casual" in lines
    assert "game in room r1 ended: ann beat bob (four)" in lines
    assert "game began in room r2: bob (red) vs ann (yellow), 7x6 popout, rated" in lines
    assert "game in room r2 ended: ann beat bob (forfeit)" in lines


def test_a_clients_garbage_reaches_the_log_as_a_short_escaped_prefix(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    process, port = start(log, "--db", str(tmp_path / "lobby.sqlite3"))
    try:
        hostile = [
            b"\x1b]0;pwned\x07\x1b[2J\xff\xfe" + b"A" * 100 + b"\n",  # no protocol of ours
            b"REGISTER:eve:pw\nLOGIN:eve:pw\nCHAT:\x1b[31m\xc3\xa9\xff" + b"B" * 100 + b"\n",
        ]
        for garbage in hostile:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(garbage)
                sock.settimeout(30)
                while sock.recv(4096):  # until the server hangs up
                    pass
    finally:
        assert stopped(process) == 0
    text = log.read_bytes()
    assert b"\x1b" not in text and b"\x07" not in text and b"\xff" not in text
    assert not re.search(rb"[\x80-\xff]", text)  # the log is ASCII
    assert rb"'\x1b]0;pwned\x07\x1b[2J\xff\xfe" in text
    assert rb"'CHAT:\x1b[31m\xc3\xa9\xff" in text
    assert b"A" * 40 not in text and b"B" * 40 not in text  # a short prefix
    assert len(re.findall(rb"'\.\.\. \(\d+ bytes\)", text)) == 2  # and how many there were
