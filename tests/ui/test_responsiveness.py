"""A slow opponent never freezes the UI, and leaving cancels its thinking cleanly."""

from __future__ import annotations

import asyncio
import time

from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.board import Board
from tests.seats import BrokenSeat, SlowSeat
from tests.ui.helpers import SIZE, against, start_game, undone_mid_thought


async def test_keys_work_while_the_opponent_thinks_and_leaving_cancels_it() -> None:
    slow = SlowSeat()

    app = C4App(MatchSettings(opponent="computer"), make_driver=against(slow))
    began = time.monotonic()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("4", "enter")
        await asyncio.wait_for(slow.asked.wait(), timeout=5)
        assert "Slowcoach is thinking" in str(screen.query_one("#message").render())

        # Enter and a click are refused with a reason...
        await pilot.press("5", "enter")
        await pilot.pause()
        assert len(screen.driver.moves) == 1
        assert "Wait: Slowcoach is to move" in str(screen.query_one("#message").render())
        assert screen.check_action("toggle_pop", ()) is not True
        await pilot.click(Board, offset=(40, 5))
        await pilot.pause()
        assert "Wait: Slowcoach is to move" in str(screen.query_one("#message").render())
        assert len(screen.driver.moves) == 1
        await pilot.press("h")  # so is a hint, with its reason
        await pilot.pause()
        assert "Hints are for your turn." in str(screen.query_one("#message").render())
        # ...help opens and closes...
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        # ...the menu returns, the game going on behind it (Resume)...
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not slow.cancelled
        # ...and giving that game up for a new one cancels the opponent's thinking.
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen is not screen
        assert slow.cancelled
    assert time.monotonic() - began < 30  # nobody waited for the minute-long think


async def test_undo_while_the_opponent_thinks_cancels_and_gives_the_turn_back() -> None:
    slow = SlowSeat()

    app = C4App(MatchSettings(opponent="computer"), make_driver=against(slow))
    async with app.run_test(size=SIZE) as pilot:
        screen = await undone_mid_thought(pilot, slow)
        assert slow.cancelled
        assert screen.driver.moves == ()
        assert screen.driver.awaiting_submission()
        await pilot.press("3", "enter")
        await pilot.pause()
        assert [str(m) for m in screen.driver.moves] == ["d3"]
        await pilot.press("m")  # leave without waiting for the slow answer


async def test_a_failing_opponent_is_reported_not_a_crash() -> None:
    app = C4App(MatchSettings(opponent="computer"), make_driver=against(BrokenSeat()))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("4", "enter")
        await screen.driver.settled()
        await pilot.pause()
        assert "the opponent vanished" in str(screen.query_one("#message").render())
        assert app.return_code is None  # still running
