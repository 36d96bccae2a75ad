"""The lobby over TLS (``serve --tls-cert --tls-key``): real sockets, a test CA (trustme)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import CreateOutcome, JoinOutcome, LoginOutcome, RegisterOutcome
from c4tui.engine import Rules
from c4tui.net.errors import NetworkError
from c4tui.net.tls import ClientTls
from c4tui.protocols import lobby as wire
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.lobby_client import lobby_server
from tests.net.test_lobby_console import ConsoleProcess, console_user

TIMEOUT = 30


@dataclass(frozen=True)
class Certificates:
    """A test CA's certificate, and a server certificate (with its key) it signed."""

    ca: Path
    server: Path  # certificate chain and private key, in one PEM file


def certificates(folder: Path, *hosts: str) -> Certificates:
    ca = trustme.CA()
    issued = ca.issue_cert(*hosts)
    paths = Certificates(folder / "ca.pem", folder / "server.pem")
    ca.cert_pem.write_to_path(str(paths.ca))
    issued.private_key_and_cert_chain_pem.write_to_path(str(paths.server))
    return paths


@pytest.fixture
def certs(tmp_path: Path) -> Certificates:
    return certificates(tmp_path, "127.0.0.1", "localhost")


@pytest.fixture
async def server(tmp_path: Path, certs: Certificates) -> AsyncIterator[C4Server]:
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as running:
        assert running.tls_port is not None
        yield running


async def tls_link(server: C4Server, ca: Path | None, user: str) -> LobbyLink:
    assert server.tls_port is not None
    link = await LobbyLink.open("127.0.0.1", server.tls_port, tls=ClientTls(ca))
    assert await link.register(user, "pw:with:colons") is RegisterOutcome.CREATED
    assert await link.login(user, "pw:with:colons") is LoginOutcome.LOGGED_IN
    return link


async def test_two_players_log_in_and_play_a_game_over_tls(
    server: C4Server, certs: Certificates
) -> None:
    ann = await tls_link(server, certs.ca, "ann")
    bob = await tls_link(server, certs.ca, "bob")
    assert await ann.create("r1", (7, 6, Rules.CLASSIC)) is CreateOutcome.CREATED
    assert await bob.join("r1", wire.Mode.PLAYER) is JoinOutcome.JOINED
    for link in (ann, bob):
        assert isinstance(await asyncio.wait_for(link.pushed(), TIMEOUT), wire.Begin)
    for mover, column in [(ann, 1), (bob, 2), (ann, 1), (bob, 2), (ann, 1), (bob, 2), (ann, 1)]:
        await mover.send(f"DROP:{column}")
        for link in (ann, bob):
            await asyncio.wait_for(link.pushed(), TIMEOUT)
    # ann's fourth disc in column 1 won: the last push was GAMEEND, ann the winner.
    history = await ann.history()
    assert history
    kept = await ann.kept_game(history[0])
    assert kept is not None and kept.winner == "ann"
    await ann.close()
    await bob.close()


async def test_a_certificate_nobody_trusted_signed_is_refused_in_words(
    server: C4Server, tmp_path: Path
) -> None:
    (tmp_path / "other").mkdir()
    stranger = certificates(tmp_path / "other", "127.0.0.1")
    assert server.tls_port is not None
    with pytest.raises(NetworkError, match=r"not signed by anyone you trust.*--tls-ca FILE"):
        await LobbyLink.open("127.0.0.1", server.tls_port, tls=ClientTls(stranger.ca))
    with pytest.raises(NetworkError, match="not signed by anyone you trust"):
        await LobbyLink.open("127.0.0.1", server.tls_port, tls=ClientTls())  # the system's


async def test_a_certificate_for_another_host_is_refused_in_words(tmp_path: Path) -> None:
    certs = certificates(tmp_path, "c4.example.org")
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as server:
        assert server.tls_port is not None
        with pytest.raises(
            NetworkError, match=r"the server's certificate is not valid for 127\.0\.0\.1: "
        ):
            await LobbyLink.open("127.0.0.1", server.tls_port, tls=ClientTls(certs.ca))


async def test_plain_text_on_the_tls_port_is_told_to_use_tls_and_others_go_on(
    server: C4Server, certs: Certificates
) -> None:
    assert server.tls_port is not None
    plain = await LobbyLink.open("127.0.0.1", server.tls_port)
    with pytest.raises(NetworkError, match="speaks TLS only: connect with TLS"):
        await plain.login("ann", "pw")
    await plain.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port)
    writer.write(b"LOGIN:ann:pw\n")
    assert await asyncio.wait_for(reader.read(), TIMEOUT) == b"BYE:tls\n"
    writer.close()
    ann = await tls_link(server, certs.ca, "ann")  # the server goes on serving
    assert await ann.room_names(wire.Mode.VIEWER) == []
    await ann.close()


async def test_a_tls_client_on_the_plain_port_is_told_it_is_not_tls(
    server: C4Server, certs: Certificates
) -> None:
    with pytest.raises(NetworkError, match=r"does not speak TLS: is that the server's plain port"):
        await LobbyLink.open("127.0.0.1", server.port, tls=ClientTls(certs.ca))


async def test_a_client_that_never_completes_its_handshake_loses_its_slot(
    tmp_path: Path, certs: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("c4tui.server.core.HANDSHAKE_SECONDS", 0.5)
    async with lobby_server(
        tmp_path, tls_cert=certs.server, tls_key=certs.server, max_per_address=1
    ) as server:
        assert server.tls_port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port)
        writer.write(b"\x16\x03\x01")  # a handshake begun, never finished
        assert await asyncio.wait_for(reader.read(), TIMEOUT) == b""  # cut off
        writer.close()
        ann = await tls_link(server, certs.ca, "ann")  # the address's one slot is free again
        await ann.close()


def test_serve_refuses_a_bad_certificate_in_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "cert.pem"
    garbage.write_text("not a certificate\n")
    for options in (
        ["--tls-cert", str(garbage), "--tls-key", str(garbage)],
        ["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", str(garbage)],
        ["--tls-cert", str(garbage)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "c4tui", "serve", "--port", "0", *options],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("c4tui serve: error: ")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


async def test_the_console_logs_in_and_plays_over_tls(
    server: C4Server, certs: Certificates
) -> None:
    assert server.tls_port is not None
    ann = await tls_link(server, certs.ca, "ann")
    assert await ann.create("r1", (4, 4, Rules.CLASSIC)) is CreateOutcome.CREATED
    bob = await console_user(server.tls_port, "bob", "--tls", "--tls-ca", str(certs.ca))
    await bob.type("join r1")
    await bob.until("Game on: ann (RED) against bob (YELLOW)")
    await ann.send("DROP:1")
    await bob.until("Your move")
    await bob.type("forfeit")
    await bob.type("y")  # Forfeit the game? [y/N]
    await bob.until("Back in the lobby")
    await bob.type("quit")
    assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
    await ann.close()


async def test_the_console_says_why_the_certificate_was_refused(
    server: C4Server, tmp_path: Path
) -> None:
    assert server.tls_port is not None
    (tmp_path / "other").mkdir()
    stranger = certificates(tmp_path / "other", "127.0.0.1")
    console = await ConsoleProcess.start(
        "--lobby", f"127.0.0.1:{server.tls_port}", "--user", "bob", "--tls-ca", str(stranger.ca)
    )
    await console.type("pw")
    line = await console.until("Network problem")
    assert "not signed by anyone you trust" in line and "--tls-ca FILE" in line
    assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == 1
    assert not any("Traceback" in seen for seen in console.seen)


def test_serve_says_in_one_line_that_the_tls_port_is_taken(
    tmp_path: Path, certs: Certificates
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--db",
             str(tmp_path / "db.sqlite3"), "--tls-cert", str(certs.server), "--tls-key",
             str(certs.server), "--tls-port", str(port)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert f"cannot listen on 127.0.0.1:{port} for TLS" in done.stderr
    assert "Traceback" not in done.stderr and "stopped" in done.stderr


def test_the_tls_port_serves_on_the_servers_own_event_loop(
    tmp_path: Path, certs: Certificates
) -> None:
    """``serve``'s loop (uvloop's where installed) accepts and handshakes TLS clients too."""
    config = ServerConfig(
        port=0, db=tmp_path / "db.sqlite3", tls_cert=certs.server, tls_key=certs.server
    )
    with server_in_a_thread(config) as server:

        async def log_in() -> None:
            assert server.tls_port is not None
            link = await LobbyLink.open("127.0.0.1", server.tls_port, tls=ClientTls(certs.ca))
            assert await link.login("nobody", "pw") is LoginOutcome.NO_SUCH_USER
            await link.close()

        asyncio.run(log_in())
