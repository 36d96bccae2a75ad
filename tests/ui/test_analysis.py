"""The analysis row: each column's outcome under the board, in the background."""

from __future__ import annotations

from c4tui.ai.analysis import analyse_columns
from c4tui.ui.advice import ANALYSIS_GROUP
from c4tui.ui.screens.game import GameScreen
from tests.ui.helpers import SIZE, make_app, play, settle, start_game


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


def expected_labels(screen: GameScreen) -> tuple[str, ...]:
    analysis = analyse_columns(screen.driver.state, 1.0)
    return tuple(v.label if v else "" for v in analysis.columns)


async def test_a_shows_proven_outcomes_and_follows_the_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert screen.board.analysis is None
        await pilot.press("a")
        await settle(pilot)
        assert screen.board.analysis == ("L20", "L21", "D", "W21", "D", "L21", "L20")
        assert "Analysis (proven): column 4 is best — win in 21" in message(screen)
        await play(pilot, "d4 d3")
        await settle(pilot)
        assert screen.board.analysis == expected_labels(screen)
        await pilot.press("a")
        await pilot.pause()
        assert screen.board.analysis is None
        assert "Analysis off" in message(screen)


async def test_elsewhere_the_row_is_an_estimate() -> None:
    app = make_app(columns=9, rows=9)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await settle(pilot)
        labels = screen.board.analysis
        assert labels is not None and len(labels) == 9
        assert set(labels) <= {"+", "=", "-"} or any(label[:1] in "WL" for label in labels)
        assert "estimate" in message(screen)


async def test_the_analysis_never_holds_up_a_key() -> None:
    app = make_app(columns=12, rows=10)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await pilot.pause()
        running = [w for w in app.workers if w.group == ANALYSIS_GROUP and w.is_running]
        assert running  # a search of about a second has started
        before = screen.board.cursor
        await pilot.press("right")
        await pilot.pause()
        assert screen.board.cursor == before + 1
        assert any(w.is_running for w in running)  # the key did not wait for it
        await pilot.press("a")  # turning it off stops the search
        await settle(pilot)
        assert screen.board.analysis is None


async def test_once_the_game_is_over_analysis_can_only_be_turned_off() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")  # on during the game
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")  # red's four in column 1
        await settle(pilot)
        assert screen.driver.is_over
        assert screen.check_action("toggle_analysis", ()) is True  # still on: may be turned off
        await pilot.press("a")
        await pilot.pause()
        assert screen.board.analysis is None
        assert screen.check_action("toggle_analysis", ()) is False  # gone: nothing to analyse
