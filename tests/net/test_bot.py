"""``c4tui bot`` against a real server: it plays whoever asks, comes back, stops cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from c4tui.bot.game import Table
from c4tui.bot.sitting import Bot, BotSettings
from c4tui.bot.thinking import thinking_time
from c4tui.engine import GameState, Player, Rules
from c4tui.match.pool import SearchPool
from c4tui.net.tls import ClientTls
from c4tui.outside.chooser import Chooser
from c4tui.outside.levels import LevelChooser
from c4tui.protocols import lobby as wire
from c4tui.protocols.lobby_boards import move_between
from c4tui.protocols.terms import Clock, Terms
from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in
from tests.net.test_tls import certificates
from tests.process_helpers import ended

TIMEOUT = 60
#: Challenges are served by another branch of issue 29: until then these tests wait.


def config(tmp_path: Path, port: int = 0) -> ServerConfig:
    return ServerConfig(port=port, db=tmp_path / "lobby.sqlite3", bcrypt_rounds=TEST_ROUNDS)


@contextlib.asynccontextmanager
async def running(server: C4Server) -> AsyncIterator[C4Server]:
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def a_bot(
    port: int,
    games: int | None = None,
    tls: ClientTls | None = None,
    account_port: int = 0,
    chooser: Chooser | None = None,
) -> AsyncIterator[Bot]:
    """The bot ``robo`` (an account registered here), playing Easy (or ``chooser``) here."""
    (await logged_in(account_port or port, "robo")).writer.close()
    chosen = BotSettings("127.0.0.1", port, "robo", "pw", games=games, tls=tls)
    pool = SearchPool(workers=1)
    bot = Bot(chosen, chooser or LevelChooser("easy", pool=pool))
    task = asyncio.create_task(bot.run())
    try:
        yield bot
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await bot.chooser.close()
        pool.shutdown()


@contextlib.asynccontextmanager
async def bot_process(
    port: int, *options: str, user: str = "robo", env: Mapping[str, str] = os.environ
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``c4tui bot`` as ``user`` (password pw) on ``port`` with ``env``, killed at the end if
    still running."""
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "c4tui", "bot", "--lobby", f"127.0.0.1:{port}", "--user", user,
        *options,
        stderr=asyncio.subprocess.PIPE,
        env={**env, "C4TUI_PASSWORD": "pw"},
    )  # fmt: skip
    try:
        yield bot
    finally:
        await ended(bot)


class Person:
    """A raw client's side of a game: it plays the first legal move each turn."""

    def __init__(self, client: LobbyClient, user: str) -> None:
        self.client = client
        self.user = user
        self.state = GameState.new(7, 6, Rules.CLASSIC)
        self.mine = Player.RED

    async def begun(self) -> str:
        """Wait for BEGIN and set the game up; the BEGIN line."""
        begin = await until(self.client, "BEGIN:")
        _, red, _, *game = begin.split(":")
        parsed = wire.parse_game(game)
        assert parsed is not None
        self.state = GameState.new(*parsed)
        self.mine = Player.RED if red == self.user else Player.YELLOW
        return begin

    async def moves(self, count: int | None = None) -> str | None:
        """Play on for ``count`` boards (None: to the end); GAMEEND's line, if it came."""
        while count is None or count > 0:
            if self.state.turn is self.mine:
                move = self.state.legal_moves()[0]
                await self.client.send(f"{move.kind.name}:{move.column + 1}")
            line = await until(self.client, "")
            if line.startswith("BOARDSTATUS:"):
                found = move_between(self.state, line.split(":")[1])
                assert found is not None, line
                self.state = self.state.play(found)
                count = None if count is None else count - 1
            elif line.startswith("GAMEEND:"):
                return line
        return None


async def play_to_the_end(client: LobbyClient, user: str) -> tuple[str, str]:
    """Play the game that BEGIN starts (the first legal move each turn): BEGIN and GAMEEND."""
    person = Person(client, user)
    begin = await person.begun()
    end = await person.moves()
    assert end is not None
    return begin, end


async def until(client: LobbyClient, prefix: str) -> str:
    """The next line starting with ``prefix`` (CLOCK, CHAT and the like skipped when given)."""
    while True:
        line = await asyncio.wait_for(client.line(), TIMEOUT)
        if line.startswith(prefix) and not (prefix == "" and line.startswith("CLOCK:")):
            return line


async def test_the_bot_joins_a_quick_play_seeker_and_plays_a_whole_game(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server, a_bot(server.port, games=1) as bot:
        ann = await logged_in(server.port, "ann")
        assert (await ann.ask("QUICKPLAY:7:6:classic")).startswith("QUICKPLAY:ACKSTATUS:0:")
        begin, end = await play_to_the_end(ann, "ann")
        assert begin in ("BEGIN:ann:robo:7:6:classic", "BEGIN:robo:ann:7:6:classic")  # random
        assert re.fullmatch(r"GAMEEND:[012]{42}:(0:(ann|robo)|1)", end), end
        for _ in range(100):
            if bot.played:
                break
            await asyncio.sleep(0.05)
        assert bot.played == 1


async def test_the_bot_leaves_rooms_with_other_settings_alone(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server, a_bot(server.port):
        ann = await logged_in(server.port, "ann")
        assert (await ann.ask("QUICKPLAY:6:5:popout")).startswith("QUICKPLAY:ACKSTATUS:0:")
        assert await ann.quiet(5.0)  # two looks at the rooms: no BEGIN


async def test_the_bot_comes_back_after_the_server_restarts(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    await server.start()  # stopped mid-test, as a restart does
    port = server.port
    async with a_bot(port, games=1) as bot:
        await asyncio.sleep(0.5)  # logged in, sitting in the lobby
        await server.stop()
        async with running(C4Server(config(tmp_path, port))):
            ann = await logged_in(port, "ann")
            assert (await ann.ask("QUICKPLAY:7:6:classic:red")).startswith("QUICKPLAY:")
            begin, end = await play_to_the_end(ann, "ann")
            assert begin == "BEGIN:ann:robo:7:6:classic" and end.startswith("GAMEEND:")
            assert ":2:" not in end  # played to its end, not forfeited
            while not bot.played:
                await asyncio.sleep(0.05)


def test_thinking_time_spreads_the_clock_over_the_moves_left() -> None:
    start = GameState.new(7, 6, Rules.CLASSIC)
    assert thinking_time(start, None, 0) == 5.0  # untimed: the chooser's own pace
    three_minutes = thinking_time(start, 180_000, 2000)
    assert 8 < three_minutes < 10  # 180 s over 21 moves + 1.6 s of increment, less 0.3 s
    assert thinking_time(start, 400, 0) == 0.05  # nearly out of time: the least
    assert thinking_time(start, 10_000, 0) < 5.0  # never half of what is left


async def test_a_bot_stopped_mid_game_forfeits_it_and_exits_0(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server:
        (await logged_in(server.port, "robo")).writer.close()
        ann = await logged_in(server.port, "ann")
        assert (await ann.ask("QUICKPLAY:7:6:classic:red")).startswith("QUICKPLAY:ACKSTATUS:0:")
        async with bot_process(server.port, "--level", "easy") as bot:
            assert await until(ann, "BEGIN:") == "BEGIN:ann:robo:7:6:classic"
            await ann.send("DROP:4")
            await until(ann, "BOARDSTATUS:")  # ours
            await until(ann, "BOARDSTATUS:")  # the bot's answer
            bot.send_signal(signal.SIGTERM)
            assert (await until(ann, "GAMEEND:")).endswith(":2:ann")
            assert await asyncio.wait_for(bot.wait(), TIMEOUT) == 0
            assert bot.stderr is not None
            log = (await bot.stderr.read()).decode()
        assert "logged in to" in log and "stopped after 0 game(s)" in log
        assert "Traceback" not in log


@pytest.mark.parametrize(
    ("options", "environment", "complaint"),
    [
        ([], {}, "no password: set C4TUI_PASSWORD or pass --password-file FILE"),
        (["--password-file", "/nonexistent/pw"], {}, "cannot read the password"),
        (["--quick", "7", "6", "chess"], {"C4TUI_PASSWORD": "pw"}, "--quick takes COLS ROWS"),
        (["--password", "pw"], {}, "unrecognized arguments: --password"),
    ],
)
def test_the_bot_refuses_what_it_cannot_use_in_one_line(
    options: list[str], environment: dict[str, str], complaint: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "C4TUI_PASSWORD"} | environment
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "c4tui",
            "bot",
            "--lobby",
            "127.0.0.1:1",
            "--user",
            "robo",
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert done.returncode == 2
    assert complaint in done.stderr and "Traceback" not in done.stderr


def test_the_password_file_gives_the_first_line(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("p:w:1\nignored\n", encoding="ascii")
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "bot", "--lobby", "127.0.0.1:1", "--user", "robo",
         "--password-file", str(secret)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1  # past the options: nobody listens on port 1
    assert "Cannot connect to 127.0.0.1:1" in done.stderr


async def test_the_bot_accepts_a_challenge_and_plays_it_legally(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server, a_bot(server.port, games=1):
        ann = await logged_in(server.port, "ann")
        await asyncio.sleep(0.5)
        assert await ann.ask("CHALLENGE:robo:5:4:popout:casual") == "CHALLENGE:ACKSTATUS:0"
        begin, end = await play_to_the_end(ann, "ann")
        assert begin == "BEGIN:ann:robo:5:4:popout"  # the challenger is red
        assert re.fullmatch(r"GAMEEND:[012]{20}:(0:(ann|robo)|1)", end), end


async def test_the_bot_declines_a_rated_challenge_from_another_bot(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server, a_bot(server.port):
        other = await LobbyClient.connect(server.port)
        assert await other.ask("LOGIN:zed:pw") == "LOGIN:ACKSTATUS:1"
        assert (await other.ask("REGISTERBOT:zed:pw")).endswith("ACKSTATUS:0")
        assert await other.ask("LOGIN:zed:pw") == "LOGIN:ACKSTATUS:0"
        await asyncio.sleep(0.5)
        assert await other.ask("CHALLENGE:robo:7:6:classic:rated") == "CHALLENGE:ACKSTATUS:0"
        assert await until(other, "DECLINED:") == "DECLINED:robo"
        assert await other.ask("CHALLENGE:robo:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        assert (await until(other, "BEGIN:")).startswith("BEGIN:zed:robo:")


def test_a_timed_game_gives_the_bot_its_clock() -> None:
    terms = Terms(rated=False, clock=Clock(1, 0))
    table = Table.begun(wire.Begin("ann", "robo", (7, 6, Rules.CLASSIC)), "robo", terms)
    assert table.colour is Player.YELLOW and table.clocks == (60_000, 60_000)
    assert table.time_for_a_move() < 60 / 21


async def test_a_game_cut_by_a_restart_goes_on_with_the_bot_to_its_end(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    await server.start()  # stopped mid-test, as a restart does
    port = server.port
    async with a_bot(port, games=1) as bot:
        ann = Person(await logged_in(port, "ann"), "ann")
        assert (await ann.client.ask("QUICKPLAY:7:6:classic")).startswith("QUICKPLAY:")
        await ann.begun()
        assert await ann.moves(4) is None  # two moves each
        await server.stop()
        async with running(C4Server(config(tmp_path, port))):
            ann.client = await LobbyClient.connect(port)
            assert await ann.client.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
            assert (await until(ann.client, "REJOIN:")).startswith("REJOIN:quick-")
            await until(ann.client, "INPROGRESS:")
            assert await until(ann.client, "BOARDSTATUS:") == "BOARDSTATUS:" + wire.cells(ann.state)
            end = await ann.moves()
            assert end is not None and ":2:" not in end  # played out, nobody forfeited
            while not bot.played:
                await asyncio.sleep(0.05)


async def test_the_bot_plays_over_tls(tmp_path: Path) -> None:
    certs = certificates(tmp_path, "127.0.0.1")
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as server:
        assert server.tls_port is not None
        tls = ClientTls(certs.ca)
        async with a_bot(server.tls_port, 1, tls, account_port=server.port) as bot:
            ann = await logged_in(server.port, "ann")
            assert (await ann.ask("QUICKPLAY:7:6:classic:red")).startswith("QUICKPLAY:ACKSTATUS:0:")
            begin, end = await play_to_the_end(ann, "ann")
            assert begin == "BEGIN:ann:robo:7:6:classic" and ":2:" not in end
            while not bot.played:
                await asyncio.sleep(0.05)
