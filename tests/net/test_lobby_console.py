"""``c4tui console --lobby`` as a real process against a real server and a raw client."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import ClassVar

from c4tui.console.game import SERVER_LOST
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.process_helpers import ended

TIMEOUT = 30
#: A console that does not log in again by itself when the server goes (as before issue 28).
NO_COMING_BACK = ("--reconnect-tries", "0")


class ConsoleProcess:
    """The console as a subprocess: lines are typed when the output asks for them."""

    #: The consoles started inside ``ended_afterwards`` (one that comes back by itself
    #: outlives its server by a minute: a test ends it).
    started: ClassVar[list[ConsoleProcess] | None] = None
    #: Every console started, with its loop, till the test's end ends it (``end_all_here``).
    everyone: ClassVar[list[tuple[asyncio.AbstractEventLoop, ConsoleProcess]]] = []

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.seen: list[str] = []

    @classmethod
    async def start(cls, *arguments: str, command: str = "console") -> ConsoleProcess:
        """``c4tui COMMAND ARGUMENTS…`` with pipes for standard input and output."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "c4tui", command, *arguments,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        console = cls(process)
        cls.everyone.append((asyncio.get_running_loop(), console))
        if cls.started is not None:
            cls.started.append(console)
        return console

    @classmethod
    @contextlib.asynccontextmanager
    async def ended_afterwards(cls) -> AsyncIterator[None]:
        """Kill the consoles started in the block that still run, on leaving it."""
        cls.started = []
        try:
            yield
        finally:
            started, cls.started = cls.started, None
            for console in started:
                await ended(console.process)

    @classmethod
    async def end_all_here(cls) -> None:
        """End the consoles started on this loop, their pipes read to the end (see ``ended``)."""
        loop = asyncio.get_running_loop()
        here = [console for started_on, console in cls.everyone if started_on is loop]
        cls.everyone = [(started_on, c) for started_on, c in cls.everyone if started_on is not loop]
        for console in here:
            await ended(console.process)

    async def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()

    async def until(self, text: str) -> str:
        """Read output until a line containing ``text``; that line."""
        assert self.process.stdout is not None
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), TIMEOUT)
            if not raw:
                raise AssertionError(f"ended before {text!r}: {self.seen[-20:]}")
            line = raw.decode().rstrip("\n")
            self.seen.append(line)
            if text in line:
                return line


async def console_user(port: int, user: str, *options: str) -> ConsoleProcess:
    """``c4tui console --lobby`` with a fresh account, logged in (``options`` added)."""
    console = await ConsoleProcess.start(
        "--lobby", f"127.0.0.1:{port}", "--user", user, "--register", *options
    )
    await console.type("pw")
    await console.type("pw")  # registering: the password again
    await console.until(f"Logged in as {user}")
    return console


async def waiting_in_a_room(port: int, user: str, room: str) -> LobbyClient:
    """A raw client logged in, that has created ``room`` (``NAME:COLS:ROWS:RULES``)."""
    client = await logged_in(port, user)
    assert await client.ask(f"CREATE:{room}") == "CREATE:ACKSTATUS:0"
    return client


async def a_raw_ann_against_a_console_bob(
    port: int, *options: str
) -> tuple[LobbyClient, ConsoleProcess]:
    """ann (RED, a raw client) and bob (YELLOW, the console) at a 4 × 4 classic game's start."""
    ann = await waiting_in_a_room(port, "ann", "r1:4:4:classic")
    bob = await console_user(port, "bob", *options)
    await bob.type("join r1")
    await ann.line()  # BEGIN
    return ann, bob


async def test_a_console_player_and_a_raw_client_play_and_chat(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await waiting_in_a_room(server.port, "ann", "r1:4:4:classic")
        bob = await console_user(server.port, "bob")
        await bob.type("rooms")
        assert "r1: 4 × 4 classic, ann waits, 0 watching (waiting)" in await bob.until("r1:")
        await bob.type("join r1")
        assert await ann.line() == "BEGIN:ann:bob:4:4:classic"
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await bob.type("say hello ann")
        assert await ann.line() == "CHAT:bob:hello ann"
        # ann drops in column 1 four times; bob answers in column 2.
        for turn in range(4):
            await ann.send("DROP:1")
            assert (await ann.line()).startswith("BOARDSTATUS" if turn < 3 else "GAMEEND")
            if turn == 3:
                break
            await bob.until("Your move")
            await bob.type("2")
            assert (await ann.line()).startswith("BOARDSTATUS")
        await bob.until("ann (RED) wins!")
        await bob.until("Back in the lobby")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_a_console_viewer_sees_the_game_and_a_forfeit(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:r1:5:4:popout") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        for mover, other, move in [(ann, bob, "DROP:3"), (bob, ann, "DROP:3")]:
            await mover.send(move)
            await mover.line(), await other.line()
        vic = await console_user(server.port, "vic")
        await vic.type("watch r1")
        await vic.until("Watching ann (RED) against bob (YELLOW); ann is to move.")
        await ann.send("POP:3")
        await ann.line(), await bob.line()
        await vic.until("ann: pop from column 3")
        await bob.send("FORFEIT")
        await vic.until("bob forfeited")
        await vic.until("ann (RED) wins: bob forfeited.")
        await vic.until("Back in the lobby")
        assert not any("winning four" in line for line in vic.seen[-3:])  # no four: a forfeit
        await vic.type("quit")
        assert await asyncio.wait_for(vic.process.wait(), TIMEOUT) == 0


async def test_a_password_against_the_rules_is_refused_with_the_password_rule(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        for password in ("pässwörd", "", "two words"):
            bob = await ConsoleProcess.start(
                "--lobby", f"127.0.0.1:{server.port}", "--user", "bob", "--register"
            )
            await bob.type(password)
            await bob.until("A password is 1-128 printable ASCII characters without spaces.")
            assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 1
            assert not any("Traceback" in line for line in bob.seen)


async def test_a_server_lost_on_your_turn_is_said_at_once_without_typing(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:  # a console that does not come back by itself
        ann, bob = await a_raw_ann_against_a_console_bob(server.port, *NO_COMING_BACK)
        await ann.send("DROP:1")
        await bob.until("Your move")
        await server.stop()  # bob's turn: he types nothing, and is told all the same
        await bob.until("Network problem: The server is restarting.")  # its BYE:shutdown
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == SERVER_LOST


async def test_quit_while_waiting_in_a_room_leaves_the_room_not_the_program(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await bob.type("create r1")
        await bob.until("Room 'r1' created (you play red): waiting for a second player")
        await bob.type("quit")
        await bob.until("You left the room. Back in the lobby.")
        await bob.type("rooms")
        await bob.until("No rooms yet")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_a_classic_game_won_by_the_console_player(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        for turn, column in enumerate((1, 1, 3, 4)):  # bob answers each in column 2: four up it
            await ann.send(f"DROP:{column}")
            await ann.line()
            prompt = await bob.until("Your move")
            table_word = "abort" if turn == 0 else "draw"  # until both have moved (§5.6)
            hint = "type a column number like 3 (or d 3) to drop"
            assert prompt == f"Your move ({hint}), say TEXT, {table_word}, or forfeit:"
            await bob.type("2")
            await ann.line()
        await bob.until("bob (you, YELLOW) wins!")
        await bob.until("(The winning four are marked *.)")
        assert sum("Y*" in line for line in bob.seen[-8:]) == 4, bob.seen[-8:]
        await bob.until("Back in the lobby")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_quick_play_on_the_defaults_meets_the_apps_default_game(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await bob.type("quick")
        await bob.until("In room quick-1")
        ann = await logged_in(server.port, "ann")
        # What the app's g asks for on its menu's defaults: 7 × 6 classic.
        # (ann asks for yellow: quick play's colours are random otherwise, §5.6)
        assert await ann.ask("QUICKPLAY:7:6:classic:yellow") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        await bob.until("Game on: bob (RED) against ann (YELLOW).")
        await bob.type("forfeit")
        await bob.type("y")  # Forfeit the game? [y/N]
        await bob.until("Back in the lobby")
        await bob.type("help")
        await bob.until("without them 7 6 classic")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_ctrl_d_in_a_game_forfeits_it_and_ends_the_console(tmp_path: Path) -> None:
    """The end of input mid-game (on either side's turn) ends c4tui, the game forfeited.

    It used to be read by a task nobody watched: the console froze, and its opponent waited.
    """
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await bob.until("Game on")
        await ann.send("DROP:1")
        await bob.until("Your move")
        await bob.type("quit")  # not a move, nor a way out of a game: told what is
        await bob.until("In a game: forfeit gives it up (Ctrl-D also ends c4tui).")
        assert bob.process.stdin is not None
        bob.process.stdin.close()  # Ctrl-D on bob's turn
        await bob.until("End of input: goodbye.")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
        ended = await ann.line()
        while ended.startswith("BOARDSTATUS"):
            ended = await ann.line()
        assert ended.startswith("GAMEEND:") and ended.endswith(":2:ann"), ended
        await ann.close()


async def test_help_in_a_game_says_what_may_be_typed_there(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await bob.until("Game on:")  # (typed before BEGIN, help says what a waiting room takes)
        await bob.type("help")  # it was answered "Invalid move: 'help' is not a move"
        assert "In a game: a column" in await bob.until("In a game:")
        await bob.until("claim wins when")
        assert not any("Invalid move" in line for line in bob.seen)
        await ann.send("FORFEIT")
        await bob.until("bob (you, YELLOW) wins: ann forfeited.")  # and what happened
