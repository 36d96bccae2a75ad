"""A connection's read time limits: one timer for many reads, answers as under asyncio.timeout."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from c4tui.net.connection import Connection
from c4tui.server.tuning import new_event_loop


@asynccontextmanager
async def connected() -> AsyncIterator[tuple[Connection, socket.socket]]:
    """A Connection on one end of a socket pair, and the other end to write to."""
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=ours)
    connection = Connection(reader, writer)
    try:
        yield connection, theirs
    finally:
        await connection.close()
        theirs.close()


async def test_a_silent_peer_times_out_and_a_later_line_still_arrives() -> None:
    async with connected() as (connection, peer):
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            await connection.read_line(0.1)
        assert 0.08 < time.monotonic() - began < 1.0
        peer.sendall(b"DROP 4\r\n")
        assert await connection.read_line(1.0) == "DROP 4"


async def test_many_quick_reads_share_one_timer() -> None:
    async with connected() as (connection, peer):
        timers = set()
        for move in range(20):
            asyncio.get_running_loop().call_later(0.001, peer.sendall, f"DROP {move}\n".encode())
            assert await connection.read_line(60) == f"DROP {move}"
            timers.add(id(connection._deadline._timer))
        assert len(timers) == 1


async def test_a_shorter_limit_after_a_long_one_is_kept() -> None:
    async with connected() as (connection, peer):
        peer.sendall(b"READY\n")
        assert await connection.read_chunk(timeout=60) == "READY\n"
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            await connection.read_line(0.1)
        assert time.monotonic() - began < 1.0


async def test_an_earlier_deadline_passing_does_not_cut_off_a_later_read() -> None:
    async with connected() as (connection, peer):
        peer.sendall(b"OKAY\n")
        assert await connection.read_line(0.1) == "OKAY"  # its timer stays set for 0.1 s
        asyncio.get_running_loop().call_later(0.3, peer.sendall, b"READY\n")
        assert await connection.read_line(0.6) == "READY"  # past 0.1 s, within its own 0.6 s
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            await connection.read_line(0.2)
        assert 0.15 < time.monotonic() - began < 1.0


async def test_a_cancelled_read_is_cancelled_not_timed_out() -> None:
    async with connected() as (connection, _peer):
        reading = asyncio.create_task(connection.read_line(0.2))
        await asyncio.sleep(0.05)
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        assert reading.cancelled()


async def test_a_timeout_inside_an_outer_timeout_belongs_to_the_inner_one() -> None:
    async with connected() as (connection, _peer):
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(5):
                await connection.read_line(0.1)
        task = asyncio.current_task()
        assert task is not None and task.cancelling() == 0


async def test_closing_stops_the_timer() -> None:
    async with connected() as (connection, peer):
        peer.sendall(b"x\n")
        await connection.read_line(600)
        assert connection._deadline._timer is not None
        await connection.close()
        assert connection._deadline._timer is None


def test_a_limit_already_past_times_out_on_the_servers_loop() -> None:
    """uvloop's ``call_at`` for a time already past gives a plain Handle, without ``when``.

    The lobby reads with a limit of 0 s once a client has been quiet for the whole idle
    time; the timer then failed in a callback and the read waited for ever (the chaos
    run found it: idle clients were never hung up on).
    """
    loop = new_event_loop()
    errors: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))

    async def read_twice_with_no_time_left() -> list[BaseException | None]:
        async with connected() as (connection, _peer):
            outcomes = []
            for _ in range(2):
                read = asyncio.ensure_future(connection.read_line(0))
                await asyncio.wait({read}, timeout=5)
                outcomes.append(read.exception() if read.done() else None)
                read.cancel()
            return outcomes

    try:
        outcomes = loop.run_until_complete(read_twice_with_no_time_left())
    finally:
        loop.close()
    assert [type(outcome) for outcome in outcomes] == [TimeoutError, TimeoutError]
    assert not errors
