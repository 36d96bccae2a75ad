"""Review of §7 (issue 39): the metrics port against a slow-loris.

``MetricsDoor`` serves at most ``MAX_SCRAPERS`` connections at once and gives each
``REQUEST_SECONDS`` to say its request: one address that opens that many and says
nothing, again every few seconds, keeps every scrape out for as long as it likes.
What Prometheus needs is to be answered whatever one other address does: a scrape
from another address than the one holding the door is served.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from c4tui.server import metrics_door
from tests.net.lobby_client import lobby_server

#: Where the slow-loris comes from, and where Prometheus scrapes from.
LORIS, PROMETHEUS = "127.0.0.1", "127.0.0.2"


async def test_one_address_holding_the_metrics_door_open_does_not_keep_prometheus_out(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        held = [
            await asyncio.open_connection("127.0.0.1", port, local_addr=(LORIS, 0))
            for _ in range(metrics_door.MAX_SCRAPERS)
        ]  # silent: each waits out REQUEST_SECONDS
        await asyncio.sleep(0.2)
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(PROMETHEUS, 0)
        )
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 10)
        assert answer.startswith(b"HTTP/1.1 200 OK"), answer[:60]
        for _, silent in held:
            silent.transport.abort()
        writer.transport.abort()


async def test_a_stop_with_a_scraper_still_connected_logs_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    async with lobby_server(tmp_path, metrics_port=0) as server:
        port = server.metrics_door.port
        assert port is not None
        _, silent = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.sleep(0.2)  # its request is awaited when the server stops
    await asyncio.sleep(0.1)
    silent.transport.abort()
    assert [
        record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
    ] == []
