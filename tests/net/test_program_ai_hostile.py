"""Hostile engines as ``c4tui serve --ai`` (issue 37): a flood ends only its client's game, an
assassin kills nothing outside its own game and a snoop reads none of the server's secrets.

A real ``c4tui serve`` process on a free port of 127.0.0.1 (the flood also against the
server on asyncio's own loop, where a program's pipes behave otherwise than on uvloop's),
real clients (I32CFSP and C4N) over sockets; the program is a student's command,
``python3 FILE``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from c4tui.engine import Rules
from c4tui.protocols import i32cfsp
from tests.net.lobby_client import lobby_server
from tests.net.raw_client import RawClient, play_whole_c4n_game, play_whole_game
from tests.net.test_program_ai import running, until_none_run
from tests.net.test_serve_command import start, stopped
from tests.outside.hostile_seats import hostile_command, hostile_engine, marked

#: Every program here runs in the real sandbox (a test skips without one, fails on CI).
pytestmark = pytest.mark.usefixtures("sandbox")

#: A server for the program AI, in a process of its own or here: its pid and port.
Serving = Callable[[Path, str], AbstractAsyncContextManager[tuple[int, int]]]
#: Seconds a whole test may take: a frozen server fails it instead of hanging the run.
TEST_SECONDS = 120


@contextlib.asynccontextmanager
async def serving(
    folder: Path, ai: str, env: dict[str, str] | None = None
) -> AsyncIterator[tuple[int, int]]:
    """``c4tui serve --ai AI`` (2 s a move, on uvloop's loop where it is installed): its pid
    and port; checked alive at the end, then stopped (status 0)."""
    server, port = start(folder / "serve.log", "--ai", ai, "--seconds", "2", env=env)
    try:
        yield server.pid, port
        assert server.poll() is None, "the server died: " + (folder / "serve.log").read_text()
    finally:
        status = await asyncio.to_thread(stopped, server)
    assert status == 0


@contextlib.asynccontextmanager
async def serving_here(folder: Path, ai: str) -> AsyncIterator[tuple[int, int]]:
    """The same server in this process, on asyncio's own loop (``c4tui serve``'s without
    uvloop, which is optional): this pid and its port."""
    async with lobby_server(folder, ai=ai, ai_seconds=2.0) as server:
        yield os.getpid(), server.port


async def programs_end(mark: str, server: int, seconds: float = 10) -> bool:
    """True once no process with ``mark`` runs but ``server`` (whose ``--ai`` names it)."""
    deadline = time.monotonic() + seconds
    while set(running(mark)) - {server} and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return not set(running(mark)) - {server}


async def flooded(port: int) -> None:
    """An I32CFSP game on the flood's board (6 × 5): its first move floods, the game ends."""
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO ann")
    assert await client.line() == "WELCOME ann"
    await client.send(i32cfsp.format_ai_game(6, 5, Rules.CLASSIC))
    assert await client.line() == "READY"
    await client.send("DROP 4")
    assert await client.line() == "OKAY"
    assert await client.line() == "ERROR"  # I32CFSP's only word for a game the server ends
    assert await client.closed()
    await client.close()


@pytest.mark.parametrize("where", [serving, serving_here], ids=["serve", "asyncio-loop"])
async def test_a_flood_ends_its_client_s_game_and_the_server_serves_on(
    tmp_path: Path, where: Serving
) -> None:
    program, mark = hostile_engine(tmp_path, "flood")
    ai = f"engine:{hostile_command(program, '--calm-on', '7x6')}"  # the start-up check passes
    async with asyncio.timeout(TEST_SECONDS), where(tmp_path, ai) as (server, port):
        # A C4N client (7 × 6: no flood) plays meanwhile, and a new client after it at once.
        _, meanwhile = await asyncio.gather(flooded(port), play_whole_c4n_game(port, pause=0.1))
        await meanwhile[1].close()
        assert await play_whole_game(port, rules=Rules.CLASSIC) == "WINNER_RED"
        assert await programs_end(mark, server), "a process of the flood outlived its game"
    assert await until_none_run(mark)


@pytest.mark.parametrize("attack", ["kill", "environ"])
async def test_an_assassin_or_a_snoop_harms_neither_the_server_nor_another_client_s_game(
    tmp_path: Path, attack: str
) -> None:
    """The assassin kills what it can see of the server and the other game's program; the
    snoop reads every environment it can see for the server's."""
    program, mark = hostile_engine(tmp_path, attack)
    ai = f"engine:{hostile_command(program)}"
    async with asyncio.timeout(TEST_SECONDS), serving(tmp_path, ai, marked(mark)) as (_, port):
        # Two games at once, each against its own process of the program: each attacks the
        # server and the other one's process at every move (a breach: it crashes).
        games = (
            play_whole_game(port, rules=Rules.CLASSIC, pause=0.1),
            play_whole_c4n_game(port, pause=0.1),
        )
        i32cfsp_end, (_, c4n_client) = await asyncio.gather(*games)
        await c4n_client.close()
        assert i32cfsp_end == "WINNER_RED"  # played out (a crash: ERROR)
    assert await until_none_run(mark), f"a process of the {attack} outlived its game"
