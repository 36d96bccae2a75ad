"""Timed games over real sockets (spec/protocols.md §5.4): CLOCK, losing on time, a restart.

The server's steady clock is injected (``C4Server(now=...)``) where a test needs
minutes to pass in a moment; the check for fallen flags runs as in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in

_CLOCK = re.compile(r"CLOCK:([0-9]+):([0-9]+)")


class MovableTime:
    """The monotonic clock, plus however many seconds a test has skipped."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


@contextlib.asynccontextmanager
async def timed_server(database: Path, now: MovableTime) -> AsyncIterator[C4Server]:
    """A server on ``database`` whose timed games run on ``now``."""
    config = ServerConfig(port=0, db=database, bcrypt_rounds=TEST_ROUNDS, reconnect_grace=60)
    server = C4Server(config, now=now)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def _times(line: str) -> tuple[int, int]:
    found = _CLOCK.fullmatch(line)
    assert found is not None, line
    return int(found[1]), int(found[2])


async def _timed_game(port: int, clock: str) -> tuple[LobbyClient, LobbyClient]:
    """ann (red) and bob playing a casual game with ``clock``; BEGIN read, CLOCK not yet."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    assert await ann.ask(f"CREATE:r1:7:6:classic:casual:{clock}") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    for player in (ann, bob):
        assert await player.line() == "BEGIN:ann:bob:7:6:classic"
    return ann, bob


async def test_clock_after_begin_and_after_every_move_with_the_increment_added(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await _timed_game(server.port, "3+2")
        assert [await ann.line(), await bob.line()] == ["CLOCK:180000:180000"] * 2
        assert await ann.ask("ROOMINFO:r1") == (
            "ROOMINFO:ACKSTATUS:0:7:6:classic:ann:bob:0:playing:casual:3+2"
        )
        await ann.send("DROP:4")
        for player in (ann, bob):
            assert (await player.line()).startswith("BOARDSTATUS:")
        red, yellow = _times(await ann.line())
        assert await bob.line() == f"CLOCK:{red}:{yellow}"
        assert 180_000 < red <= 182_000 and yellow == 180_000  # a little used, 2 s added
        await asyncio.sleep(0.3)
        await bob.send("DROP:4")
        for player in (ann, bob):
            assert (await player.line()).startswith("BOARDSTATUS:")
        red_after, yellow_after = _times(await bob.line())
        assert red_after == red and 181_000 < yellow_after <= 181_750


async def test_a_silent_player_loses_on_time_without_sending_anything(tmp_path: Path) -> None:
    now = MovableTime()
    async with timed_server(tmp_path / "lobby.sqlite3", now) as server:
        ann, bob = await _timed_game(server.port, "1+0")
        await ann.line(), await bob.line()  # CLOCK:60000:60000
        await ann.send("DROP:1")
        for player in (ann, bob):
            await player.line(), await player.line()  # BOARDSTATUS, CLOCK
        now.skipped += 59.5
        assert await bob.quiet(0.3)  # half a second left
        now.skipped += 0.5
        started = time.monotonic()
        end = await bob.line()
        assert time.monotonic() - started < 3.0  # checked every 50 ms (a loaded machine: slack)
        assert re.fullmatch(r"GAMEEND:[0-9]{42}:3:ann", end)
        assert await ann.line() == end
        history = await ann.ask("HISTORY")
        number = history.rsplit(":", 1)[1]
        record = await ann.ask(f"GAME:{number}")
        assert ":ann:time:d1:0:" in record
        assert record.endswith(":1+0"), record  # the clock it was played on, last


async def test_a_restarted_server_gives_back_the_clocks_as_they_stood(tmp_path: Path) -> None:
    now = MovableTime()
    database = tmp_path / "lobby.sqlite3"
    async with timed_server(database, now) as server:
        ann, bob = await _timed_game(server.port, "5+3")
        await ann.line(), await bob.line()
        now.skipped += 20  # ann thinks 20 s
        await ann.send("DROP:1")
        for player in (ann, bob):
            await player.line()
        left = _times(await ann.line())
        await bob.line()
        assert left[1] == 300_000 and 282_900 <= left[0] <= 283_000
        now.skipped += 100  # bob thinks 100 s, then the server stops
    now.skipped += 30  # the server is down: nobody's time runs
    async with timed_server(database, now) as server:
        back = await LobbyClient.connect(server.port)
        assert await back.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        assert [await back.line() for _ in range(2)] == [
            "REJOIN:r1",
            "INPROGRESS:bob:ann:7:6:classic",
        ]
        assert (await back.line()).startswith("BOARDSTATUS:")
        red, yellow = _times(await back.line())
        assert red == left[0] and 299_000 < yellow <= 300_000  # as at ann's move, bob's running
