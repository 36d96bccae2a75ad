"""Nothing lost (spec/protocols.md §5.1) over real sockets: away and back, a second login,
silence that is not idleness, and BYE before every close the server means."""

from __future__ import annotations

import asyncio
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from c4tui.net.keepalive import enable_keepalive
from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_server import playing
from tests.net.test_serve_command import start
from tests.net.tictactoe_client import TicTacToeClient, tictactoe_server

EMPTY = "0" * 42


async def log_in_again(port: int, user: str) -> LobbyClient:
    """``user``, registered already, on a new connection."""
    client = await LobbyClient.connect(port)
    assert await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"
    return client


async def test_a_dropped_player_comes_back_and_the_game_goes_on(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await playing(server.port)
        vic = await logged_in(server.port, "vic")
        assert await vic.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        await vic.line(), await vic.line()  # INPROGRESS, BOARDSTATUS
        await ann.send("DROP:4")
        after_one = f"BOARDSTATUS:{'0' * 38}1000"
        for client in (ann, bob, vic):
            assert await client.line() == after_one
        await bob.close()
        assert await ann.line() == "AWAY:bob:60"
        assert await vic.line() == "AWAY:bob:60"
        bob = await log_in_again(server.port, "bob")
        assert await bob.line() == "REJOIN:r1"
        assert await bob.line() == "INPROGRESS:bob:ann:7:6:popout"
        assert await bob.line() == after_one
        assert await ann.line() == "BACK:bob" and await vic.line() == "BACK:bob"
        await bob.send("DROP:4")
        for client in (ann, bob, vic):
            assert await client.line() == f"BOARDSTATUS:{'0' * 31}2{'0' * 6}1000"


async def test_the_other_player_moves_while_its_opponent_is_away(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=1.0) as server:
        ann, bob = await playing(server.port)
        await ann.close()
        assert await bob.line() == "AWAY:ann:1"
        assert await bob.ask("DROP:1") == "INVALID:not your turn"
        assert await bob.line() == f"GAMEEND:{EMPTY}:2:bob"  # the grace ran out
        assert await bob.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"
        ann = await log_in_again(server.port, "ann")
        assert await ann.quiet(0.2)  # no game to come back to
        assert await ann.ask("CREATE:r2") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r2:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        await ann.send("DROP:1")
        await ann.line(), await bob.line()
        await ann.close()
        assert await bob.line() == "AWAY:ann:1"
        await bob.send("DROP:2")  # its move while ann is away: played, and then it waits
        assert await bob.line() == f"BOARDSTATUS:{'0' * 35}1200000"
        assert await bob.line() == f"GAMEEND:{'0' * 35}1200000:2:bob"


async def test_a_player_back_while_the_other_is_away_is_told_so(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=30) as server:
        ann, bob = await playing(server.port)
        await ann.close()
        assert await bob.line() == "AWAY:ann:30"
        await bob.close()
        await asyncio.sleep(0.2)  # the server notices bob is gone too
        bob = await log_in_again(server.port, "bob")
        assert await bob.line() == "REJOIN:r1"
        assert await bob.line() == "INPROGRESS:ann:bob:7:6:popout"
        assert await bob.line() == f"BOARDSTATUS:{EMPTY}"
        away, user, seconds = (await bob.line()).split(":")
        assert (away, user) == ("AWAY", "ann") and 28 <= int(seconds) <= 30
        vic = await logged_in(server.port, "vic")  # a viewer who comes in hears it too
        assert await vic.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        assert await vic.line() == "INPROGRESS:ann:bob:7:6:popout"
        assert await vic.line() == f"BOARDSTATUS:{EMPTY}"
        assert (await vic.line()).startswith("AWAY:ann:")
        ann = await log_in_again(server.port, "ann")
        assert await ann.line() == "REJOIN:r1"
        await ann.line(), await ann.line()  # INPROGRESS, BOARDSTATUS (nobody away now)
        assert await bob.line() == "BACK:ann" and await vic.line() == "BACK:ann"
        assert await ann.quiet(0.2)


async def test_without_grace_a_dropped_player_forfeits_at_once(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=0) as server:
        ann, bob = await playing(server.port)
        await bob.close()
        assert await ann.line() == f"GAMEEND:{EMPTY}:2:ann"


async def test_silence_cuts_off_only_those_in_no_room(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, idle_timeout=1.0) as server:
        ann, bob = await playing(server.port)  # bob is to move after ann's drop, and thinks
        cid = await logged_in(server.port, "cid")
        assert await cid.ask("CREATE:waiting") == "CREATE:ACKSTATUS:0"
        dee = await logged_in(server.port, "dee")
        stranger = await LobbyClient.connect(server.port)
        await stranger.send("REGISTER:eve:pw")  # a connection that never logs in
        assert await stranger.line() == "REGISTER:ACKSTATUS:0"
        await ann.send("DROP:1")
        await ann.line(), await bob.line()
        await asyncio.sleep(2.0)
        assert await dee.line() == "BYE:idle" and await dee.closed()
        assert await stranger.line() == "BYE:idle" and await stranger.closed()
        assert (
            await cid.ask("ROOMINFO:waiting")
            == "ROOMINFO:ACKSTATUS:0:7:6:popout:cid::0:waiting:casual:-"
        )
        await bob.send("DROP:2")
        assert await ann.line() == await bob.line() == f"BOARDSTATUS:{'0' * 35}1200000"


async def test_lobby_and_tictactoe_logins_of_one_user_coexist(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        assert server.tictactoe_port is not None
        tic = await TicTacToeClient.connect(server.tictactoe_port)
        await tic.ask("LOGIN:ann:pw", "LOGIN:ACKSTATUS:0")
        assert await ann.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"
        await tic.ask("ROOMLIST:PLAYER", "ROOMLIST:ACKSTATUS:0:")
        again = await log_in_again(server.port, "ann")  # a second lobby login closes the first
        assert await ann.line() == "BYE:elsewhere" and await ann.closed()
        await tic.ask("ROOMLIST:PLAYER", "ROOMLIST:ACKSTATUS:0:")  # and not the other port's
        assert await again.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"


async def test_a_stopping_server_says_bye_to_every_lobby_connection(tmp_path: Path) -> None:
    server = C4Server(ServerConfig(port=0, db=tmp_path / "a.sqlite3", bcrypt_rounds=TEST_ROUNDS))
    await server.start()
    ann, bob = await playing(server.port)
    stranger = await LobbyClient.connect(server.port)
    await stranger.send("REGISTER:eve:pw")
    assert await stranger.line() == "REGISTER:ACKSTATUS:0"
    await server.stop()
    for client in (ann, bob, stranger):
        assert await client.line() == "BYE:shutdown" and await client.closed()


async def test_a_client_over_the_limits_is_told_bye_full(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, max_per_address=1) as server:
        ann = await logged_in(server.port, "ann")
        refused = await LobbyClient.connect(server.port)
        await refused.send("LOGIN:bob:pw")
        assert await refused.line() == "BYE:full" and await refused.closed()
        assert await ann.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"


def test_keepalive_is_on_with_probes_within_a_minute() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        enable_keepalive(sock)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            idle = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)
            interval = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL)
            probes = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT)
            assert idle + interval * probes <= 70


async def test_serve_with_a_grace_and_a_sigterm_says_so(tmp_path: Path) -> None:
    options = ("--reconnect-grace", "1", "--bcrypt-rounds", "4", "--db", str(tmp_path / "a.db"))
    process, port = start(tmp_path / "serve.log", *options)
    try:
        ann, bob = await playing(port)
        await bob.close()
        assert await ann.line() == "AWAY:bob:1"
        assert await ann.line() == f"GAMEEND:{EMPTY}:2:ann"
        process.send_signal(signal.SIGTERM)
        assert await ann.line() == "BYE:shutdown" and await ann.closed()
        assert await asyncio.to_thread(process.wait, 20) == 0
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.skipif(shutil.which("ss") is None, reason="needs ss (iproute2) to see the socket")
async def test_the_server_probes_its_accepted_connections(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        client = await LobbyClient.connect(server.port)
        assert await client.ask("REGISTER:ann:pw") == "REGISTER:ACKSTATUS:0"
        command = ["ss", "-tno", "state", "established", f"( sport = :{server.port} )"]
        listing = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True)
        assert "timer:(keepalive," in listing.stdout, listing.stdout
