"""c4tui web over real HTTP and websockets: c4tui's page, the visitor cap, idle sessions end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from tests.web.helpers import web_server

pytest.importorskip("textual_serve", reason="c4tui web needs the web extra")


async def test_the_page_is_c4tuis_own(tmp_path: Path) -> None:
    with web_server(tmp_path) as server:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/") as page:
                assert page.status == 200
                html = await page.text()
            async with http.get(server.url + "/favicon.svg") as icon:
                assert icon.status == 200
                assert icon.content_type == "image/svg+xml"
    assert "<title>c4tui: Connect Four</title>" in html
    assert 'rel="icon" href="/favicon.svg"' in html
    assert "fonts.googleapis" not in html  # nothing is fetched from elsewhere


async def test_visitors_past_the_cap_get_a_full_page_and_a_seat_frees_up(tmp_path: Path) -> None:
    with web_server(tmp_path, "--max-sessions", "1") as server:
        ws_url = server.url.replace("http", "ws") + "/ws?width=80&height=24"
        async with aiohttp.ClientSession() as http:
            first = await http.ws_connect(ws_url)
            await first.receive(timeout=30)  # the app has started: a seat is taken
            async with http.get(server.url + "/") as page:
                assert page.status == 503
                assert "c4tui is full" in await page.text()
            second = await http.ws_connect(ws_url)
            closing = await second.receive(timeout=10)
            assert closing.type is aiohttp.WSMsgType.CLOSE  # no app for a second visitor
            await first.close()
            for _ in range(100):
                async with http.get(server.url + "/") as page:
                    if page.status == 200:
                        break
                await asyncio.sleep(0.1)
            assert page.status == 200
        log = server.output()
    assert "session 1 from 127.0.0.1" in log


@pytest.mark.parametrize("columns", [200, 40])
async def test_an_idle_session_ends_and_is_logged_in_one_line(tmp_path: Path, columns: int) -> None:
    with web_server(tmp_path, "--idle-minutes", "0.03", columns=columns) as server:  # ~2 s
        ws_url = server.url.replace("http", "ws") + "/ws?width=80&height=24"
        async with aiohttp.ClientSession() as http:
            visitor = await http.ws_connect(ws_url)
            began = time.monotonic()
            while True:
                message = await visitor.receive(timeout=60)
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
            assert time.monotonic() - began < 60
        log = server.output()
    [line] = [line for line in log.splitlines() if "session 1 from" in line]
    assert line.startswith("INFO") and line.endswith("ended: idle")


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(child) for child in text.split()]


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
async def test_a_visitors_app_ends_when_the_server_is_killed(tmp_path: Path) -> None:
    with web_server(tmp_path) as server:
        ws_url = server.url.replace("http", "ws") + "/ws?width=80&height=24"
        async with aiohttp.ClientSession() as http:
            visitor = await http.ws_connect(ws_url)
            await visitor.receive(timeout=30)  # the visitor's app has started
            apps = children_of(server.process.pid)
            assert len(apps) == 1  # the app itself (exec), not a shell around it
            server.process.kill()  # no goodbyes: the server cannot tell its visitors
            server.process.wait(timeout=20)
            deadline = time.monotonic() + 20
            while running(apps[0]) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert not running(apps[0])
