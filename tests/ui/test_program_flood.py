"""The app's "Program…" opponent survives a flooding engine (issue 37): the program loses its
game, the screen says so, and the app answers keys all along.

The real app under Textual's pilot, the real engine (a student's ``python3 FILE``) in the
real sandbox; the flood writes 256 kB without a newline and keeps running.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from c4tui.engine import Player
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HelpScreen
from tests.net.test_program_ai import until_none_run
from tests.outside.hostile_seats import hostile_command, hostile_engine
from tests.ui.helpers import make_app, settle
from tests.ui.test_program_in_app import WIDE, start_against

#: Every program here runs in the real sandbox (a test skips without one, fails on CI).
pytestmark = pytest.mark.usefixtures("sandbox")

#: Seconds the whole test may take: a frozen game fails it instead of hanging the run.
TEST_SECONDS = 120


def said(app: C4App) -> str:
    """The game screen's message, its lines joined."""
    return " ".join(str(app.screen.query_one("#message").render()).split())


async def answers_keys(pilot: Pilot) -> None:
    """The help opens on ``?`` and closes on Escape, each at once (whatever the game does)."""
    async with asyncio.timeout(10):  # about 0.1 s here; a loaded machine is slower
        game = pilot.app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen), "the app does not answer keys"
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is game


async def test_a_flooding_program_loses_its_games_and_the_app_answers_keys(
    tmp_path: Path,
) -> None:
    program, mark = hostile_engine(tmp_path, "flood")
    app = make_app(opponent="computer")
    async with asyncio.timeout(TEST_SECONDS), app.run_test(size=WIDE) as pilot:
        await start_against(pilot, f"engine:{hostile_command(program)}")
        await pilot.press("4", "enter")  # the program's first move: the flood
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await answers_keys(pilot)
        await settle(pilot)
        assert screen.driver.result is not None and screen.driver.result.winner is Player.RED
        assert f"RED wins: {program.name} lost by malformed" in said(app), said(app)
        await answers_keys(pilot)
        await pilot.press("r")  # the rematch: the program is red and floods at once
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen) and rematch is not screen
        assert rematch.driver.result is not None and rematch.driver.result.winner is Player.YELLOW
        assert f"YELLOW wins: {program.name} lost by malformed" in said(app), said(app)
    assert await until_none_run(mark), "a process of the flood outlived its games"
