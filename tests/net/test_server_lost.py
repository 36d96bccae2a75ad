"""Losing the server is noticed at once, on either side's turn, in every console client.

Real servers on 127.0.0.1 port 0 and real ``c4tui console`` processes: the server
is stopped (or a scripted one hangs up) and the console must say why and exit
with its own status, without anything typed.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from c4tui.cli.console import EXIT_STATUSES
from c4tui.console.game import SERVER_LOST
from tests.net.lobby_client import lobby_server
from tests.net.test_client import FakeServer, Script, greet, say
from tests.net.test_lobby_console import (
    NO_COMING_BACK,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
)
from tests.process_helpers import run_c4tui

#: Seconds a console may take to notice (no input is typed meanwhile).
NOTICE = 10

CLOSED = "The server closed the connection."
#: What a lobby client says when the server stops on purpose (it sends BYE:shutdown first).
RESTARTING = "The server is restarting."


async def ends_with(console: ConsoleProcess, words: str) -> None:
    """``console`` says ``words`` and exits with SERVER_LOST, nothing typed meanwhile."""
    line = await asyncio.wait_for(console.until(words), NOTICE)
    assert "Network problem" in line
    assert await asyncio.wait_for(console.process.wait(), NOTICE) == SERVER_LOST
    assert not any("Traceback" in seen for seen in console.seen)


def board_rows(console: ConsoleProcess) -> list[str]:
    """The rows of every board ``console`` printed (at least one)."""
    rows = [line for line in console.seen if re.fullmatch(r"[.RY ]+", line)]
    assert rows
    return rows


def connect_arguments(port: int, protocol: str) -> list[str]:
    game = ["--rules", "popout"] if protocol == "cfsp" else ["--rules", "classic"]
    return ["--connect", f"127.0.0.1:{port}", "--protocol", protocol, "--user", "u", *game]


@pytest.mark.parametrize("protocol", ["i32cfsp", "cfsp", "c4n"])
async def test_connect_notices_the_server_stopping_on_the_persons_turn(
    tmp_path: Path, protocol: str
) -> None:
    async with lobby_server(tmp_path) as server:
        console = await ConsoleProcess.start(*connect_arguments(server.port, protocol))
        await console.until("RED's turn")
        await server.stop()
        await ends_with(console, CLOSED)


def hangs_up_on_the_first_move(protocol: str) -> FakeServer:
    """A server of ``protocol`` that answers the greeting, then dies while its AI would think."""

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if protocol == "i32cfsp":
            await greet(reader, writer)
        elif protocol == "cfsp":
            await reader.readline()
            await say(writer, "START")
        else:
            await reader.read(100)
            writer.write(b"C4N 1.0 BOARD\n6 7 " + b"0 " * 41 + b"0")
            await writer.drain()
        await reader.read(100)  # the person's move: the server goes away instead of answering
        writer.close()

    return FakeServer(script)


@pytest.mark.parametrize("protocol", ["i32cfsp", "cfsp", "c4n"])
async def test_connect_notices_the_server_going_on_its_own_turn(protocol: str) -> None:
    async with hangs_up_on_the_first_move(protocol) as fake:
        console = await ConsoleProcess.start(*connect_arguments(fake.port, protocol))
        await console.until("RED's turn")
        await console.type("4")
        await ends_with(console, CLOSED)
        assert not any("R" in row for row in board_rows(console))  # never shown as played


async def test_connect_help_offers_no_undo_against_a_server(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        console = await ConsoleProcess.start(*connect_arguments(server.port, "i32cfsp"))
        await console.until("RED's turn")
        await console.type("help")
        line = await console.until("Moves:")
        assert "undo" not in line
        await console.type("quit")
        assert await asyncio.wait_for(console.process.wait(), NOTICE) == 0


async def test_lobby_notices_the_server_stopping_on_the_opponents_turn(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:  # coming back: test_lobby_console_comeback.py
        ann, bob = await a_raw_ann_against_a_console_bob(server.port, *NO_COMING_BACK)
        await ann.send("DROP:1")
        await ann.line()
        await bob.until("Your move")
        await bob.type("2")
        assert (await ann.line()).startswith("BOARDSTATUS")  # ann thinks now
        await bob.until("RED's turn")
        await server.stop()
        await ends_with(bob, RESTARTING)


async def test_lobby_notices_the_server_stopping_at_the_lobby_prompt(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob", *NO_COMING_BACK)
        await server.stop()  # bob is at lobby>, typing nothing
        await ends_with(bob, RESTARTING)


def a_lobby_that_begins(then: Script) -> FakeServer:
    """A lobby server that lets bob in, pairs him as RED on 4 × 4 classic, then does ``then``.

    It answers what a console or the app asks on the way (no rooms, nobody else online).
    """
    answers = {
        "REGISTER": ["REGISTER:ACKSTATUS:0"],
        "LOGIN": ["LOGIN:ACKSTATUS:0"],
        "ROOMLIST": ["ROOMLIST:ACKSTATUS:0:"],
        "PLAYERS": ["PLAYERS:ACKSTATUS:0:"],
        "PROFILE": ["PROFILE:ACKSTATUS:1"],  # the app's lobby asks its own role (§7)
        "BLOCKS": ["BLOCKS:ACKSTATUS:0:"],  # and marks whom it blocks in its lists (§7)
        "QUICKPLAY": ["QUICKPLAY:ACKSTATUS:0:quick-1", "BEGIN:bob:ann:4:4:classic"],
    }

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        command = ""
        while command != "QUICKPLAY":
            command = (await reader.readline()).decode().split(":")[0].strip()
            await say(writer, *answers[command])
        await then(reader, writer)

    return FakeServer(script)


async def dies_at_the_first_move(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """Bob's move arrives: the server dies before its board goes out."""
    await reader.readline()
    writer.close()


async def bob_logs_in_elsewhere(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """While bob thinks, he logs in somewhere else: this connection is told, and closed."""
    await asyncio.sleep(0.3)
    await say(writer, "BYE:elsewhere")
    writer.close()


async def test_lobby_shows_no_move_the_server_never_confirmed() -> None:
    async with a_lobby_that_begins(dies_at_the_first_move) as fake:
        bob = await console_user(fake.port, "bob", *NO_COMING_BACK)
        await bob.type("quick 4 4 classic")
        await bob.until("Your move")
        await bob.type("3")
        await ends_with(bob, CLOSED)
        assert not any("R" in row for row in board_rows(bob))  # bob's disc was never shown


async def test_lobby_says_a_bye_in_words() -> None:
    async with a_lobby_that_begins(bob_logs_in_elsewhere) as fake:
        bob = await console_user(fake.port, "bob")
        await bob.type("quick 4 4 classic")
        await ends_with(bob, "You logged in somewhere else.")


@pytest.mark.parametrize("command", ["console", "tictactoe"])
def test_help_names_the_exit_status_of_a_lost_server(command: str) -> None:
    assert f"{SERVER_LOST} the server closed the connection" in EXIT_STATUSES
    shown = " ".join(run_c4tui(command, "--help").stdout.split())  # as wrapped, unwrapped
    assert "3 the server closed the connection (or went away) during the game" in shown
