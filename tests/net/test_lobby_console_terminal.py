"""``c4tui console --lobby`` typed at a real terminal (tmux's), against a real server.

Line editing and a history (readline), and the server's news drawn above the line
being typed, with the prompt and the half-typed text back under it. What the
terminal shows is read from tmux's screen, waited on until it shows what is wanted.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.net.lobby_client import lobby_server, logged_in

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

TIMEOUT = 30


class Terminal:
    """One program in a tmux of its own (its own server socket): keys in, the screen out."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    async def tmux(self, *arguments: str) -> str:
        process = await asyncio.create_subprocess_exec(
            "tmux", "-L", self.socket, *arguments,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        output, _ = await asyncio.wait_for(process.communicate(), TIMEOUT)
        return output.decode(errors="replace")

    async def keys(self, *keys: str) -> None:
        """Keys pressed (tmux's names: Enter, Up, C-u; other words are typed literally)."""
        for key in keys:
            named = key in ("Enter", "Up", "Down", "C-u", "C-d")
            await self.tmux("send-keys", "-t", "c4", *(() if named else ("-l",)), key)

    async def screen(self) -> list[str]:
        """The screen's rows, the blank ones at its end left off."""
        rows = (await self.tmux("capture-pane", "-p", "-t", "c4")).rstrip("\n").split("\n")
        while rows and not rows[-1].strip():
            rows.pop()
        return [row.rstrip() for row in rows]

    async def until(self, shown: Callable[[list[str]], bool]) -> list[str]:
        """The screen, once ``shown`` says it shows what is wanted."""
        rows: list[str] = []
        try:
            async with asyncio.timeout(TIMEOUT):
                while not shown(rows := await self.screen()):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise AssertionError("\n".join(rows)) from None
        return rows

    async def until_last(self, row: str) -> list[str]:
        """The screen once its last row (where the cursor is) reads ``row``."""
        return await self.until(lambda rows: bool(rows) and rows[-1] == row)

    async def cursor_column(self) -> int:
        return int(await self.tmux("display-message", "-p", "-t", "c4", "#{cursor_x}"))


@asynccontextmanager
async def at_a_terminal(*arguments: str) -> AsyncIterator[Terminal]:
    """``c4tui ARGUMENTS…`` run in a 100 × 30 terminal, ended (its tmux too) afterwards."""
    terminal = Terminal(f"c4tui-test-{uuid.uuid4().hex[:12]}")
    command = " ".join([sys.executable, "-m", "c4tui", *arguments])
    await terminal.tmux(
        "-f", "/dev/null", "new-session", "-d", "-s", "c4", "-x", "100", "-y", "30",
        "-e", f"PYTHONPATH={os.environ.get('PYTHONPATH', '')}", "-e", "INPUTRC=/dev/null",
        f"{command}; echo ended; sleep 600",
    )  # fmt: skip
    try:
        yield terminal
    finally:
        await terminal.tmux("kill-server")


@asynccontextmanager
async def logged_in_at_a_terminal(port: int, user: str) -> AsyncIterator[Terminal]:
    """A console registering ``user`` (password ``pw``, typed twice), at ``lobby>``."""
    arguments = ("console", "--lobby", f"127.0.0.1:{port}", "--user", user, "--register")
    async with at_a_terminal(*arguments) as terminal:
        await terminal.until_last(f"Password for {user}:")
        await terminal.keys("pw", "Enter")
        await terminal.until_last("Password again:")
        await terminal.keys("pw", "Enter")
        await terminal.until_last("lobby>")
        yield terminal


async def test_the_up_arrow_brings_back_the_command_before(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server, logged_in_at_a_terminal(server.port, "ann") as ann:
        await ann.keys("rooms", "Enter")
        await ann.until(lambda rows: "No rooms yet" in rows[-2] and rows[-1] == "lobby>")
        await ann.keys("Up")
        await ann.until_last("lobby> rooms")
        await ann.keys(" now")  # edited where the cursor is: at the end of the line brought back
        await ann.until_last("lobby> rooms now")
        assert await ann.cursor_column() == len("lobby> rooms now")
        await ann.keys("C-u", "profile ann", "Enter")
        await ann.until(lambda rows: rows[-1] == "lobby>" and "ann: rating" in rows[-2])
        await ann.keys("Up", "Up")
        await ann.until_last("lobby> rooms")


async def test_a_chat_line_comes_above_the_half_typed_line(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server, logged_in_at_a_terminal(server.port, "ann") as ann:
        await ann.keys("create r1 4 4 classic", "Enter")
        await ann.until(lambda rows: "created" in rows[-1])
        bob = await logged_in(server.port, "bob")
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        shown = await ann.until(lambda rows: "Your move" in rows[-1])  # ann created: RED
        await ann.keys("say hel")
        await ann.until_last("say hel")
        await bob.send("CHAT:hi ann")
        rows = await ann.until(lambda rows: rows[-2] == "bob says: hi ann")
        assert rows[-1] == "say hel" and rows[-3] == shown[-1]
        assert await ann.cursor_column() == len("say hel")
        await ann.keys("lo", "Enter")  # the half-typed line was kept: it goes on and goes out
        while not (line := await bob.line()).startswith("CHAT:ann"):
            pass
        assert line == "CHAT:ann:hello"
        await bob.close()


async def test_a_challenge_at_the_prompt_comes_above_it_and_the_prompt_comes_back(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server, logged_in_at_a_terminal(server.port, "ann") as ann:
        await ann.keys("profile an")
        await ann.until_last("lobby> profile an")
        bob = await logged_in(server.port, "bob")
        assert await bob.ask("CHALLENGE:ann:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        rows = await ann.until(lambda rows: "bob challenges you" in rows[-2])
        assert rows[-1] == "lobby> profile an" and rows[-3].startswith("Logged in as ann")
        await ann.keys("n", "Enter")
        await ann.until(lambda rows: "ann: rating" in rows[-2])
        await bob.close()


async def test_passwords_never_enter_the_history(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server, logged_in_at_a_terminal(server.port, "ann") as ann:
        await ann.keys("Up")  # the password typed twice at registration is not there:
        await ann.keys("rooms", "Enter")  # the Up brought nothing back, rooms stands alone
        rows = await ann.until(lambda rows: "No rooms yet" in rows[-2] and rows[-1] == "lobby>")
        assert rows[-3] == "lobby> rooms"
        await ann.keys("password", "Enter")
        await ann.until_last("Current password:")
        await ann.keys("pw", "Enter")
        await ann.until_last("New password:")
        await ann.keys("n3wpass", "Enter")
        await ann.until_last("New password again:")
        await ann.keys("n3wpass", "Enter")
        await ann.until(lambda rows: "Password changed" in rows[-2] and rows[-1] == "lobby>")
        await ann.keys("Up")
        await ann.until_last("lobby> password")
        await ann.keys("Up")
        await ann.until_last("lobby> rooms")
        await ann.keys("Up", "!")  # the oldest: nothing before it
        rows = await ann.until_last("lobby> rooms!")
        assert not any("n3wpass" in row or "pw" in row.split() for row in rows)
