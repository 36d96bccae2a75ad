"""The metrics port's slots per address (§7): one address takes at most ``PER_ADDRESS``.

A slow-loris from one address gets its share and no more: the connection past it is
closed at once, and a silent one is let go after ``REQUEST_SECONDS``, freeing its slot.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from c4tui.server import metrics_door
from tests.net.lobby_client import lobby_server

#: The attacker's address (the test's scrapes come from others of 127.0.0.0/8).
LORIS = "127.0.0.3"
#: Seconds a test waits for the door to act; far above what it needs.
WAIT = 10


async def silent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from LORIS that says nothing."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(LORIS, 0))


async def cut_off(reader: asyncio.StreamReader) -> bool:
    """Whether the door closes the connection without a word (a reset, or the end)."""
    try:
        return await asyncio.wait_for(reader.read(), WAIT) == b""
    except ConnectionResetError:
        return True


async def test_one_address_past_its_share_is_closed_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metrics_door, "REQUEST_SECONDS", 6 * WAIT)  # no cut-off but the share's
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        held = [await silent(port) for _ in range(metrics_door.PER_ADDRESS)]
        await asyncio.sleep(0.2)
        reader, writer = await silent(port)
        assert await cut_off(reader)  # no answer, at once (not after REQUEST_SECONDS)
        writer.transport.abort()
        for held_reader, held_writer in held:
            assert not held_reader.at_eof()  # still waiting for their requests
            held_writer.transport.abort()


async def test_a_silent_connection_is_let_go_and_its_slot_freed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metrics_door, "REQUEST_SECONDS", 0.5)
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        first = [await silent(port) for _ in range(metrics_door.PER_ADDRESS)]
        for reader, _ in first:  # each cut off once its time is out
            assert await cut_off(reader)
        reader, writer = await silent(port)  # its slots are free again: served
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), WAIT)
        assert answer.startswith(b"HTTP/1.1 200 OK"), answer[:60]
