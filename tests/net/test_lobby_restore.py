"""A restarted server keeps every game (spec §5.1): after SIGTERM or kill -9, on the same
database, both players log in again and the game goes on where it was."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_lobby_server import play
from tests.net.test_serve_command import start

#: Red's four along the bottom row is its seventh move; six are played before the stop.
COLUMNS = [4, 4, 3, 5, 2, 6, 1]
#: The 7 x 6 board after the first six moves, row by row from the top.
SIX_PLAYED = "BOARDSTATUS:" + "0000000" * 4 + "0002000" + "0111220"


async def six_moves_announced(port: int, terms: str = "") -> None:
    """ann and bob register and play six moves of a game in r1 (``terms``: e.g. ``:rated``)."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    assert await ann.ask(f"CREATE:r1:7:6:classic{terms}") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    await ann.line(), await bob.line()
    for index, column in enumerate(COLUMNS[:-1]):
        mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
        await play(mover, [other], f"DROP:{column}", "BOARDSTATUS")


async def back_in_the_game(port: int) -> tuple[LobbyClient, LobbyClient]:
    """Both log in again: each is put back in r1, and red's seventh move wins."""
    ann = await LobbyClient.connect(port)
    assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
    assert await ann.line() == "REJOIN:r1"
    assert await ann.line() == "INPROGRESS:ann:bob:7:6:classic"  # ann (red) is to move
    assert await ann.line() == SIX_PLAYED
    assert re.fullmatch(r"AWAY:bob:[1-5]", await ann.line())  # bob is not back yet
    bob = await LobbyClient.connect(port)
    assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
    assert await bob.line() == "REJOIN:r1"
    assert await bob.line() == "INPROGRESS:ann:bob:7:6:classic"
    assert await bob.line() == SIX_PLAYED
    assert await ann.line() == "BACK:bob"
    await ann.send(f"DROP:{COLUMNS[-1]}")
    end = await ann.line()
    assert end.startswith("GAMEEND:") and end.endswith(":0:ann")
    assert await bob.line() == end
    return ann, bob


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "kill -9"])
def test_a_game_goes_on_after_the_server_is_stopped_and_started_again(
    tmp_path: Path, signum: int
) -> None:
    database = str(tmp_path / "lobby.sqlite3")
    stop_and_start_again(tmp_path, database, signum, six_moves_announced, back_in_the_game)


def test_a_rated_game_on_postgresql_goes_on_after_a_kill(tmp_path: Path, postgres_url: str) -> None:
    async def rated_moves(port: int) -> None:
        await six_moves_announced(port, ":rated")

    async def rated_end(port: int) -> None:
        ann, bob = await back_in_the_game(port)
        for client in (ann, bob):
            assert (await client.line()).startswith("RATING:ann:")
            assert (await client.line()).startswith("RATING:bob:")

    stop_and_start_again(tmp_path, postgres_url, signal.SIGKILL, rated_moves, rated_end)
    assert f"accounts and games: {postgres_url})" in (tmp_path / "second.log").read_text()


def stop_and_start_again(
    tmp_path: Path,
    database: str,
    signum: int,
    before: Callable[[int], Awaitable[object]],
    after: Callable[[int], Awaitable[object]],
    *,
    grace: str = "5",
) -> None:
    """``c4tui serve`` on ``database``: ``before`` plays, ``signum`` stops the server, and
    ``after`` plays on the server started again, which says it restored one game."""
    options = ("--db", database, "--bcrypt-rounds", "4", "--reconnect-grace", grace)
    process, port = start(tmp_path / "first.log", *options)
    try:
        asyncio.run(before(port))
    finally:
        process.send_signal(signum)
        process.wait(10)
    again, port = start(tmp_path / "second.log", *options)
    try:
        asyncio.run(asyncio.wait_for(after(port), 20))
        assert "restored 1 game(s) in progress" in (tmp_path / "second.log").read_text()
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(10)


def test_a_game_nobody_came_back_to_after_a_restart_is_aborted(tmp_path: Path) -> None:
    async def nobody_back(port: int) -> None:
        cid = await logged_in(port, "cid")  # not a player: watches the past fill in
        while (games := await cid.ask("HISTORY:ann")) == "HISTORY:ACKSTATUS:0:":
            await asyncio.sleep(0.1)  # the grace (1 s from the restart) runs out
        number = games.split(":")[3]
        kept = (await cid.ask(f"GAME:{number}")).split(":")
        assert kept[4:6] == ["ann", "bob"] and kept[9:11] == ["", "aborted"]  # no winner

    database = str(tmp_path / "lobby.sqlite3")
    stop_and_start_again(
        tmp_path, database, signal.SIGKILL, six_moves_announced, nobody_back, grace="1"
    )
