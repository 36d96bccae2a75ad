"""``c4tui console --lobby`` comes back by itself (issue 28 item 3): a real server stopped
(or killed) and started again on the same database and port, and consoles as real
processes that log in again on their own and go on where they were — in their game, in
the room they watched, at ``lobby>`` — or say what became of it, or give up."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from c4tui.client import words
from c4tui.console.game import SERVER_LOST
from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in
from tests.net.test_comeback import until
from tests.net.test_lobby_console import (
    TIMEOUT,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
)
from tests.net.test_serve_command import start

RESTARTING = "The server is restarting — reconnecting (1)…"
DROPPED = "Connection lost — reconnecting (1)…"


def config(tmp_path: Path, port: int = 0, grace: float = 60) -> ServerConfig:
    return ServerConfig(
        port=port, db=tmp_path / "lobby.sqlite3", bcrypt_rounds=TEST_ROUNDS, reconnect_grace=grace
    )


class Restartable:
    """A server on one database and one port, stopped and started again as a test says."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.server = C4Server(config(tmp_path))
        self.port = 0

    async def start(self) -> None:
        self.server = C4Server(config(self.tmp_path, self.port))
        await self.server.start()
        self.port = self.server.port

    async def stop(self) -> None:
        await self.server.stop()

    async def restart(self, *consoles: ConsoleProcess) -> None:
        """Stop, and start again once each of ``consoles`` says it is trying to come back."""
        await self.stop()
        for console in consoles:
            await console.until(RESTARTING)
        await self.start()


@asynccontextmanager
async def restartable(tmp_path: Path) -> AsyncIterator[Restartable]:
    server = Restartable(tmp_path)
    await server.start()
    async with ConsoleProcess.ended_afterwards():
        try:
            yield server
        finally:
            await server.stop()


async def exits(console: ConsoleProcess, status: int) -> None:
    assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == status
    assert not any("Traceback" in line for line in console.seen)


def last_board(console: ConsoleProcess) -> str:
    """The discs of the last board ``console`` printed, row after row."""
    rows: list[str] = []
    for line in reversed(console.seen):
        if re.fullmatch(r"[.RY ]+", line):
            rows.insert(0, line)
        elif rows:
            break
    assert rows
    return "".join(rows).replace(" ", "")


async def bob_to_move(port: int) -> tuple[LobbyClient, ConsoleProcess]:
    """ann (raw, RED) has dropped in column 1; bob (the console) is asked for his move."""
    ann, bob = await a_raw_ann_against_a_console_bob(port)
    await ann.send("DROP:1")
    await bob.until("Your move")
    return ann, bob


async def quits_from_the_lobby(console: ConsoleProcess) -> None:
    await console.until("Back in the lobby.")
    await console.type("quit")
    await exits(console, 0)


async def rejoined(port: int, user: str) -> LobbyClient:
    """``user`` (a raw client) logged in again, put back in r1, its board read."""
    client = await LobbyClient.connect(port)
    assert await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"
    assert await client.line() == "REJOIN:r1"
    await until(client, "BOARDSTATUS")
    return client


async def test_a_player_comes_back_after_a_restart_and_plays_on(tmp_path: Path) -> None:
    async with restartable(tmp_path) as server:
        ann, bob = await bob_to_move(server.port)
        await server.stop()  # on bob's turn, nothing typed
        await bob.until(RESTARTING)
        await bob.until("reconnecting (2)…")  # one line a try while nobody answers
        await server.start()
        await bob.until("Your game in r1 is still on: back in it.")
        await bob.until("Back in the game: ann (RED) against bob (YELLOW); bob is to move.")
        await bob.until("Your move")
        assert last_board(bob).count("R") == 1 and "Y" not in last_board(bob)
        await bob.type("2")  # while ann is away: a player may move then
        await bob.until("RED's turn")
        ann = await rejoined(server.port, "ann")
        await ann.send("DROP:1")
        await bob.until("ann: drop in column 1")
        await bob.until("Your move")
        assert not any("Traceback" in line or "problem" in line for line in bob.seen)
        await ann.close()


async def test_a_move_typed_as_the_server_stops_is_shown_only_if_the_server_has_it(
    tmp_path: Path,
) -> None:
    async with restartable(tmp_path) as server:
        ann, bob = await bob_to_move(server.port)
        await bob.type("2")  # as the server stops: it may have the move or not, both are right
        await server.restart(bob)
        back = await bob.until("Back in the game")
        await bob.until("'s turn")
        ann = await rejoined(server.port, "ann")
        played = "ann is to move" in back
        assert last_board(bob).count("Y") == int(played)  # once, or not at all
        await ann.send("DROP:1" if played else "DROP:3")  # bob's turn: refused (and ignored)
        if played:
            await bob.until("ann: drop in column 1")
        await ann.close()


async def test_both_consoles_come_back_after_a_kill_9(tmp_path: Path) -> None:
    database = str(tmp_path / "lobby.sqlite3")
    options = ("--db", database, "--bcrypt-rounds", "4")
    process, port = start(tmp_path / "first.log", *options)
    again = None
    try:
        async with ConsoleProcess.ended_afterwards():
            ann = await console_user(port, "ann")
            bob = await console_user(port, "bob")
            await ann.type("create r1 4 4 classic")
            await ann.until("waiting for a second player")
            await bob.type("join r1")
            await ann.until("Your move")
            await ann.type("1")
            await bob.until("Your move")
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            await ann.until(DROPPED)
            await bob.until(DROPPED)
            again, _ = start(tmp_path / "second.log", *options, "--port", str(port))
            for console in (ann, bob):
                await console.until("Your game in r1 is still on: back in it.")
                await console.until(
                    "Back in the game: ann (RED) against bob (YELLOW); bob is to move."
                )
            await bob.until("Your move")
            await bob.type("2")
            await ann.until("bob: drop in column 2")
            await ann.until("Your move")
            await ann.type("forfeit")
            await ann.type("y")  # Forfeit the game? [y/N]
            await bob.until("bob (you, YELLOW) wins: ann forfeited.")
            for console in (ann, bob):
                await quits_from_the_lobby(console)
    finally:
        for server in (process, again):
            if server is not None and server.poll() is None:
                server.send_signal(signal.SIGTERM)
                server.wait(10)


async def test_at_the_prompt_the_console_is_back_in_the_lobby(tmp_path: Path) -> None:
    async with restartable(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await server.restart(bob)
        await bob.until("Back in the lobby.")
        await bob.type("rooms")
        await bob.until("No rooms yet")
        await bob.type("quit")
        await exits(bob, 0)


async def test_a_viewer_watches_its_room_again(tmp_path: Path) -> None:
    async with restartable(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:r1:5:4:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.send("DROP:3")
        await until(bob, "BOARDSTATUS")
        vic = await console_user(server.port, "vic")
        await vic.type("watch r1")
        await vic.until("Watching ann (RED) against bob (YELLOW); bob is to move.")
        await server.restart(vic)
        await vic.until("Watching ann (RED) against bob (YELLOW); bob is to move.")
        bob = await rejoined(server.port, "bob")
        await bob.send("DROP:4")
        await vic.until("bob: drop in column 4")
        assert not any("problem" in line for line in vic.seen)
        await bob.close()


async def test_a_game_that_ended_while_away_is_said_and_its_viewer_told_the_room_is_gone(
    tmp_path: Path,
) -> None:
    async with restartable(tmp_path) as server:
        _ann, bob = await bob_to_move(server.port)
        vic = await console_user(server.port, "vic")
        await vic.type("watch r1")
        await vic.until("Watching")
        await server.stop()
        await bob.until(RESTARTING)
        await vic.until(RESTARTING)
        # Meanwhile the server runs elsewhere with a short grace: nobody comes back in time,
        # and the game is aborted (§5.6: nobody's fault). Then it is back where the consoles look.
        elsewhere = C4Server(config(tmp_path, grace=0.2))
        await elsewhere.start()
        watcher = await logged_in(elsewhere.port, "wat")
        while await watcher.ask("ROOMLIST:VIEWER") != "ROOMLIST:ACKSTATUS:0:":
            await asyncio.sleep(0.1)
        await watcher.close()
        await elsewhere.stop()
        await server.start()
        said = await bob.until("The game ended while you were away: ")
        assert "aborted" in said.lower(), said
        await vic.until("The game in r1 is over: its room is gone.")
        for console in (bob, vic):
            await quits_from_the_lobby(console)


async def test_a_waiting_creator_is_told_its_room_is_gone(tmp_path: Path) -> None:
    async with restartable(tmp_path) as server:
        ann = await console_user(server.port, "ann")
        await ann.type("create r1")
        await ann.until("waiting for a second player")
        await server.restart(ann)
        await ann.until("Your room r1 closed while you were away: create it again to wait on.")
        await quits_from_the_lobby(ann)


@pytest.mark.parametrize("giving_up", ["quit", "end of input"])
async def test_quit_or_ctrl_d_during_the_tries_gives_up(tmp_path: Path, giving_up: str) -> None:
    async with restartable(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await server.stop()  # for good
        await bob.until(RESTARTING)
        await bob.type("rooms")
        await bob.until("Not connected: logging in again (quit gives up).")
        if giving_up == "quit":
            await bob.type("quit")
        else:
            assert bob.process.stdin is not None
            bob.process.stdin.close()  # Ctrl-D
        await bob.until("Gave up logging in again: goodbye.")
        await exits(bob, SERVER_LOST)


async def test_after_the_last_try_the_console_says_so_and_exits_3(tmp_path: Path) -> None:
    """At ``lobby>``, with no game to come back to, the tries end."""
    async with restartable(tmp_path) as server:
        bob = await console_user(server.port, "bob", "--reconnect-tries", "2")
        await server.stop()  # for good
        await bob.until(RESTARTING)
        await bob.until("reconnecting (2)…")
        address = f"127.0.0.1:{server.port}"
        await bob.until(f"Network problem: No answer from the server at {address} after 2 tries")
        await exits(bob, SERVER_LOST)


async def test_with_a_game_on_the_console_tries_on_past_its_tries(tmp_path: Path) -> None:
    """A server down for longer than the tries take is found again: the game is still on.

    (``--reconnect-tries 1`` is the give-up time shortened: one try, half a second.)
    """
    async with restartable(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port, "--reconnect-tries", "1")
        await ann.send("DROP:1")
        await bob.until("Your move")
        await server.stop()
        await bob.until(RESTARTING)
        await bob.until("reconnecting (2)…")  # past its one try: the game is on
        await server.start()
        await bob.until(f"{words.BACK_IN_THE_GAME}: ann (RED) against bob (YELLOW)")
        await bob.until("Your move")
        assert not any("giving up" in line for line in bob.seen)
        await bob.type("forfeit")
        await bob.type("y")  # Forfeit the game? [y/N]
        await bob.until("Back in the lobby")
        await bob.type("quit")
        await exits(bob, 0)


async def test_logged_in_elsewhere_the_console_does_not_come_back(tmp_path: Path) -> None:
    async with restartable(tmp_path) as server:
        _ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await bob.until("Game on")
        elsewhere = await LobbyClient.connect(server.port)
        assert await elsewhere.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        await bob.until("Network problem: You logged in somewhere else.")
        await exits(bob, SERVER_LOST)
        assert not any("reconnecting" in line for line in bob.seen)
        await elsewhere.close()
