"""``c4tui bot --engine`` and ``--kaggle`` against a real server: outside programs play as bots,
and a program's failure costs only the game under way."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.kaggle import KaggleChooser
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_bot import (
    TIMEOUT,
    a_bot,
    bot_process,
    config,
    play_to_the_end,
    running,
    until,
)
from tests.outside.helpers import CENTRE_AGENT, TINY_ENGINE, engine_command


async def challenged(port: int, user: str, settings: str) -> LobbyClient:
    """``user`` logged in, having challenged the bot ``robo`` with ``settings`` (sent)."""
    client = await logged_in(port, user)
    await asyncio.sleep(0.5)  # the bot sits in the lobby
    assert await client.ask(f"CHALLENGE:robo:{settings}") == "CHALLENGE:ACKSTATUS:0"
    return client


async def seated(
    client: LobbyClient, bot: str, process: asyncio.subprocess.Process | None = None
) -> None:
    """Wait until ``bot`` (a ``c4tui bot`` process) is in the lobby: its program is tried
    before it logs in, which takes a while on a loaded machine. If ``process`` ends
    meanwhile, fail at once with what it said."""
    for _ in range(300):
        if re.search(rf"[:,]{bot}=", await client.ask("PLAYERS")):
            return
        if process is not None and process.returncode is not None:
            said = b"" if process.stderr is None else await process.stderr.read()
            raise AssertionError(f"{bot} exited with {process.returncode}: {said.decode()}")
        await asyncio.sleep(0.2)
    raise AssertionError(f"{bot} never came to the lobby")


async def test_an_engine_bot_accepts_a_challenge_and_plays_it_to_its_end(tmp_path: Path) -> None:
    engine = EngineChooser(engine_command())
    server = C4Server(config(tmp_path))
    async with running(server), a_bot(server.port, games=1, chooser=engine) as bot:
        ann = await challenged(server.port, "ann", "7:6:classic:casual")
        begin, end = await play_to_the_end(ann, "ann")
        assert begin == "BEGIN:ann:robo:7:6:classic"
        assert re.fullmatch(r"GAMEEND:[012]{42}:(0:(ann|robo)|1)", end), end
        while not bot.played:
            await asyncio.sleep(0.05)
        assert "Tiny by the c4tui tests" in engine.describe()  # the engine really played


async def test_a_kaggle_bot_plays_classic_and_declines_pop_out(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    async with running(server), a_bot(server.port, 1, chooser=KaggleChooser(CENTRE_AGENT)) as bot:
        ann = await challenged(server.port, "ann", "7:6:popout:casual")
        assert await until(ann, "DECLINED:") == "DECLINED:robo"
        assert await ann.ask("CHALLENGE:robo:8:7:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        begin, end = await play_to_the_end(ann, "ann")
        assert begin == "BEGIN:ann:robo:8:7:classic"
        assert re.fullmatch(r"GAMEEND:[012]{56}:(0:(ann|robo)|1)", end), end
        while not bot.played:
            await asyncio.sleep(0.05)


async def test_a_crashing_engine_forfeits_its_game_and_the_bot_plays_the_next(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # It crashes at its second move of a 7 × 6 game, in any process (a sandboxed program
    # keeps nothing between its processes), and plays an 8 × 7 game through.
    crashing = EngineChooser(engine_command("--crash-at", "2", "--crash-size", "7x6"))
    caplog.set_level(logging.INFO, logger="c4tui.bot")
    server = C4Server(config(tmp_path))
    async with running(server), a_bot(server.port, games=2, chooser=crashing) as bot:
        ann = await challenged(server.port, "ann", "7:6:classic:casual")
        _, end = await play_to_the_end(ann, "ann")
        assert end.endswith(":2:ann")  # the engine crashed on its second move: forfeited
        assert await ann.ask("CHALLENGE:robo:8:7:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        _, end = await play_to_the_end(ann, "ann")
        assert re.fullmatch(r"GAMEEND:[012]{56}:(0:(ann|robo)|1)", end), end
        while bot.played < 2:
            await asyncio.sleep(0.05)
    forfeits = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(forfeits) == 1 and "forfeited the game against ann: engine" in forfeits[0]
    assert "crash" in forfeits[0] and "something broke at move 2" in forfeits[0]


def bot_ran(*options: str) -> subprocess.CompletedProcess[str]:
    """``c4tui bot`` as robo with ``options``, for a lobby on port 1 (where nobody listens)."""
    command = [sys.executable, "-m", "c4tui", "bot", "--lobby", "127.0.0.1:1", "--user", "robo"]
    return subprocess.run(
        [*command, *options],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "C4TUI_PASSWORD": "pw"},
    )


async def test_the_kaggle_command_plays_a_rated_game_and_logs_the_new_ratings(
    tmp_path: Path,
) -> None:
    async with running(C4Server(config(tmp_path))) as server:
        (await logged_in(server.port, "robo")).writer.close()
        options = ("--kaggle", str(CENTRE_AGENT), "--games", "1")
        async with bot_process(server.port, *options) as bot:
            ann = await logged_in(server.port, "ann")
            await seated(ann, "robo", bot)
            assert await ann.ask("CHALLENGE:robo:7:6:classic:rated") == "CHALLENGE:ACKSTATUS:0"
            _, end = await play_to_the_end(ann, "ann")
            assert end.endswith(":0:ann"), end  # four in column 1 (the agent's in the centre)
            assert await asyncio.wait_for(bot.wait(), TIMEOUT) == 0
            assert bot.stderr is not None  # read before the block's end drains it
            log = (await bot.stderr.read()).decode()
    assert "Kaggle agent centre_agent.py answered d4" in log
    assert re.search(r"new ratings: Your rating: \d+ \(-\d+\); ann's: \d+ \(\+\d+\)", log), log
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        (["--kaggle", str(CENTRE_AGENT), "--quick", "7", "6", "popout"], "classic rules only"),
        (["--kaggle", "/nonexistent/agent.py"], "--kaggle: there is no file"),
        (["--engine", " "], "--engine: an engine needs a command"),
        (["--engine", "x", "--kaggle", str(CENTRE_AGENT)], "not allowed with argument"),
    ],
)
def test_outside_choosers_it_cannot_use_are_usage_errors(
    options: list[str], complaint: str
) -> None:
    done = bot_ran(*options)
    assert done.returncode == 2
    assert complaint in done.stderr and "Traceback" not in done.stderr


def test_an_engine_that_cannot_start_stops_the_bot_before_it_logs_in() -> None:
    done = bot_ran("--engine", shlex.join([sys.executable, str(TINY_ENGINE), "--exit-at-start"]))
    assert done.returncode == 1
    assert "cannot play: crash:" in done.stderr and "Traceback" not in done.stderr
    assert "Cannot connect" not in done.stderr  # stopped before it tried the lobby
