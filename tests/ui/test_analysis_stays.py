"""The analysis stays what the person made it (issue 40 #10): on after playing on from the
review, its summary back in the panel after a hint, the best line or the review, and the
board where it was when it is turned on or off."""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.review import ReviewScreen
from tests.ui.helpers import SIZE, make_app, settle
from tests.ui.on_screen import screen_lines
from tests.ui.test_best_line import analysed_after, message

#: What the panel says of the analysis of the position after d4 d3 (proven on 7 × 6).
SUMMARY = "Analysis (proven): column"


def said(screen: GameScreen) -> str:
    """The panel's message on one line (it wraps in a narrow panel)."""
    return " ".join(message(screen).split())


async def back_from(pilot: Pilot[None], keys: tuple[str, ...], game: GameScreen) -> None:
    """Press ``keys`` (they open a review on top), then Esc back to ``game``."""
    await pilot.press(*keys)
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReviewScreen)
    await pilot.press("escape")
    await settle(pilot)
    assert pilot.app.screen is game


async def test_play_on_from_the_review_keeps_the_analysis_on() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await analysed_after(pilot, "d4 d3 d5")
        await pilot.press("v", "left", "c", "y")  # play on from after d4 d3
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and len(game.driver.moves) == 2
        assert game.advice.analysis_on
        assert game.board.analysis is not None and "…" not in game.board.analysis
        assert SUMMARY in said(game)


async def test_the_summary_comes_back_after_a_hint_the_best_line_and_the_review() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await analysed_after(pilot, "d4 d3")
        summary = said(game)
        assert SUMMARY in summary
        await pilot.press("h")
        await settle(pilot)
        assert said(game).startswith("Hint: drop in column") and summary in said(game)
        await back_from(pilot, ("b",), game)
        assert said(game) == summary
        await back_from(pilot, ("v",), game)
        assert said(game) == summary


def column_numbers_line(pilot: Pilot[None]) -> int:
    """Which screen line the board's column numbers are on."""
    return next(i for i, line in enumerate(screen_lines(pilot.app)) if "1      2      3" in line)


async def test_turning_the_analysis_on_and_off_leaves_the_board_where_it_was() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await analysed_after(pilot, "d4")
        with_row = column_numbers_line(pilot)
        assert game.board.analysis is not None
        await pilot.press("a")
        await pilot.pause()
        assert game.board.analysis is None
        assert column_numbers_line(pilot) == with_row
        await pilot.press("a")
        await settle(pilot)
        assert column_numbers_line(pilot) == with_row
