"""No client, however it behaves, can delay or lock out the others (real sockets, 127.0.0.x)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import statistics
import time
from collections.abc import AsyncIterator

import pytest

from c4tui.engine import Rules
from c4tui.net.address import address_group
from c4tui.net.framing import MessageStream
from c4tui.net.wire import Framing
from c4tui.protocols import i32cfsp
from c4tui.protocols.registry import ProtocolSpec, starts_with
from c4tui.server.context import Client
from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.protocols import ServerProtocol
from tests.net.raw_client import RawClient, play_whole_game


@contextlib.asynccontextmanager
async def running(config: ServerConfig, **kwargs: object) -> AsyncIterator[C4Server]:
    server = C4Server(config, **kwargs)  # type: ignore[arg-type]
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def wait_until(condition, timeout: float) -> float:  # type: ignore[no-untyped-def]
    """Seconds until ``condition()`` held; fails after ``timeout``."""
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout, "timed out"
        await asyncio.sleep(0.01)
    return time.monotonic() - began


async def handshake(port: int, name: str = "probe", local: str | None = None) -> float:
    """Seconds from connecting to READY for a fresh I32CFSP client."""
    began = time.perf_counter()
    local_addr = (local, 0) if local else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local_addr)
    client = RawClient(reader, writer)
    await client.send(f"I32CFSP_HELLO {name}")
    assert await client.line() == f"WELCOME {name}"
    await client.send("AI_GAME")
    assert await client.line() == "READY"
    elapsed = time.perf_counter() - began
    await client.close()
    return elapsed


async def greeted(port: int, game: str = "AI_GAME") -> RawClient:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO someone")
    assert await client.line() == "WELCOME someone"
    await client.send(game)
    assert await client.line() == "READY"
    return client


@pytest.mark.slow
async def test_a_client_that_stops_reading_is_cut_off_and_its_slot_freed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="c4tui.server")
    config = ServerConfig(port=0, max_connections=1, write_timeout=1.0, idle_timeout=30)
    async with running(config) as server:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        reader, writer = await asyncio.open_connection(sock=sock)
        hoarder = RawClient(reader, writer)
        await hoarder.send("I32CFSP_HELLO hoarder")
        # Invalid moves, each answered INVALID and READY, and never a byte read back.
        writer.write(b"AI_GAME\r\n" + b"DROP 99\r\n" * 300_000)
        await wait_until(lambda: server.connections == 1, timeout=5)
        # Once the kernel's buffers are full (megabytes of replies), the next write
        # waits past its time limit and the connection is cut (it was kept forever).
        await wait_until(lambda: server.connections == 0, timeout=90)
        assert any(
            "cut off: the peer read nothing for 1 s" in r.getMessage() for r in caplog.records
        )
        writer.transport.abort()
        # The slot is free again: a polite client plays a whole game.
        assert await play_whole_game(server.port, columns=4, rows=4, rules=Rules.CLASSIC)


async def test_a_client_that_hangs_up_while_the_ai_thinks_cancels_its_search() -> None:
    config = ServerConfig(port=0, ai="hard", ai_workers=1)
    async with running(config) as server:
        clients = [await greeted(server.port, "AI_GAME 20 20") for _ in range(3)]
        for client in clients:
            await client.send("DROP 10")
            assert await client.line() == "OKAY"
        await wait_until(lambda: server.pool.pending == 3, timeout=5)
        for client in clients:
            client.writer.transport.abort()
        # Uncancelled, the three searches would take about 1 s (0.6 s, then shares of it).
        assert await wait_until(lambda: server.pool.pending == 0, timeout=5) < 0.9
        assert server.pool.cancelled == 3
        # And the next client is answered at once.
        assert await handshake(server.port) < 2


@pytest.mark.slow
async def test_twenty_hard_ai_games_do_not_delay_another_clients_handshake() -> None:
    config = ServerConfig(port=0, ai="hard")
    async with running(config) as server:
        stop = asyncio.Event()

        async def keep_playing(number: int) -> None:
            while not stop.is_set():
                await play_whole_game(server.port, spread=True)

        players = [asyncio.create_task(keep_playing(n)) for n in range(20)]
        await wait_until(lambda: server.pool.pending >= 2, timeout=10)
        idle = [await handshake(server.port) for _ in range(3)]
        busy = []
        for _ in range(20):
            busy.append(await handshake(server.port))
            await asyncio.sleep(0.05)
        stop.set()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    # Generous bounds (the machine may be loaded): a search in the event loop's own
    # interpreter made handshakes take seconds here.
    assert max(busy) < 1.0, busy
    assert statistics.median(busy) < 0.25, (busy, idle)


async def test_one_address_cannot_lock_out_another() -> None:
    config = ServerConfig(port=0, max_connections=20, max_per_address=5, idle_timeout=60)
    async with running(config) as server:
        hogs = []
        for _ in range(30):  # one byte each, then silence: the old lock-out
            hog = await RawClient.connect(server.port)
            await hog.send(b"I")
            hogs.append(hog)
        await wait_until(lambda: server.connections >= 25, timeout=5)
        # Another address is served at once, and plays a whole game.
        assert await handshake(server.port, local="127.0.0.2") < 2
        # The hogs over their limit were refused, not kept.
        refused = 0
        for hog in hogs[5:]:
            assert await hog.line() == "ERROR"
            refused += await hog.closed()
        assert refused == 25
        for hog in hogs:
            await hog.close()


async def test_a_full_server_refuses_in_the_clients_own_protocol_at_once() -> None:
    config = ServerConfig(port=0, max_connections=1)
    async with running(config) as server:
        holder = await greeted(server.port)
        extra = await RawClient.connect(server.port)
        began = time.monotonic()
        await extra.send("I32CFSP_HELLO late")
        assert await extra.line() == "ERROR"
        assert await extra.closed()
        assert time.monotonic() - began < 1.5  # it did not wait for more bytes
        await holder.close()


# ----- a protocol without line ends plugs into the same core -------------------------

PING_SPEC = ProtocolSpec(
    name="PING",
    framing=Framing.UNTERMINATED,
    recognise=starts_with(b"PING"),
    refusal_when_full="BUSY",
    on_violation="BAD",
)


async def serve_ping(stream: MessageStream, client: Client) -> str:
    """Answer each message with PONG and its length, until the client hangs up."""
    while True:
        message = await stream.read(client.idle_timeout)
        await stream.send(f"PONG {len(message)}")


async def test_a_protocol_without_line_ends_is_recognised_and_framed_by_its_spec() -> None:
    ping = ServerProtocol(PING_SPEC, serve_ping)
    config = ServerConfig(port=0, max_connections=1, idle_timeout=30)
    async with running(config, extra_protocols=(ping,)) as server:
        client = await RawClient.connect(server.port)
        await client.send(b"PING")  # no line end: recognised from the first bytes alone
        assert await asyncio.wait_for(client.reader.read(100), 5) == b"PONG 4"
        late = await RawClient.connect(server.port)
        await late.send(b"PING")
        assert await asyncio.wait_for(late.reader.read(100), 5) == b"BUSY"
        assert await late.closed()
        await client.send(b"\xff")
        assert await asyncio.wait_for(client.reader.read(100), 5) == b"BAD"
        # I32CFSP is still served beside it once the slot is free.
        await client.close()
        await wait_until(lambda: server.connections == 0, timeout=5)
        assert await handshake(server.port) < 2


async def test_out_of_range_columns_are_invalid_moves_not_errors() -> None:
    async with running(ServerConfig(port=0)) as server:
        client = await greeted(server.port)
        for line in ("DROP 1000", "DROP -1", "POP 99999", "DROP 0"):
            await client.send(line)
            assert [await client.line(), await client.line()] == ["INVALID", "READY"], line
        await client.send(i32cfsp.format_move(i32cfsp.parse_move("DROP 4")))  # type: ignore[arg-type]
        assert await client.line() == "OKAY"
        await client.close()


def test_addresses_are_limited_per_machine_and_per_ipv6_network() -> None:
    assert address_group("127.0.0.1") == "127.0.0.1"
    assert address_group("::ffff:10.1.2.3") == "10.1.2.3"  # IPv4 seen through IPv6
    same = {address_group("2001:db8:1:2::1"), address_group("2001:db8:1:2:ffff::9%eth0")}
    assert same == {"2001:db8:1:2::/64"}  # one /64 is one machine's worth of addresses
    assert address_group("2001:db8:1:3::1") != address_group("2001:db8:1:2::1")
