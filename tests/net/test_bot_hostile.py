"""Hostile engines behind ``c4tui bot`` (issue 37): the flood costs the bot one game, the
assassin kills nothing and the snoop finds no password, however the real bot, server and
sandbox are put together.

Everything is real: ``c4tui bot`` processes, a lobby (in this process for the flood; a
``c4tui serve`` process for the assassin and the snoop, which must find no target in
this process), people playing over sockets of 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_bot import TIMEOUT, bot_process, config, play_to_the_end, running
from tests.net.test_bot_outside import seated
from tests.net.test_program_ai import until_none_run
from tests.net.test_serve_command import start, stopped
from tests.outside.helpers import engine_command
from tests.outside.hostile_seats import hostile_command, hostile_engine, marked

#: Every program here runs in the real sandbox (a test skips without one, fails on CI).
pytestmark = pytest.mark.usefixtures("sandbox")

#: A whole game played out: GAMEEND with a winner or a draw, never a forfeit (status 2).
PLAYED_OUT = r"GAMEEND:[012]{42}:(0:\w+|1)"


async def challenge(client: LobbyClient, settings: str) -> None:
    """Challenge to a casual game: ``settings`` is the bot and the game (``robo:7:6:classic``)."""
    assert await client.ask(f"CHALLENGE:{settings}:casual") == "CHALLENGE:ACKSTATUS:0"


async def test_a_flooding_engine_forfeits_its_game_and_the_bot_plays_the_next(
    tmp_path: Path,
) -> None:
    program, mark = hostile_engine(tmp_path, "flood")
    command = hostile_command(program, "--calm-on", "7x6")  # the start-up check passes
    async with running(C4Server(config(tmp_path))) as server:
        (await logged_in(server.port, "robo")).writer.close()
        async with bot_process(server.port, "--engine", command, "--games", "2") as bot:
            ann = await logged_in(server.port, "ann")
            await seated(ann, "robo", bot)
            await challenge(ann, "robo:6:5:classic")  # the flood's board
            _, end = await play_to_the_end(ann, "ann")
            assert end.endswith(":2:ann"), end  # flooded on its first move: forfeited
            await challenge(ann, "robo:7:6:classic")
            _, end = await play_to_the_end(ann, "ann")
            assert re.fullmatch(PLAYED_OUT, end), end
            assert await asyncio.wait_for(bot.wait(), TIMEOUT) == 0
            assert bot.stderr is not None  # read before the block's end drains it
            log = (await bot.stderr.read()).decode()
    forfeits = re.findall(r"forfeited the game against ann: (.*)", log)
    assert len(forfeits) == 1 and "malformed" in forfeits[0], log
    assert "played 2 game(s): done" in log and "Traceback" not in log
    assert await until_none_run(mark), "a process of the flood outlived its games"


@pytest.mark.parametrize("attack", ["kill", "environ"])
async def test_an_assassin_or_a_snoop_harms_nothing_and_every_game_is_played_out(
    tmp_path: Path, attack: str
) -> None:
    """The assassin kills what it can see of the server, both bots and the honest engine;
    the snoop reads every environment it can see for the bots' password."""
    program, mark = hostile_engine(tmp_path, attack)
    targets = marked(mark)  # the server, both bots and the honest engine
    lobby = ("--db", str(tmp_path / "lobby.sqlite3"), "--bcrypt-rounds", "4")
    server, port = start(tmp_path / "serve.log", *lobby, "--idle-timeout", "60", env=targets)
    try:
        for user in ("robo", "rival"):
            (await logged_in(port, user)).writer.close()
        honest = ("--engine", engine_command(), "--games", "1")
        hostile = ("--engine", hostile_command(program), "--games", "1")
        async with bot_process(port, *honest, user="rival", env=targets) as rival:
            bob = await logged_in(port, "bob")
            await seated(bob, "rival", rival)  # its engine runs from now on: a target
            async with bot_process(port, *hostile, env=targets) as robo:
                ann = await logged_in(port, "ann")
                await seated(ann, "robo", robo)  # the assassin's first attack is behind it
                await challenge(bob, "rival:7:6:classic")
                await challenge(ann, "robo:7:6:classic")
                games = play_to_the_end(ann, "ann"), play_to_the_end(bob, "bob")
                for _, end in await asyncio.gather(*games):
                    assert re.fullmatch(PLAYED_OUT, end), end  # (a breach: it crashes)
                for bot in (robo, rival):
                    assert await asyncio.wait_for(bot.wait(), TIMEOUT) == 0  # not killed
        assert server.poll() is None, "the server was killed"
    finally:
        status = await asyncio.to_thread(stopped, server)
    assert status == 0
    assert await until_none_run(mark), f"a process of the {attack} outlived its game"
