"""The AI in the app: the level list, the hint key, and a hard AI that never freezes the UI."""

from __future__ import annotations

import asyncio
import time

from textual.worker import WorkerState

from c4tui.ai.levels import AI_LEVELS
from c4tui.engine import Player, Rules
from c4tui.match.pool import SearchPool
from c4tui.ui.advice import HINT_GROUP
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.fuzz_keys import send_key
from tests.ui.helpers import SIZE, make_app, play, settle, start_game


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


async def test_the_menu_offers_every_level_and_describes_it() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        levels = app.screen.query_one("#option-computer-level", ChoiceSet)
        assert list(levels.labels) == [*(level.name for level in AI_LEVELS), "Program…"]
        levels.focus()
        await pilot.press("right", "right", "right")
        await pilot.pause()
        assert "Hard:" in str(app.screen.query_one("#mode-note").render())
        screen = await start_game(pilot)
        assert "Hard" in screen.driver.seats[Player.YELLOW].label


async def test_hint_points_at_the_winning_move() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2")
        await pilot.press("h")
        await settle(pilot)
        assert screen.board.cursor == 0
        assert "Hint: drop in column 1" in message(screen)
        assert "force a win" in message(screen)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.driver.state.winner is Player.RED


async def test_following_a_pop_out_hint_wins() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        # Red wins by d1 or by p5 here; the hint sets the cursor and drop/pop mode.
        await play(pilot, "d2 d4 d2 d3 d4 d1 d2 p1 d3 d7 d5 p7 d1 d5 d5 d2")
        await pilot.press("h")
        await settle(pilot)
        assert "force a win" in message(screen)
        assert screen.board.pop_mode == ("pop from" in message(screen))
        await pilot.press("enter")
        await pilot.pause()
        assert screen.driver.state.winner is Player.RED


async def test_moving_first_cancels_the_hint() -> None:
    app = make_app(columns=20, rows=20, rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        screen._hint_seconds = 20.0  # a long think, so the move surely comes first
        await pilot.press("h")
        await pilot.pause()
        hint_workers = [w for w in app.workers if w.group == HINT_GROUP]
        assert len(hint_workers) == 1
        began = time.monotonic()
        await pilot.press("5", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert time.monotonic() - began < 5
        assert hint_workers[0].state is WorkerState.CANCELLED
        # The search itself stops too (it ran in the pool's worker process).
        await wait_until(lambda: SearchPool.shared().pending == 0, timeout=5)
        assert "Hint" not in message(screen)
        assert [str(m) for m in screen.driver.moves] == ["d5"]


async def wait_until(condition, timeout: float = 5.0) -> float:
    """Seconds until ``condition()`` held (polling, without Pilot's wait for idleness)."""
    began = time.perf_counter()
    while not condition():
        assert time.perf_counter() - began < timeout, "timed out"
        await asyncio.sleep(0.002)
    return time.perf_counter() - began


async def test_hard_on_20x20_never_blocks_the_keys() -> None:
    app = make_app(
        opponent="computer", options={"level": "hard"}, columns=20, rows=20, rules=Rules.POPOUT
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        # Keys go straight to the driver: Pilot would wait for the busy search to finish.
        send_key(app, "9")
        send_key(app, "enter")
        await wait_until(lambda: "thinking" in message(screen))
        send_key(app, "question_mark")
        await wait_until(lambda: isinstance(app.screen, HelpScreen))
        # Help opened while the computer was still thinking (it thinks in another process).
        assert len(screen.driver.moves) == 1 and not screen.driver.awaiting_submission()
        send_key(app, "escape")
        await wait_until(lambda: isinstance(app.screen, GameScreen))
        send_key(app, "right")
        await wait_until(lambda: screen.board.cursor == 9)
        await wait_until(lambda: len(screen.driver.moves) == 2, timeout=10)
        await settle(pilot)
        assert screen.driver.awaiting_submission()
