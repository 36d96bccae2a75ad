"""The analysis's best line: in the panel on 7 × 6 classic, and stepped through on the board."""

from __future__ import annotations

import asyncio

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from c4tui.ai.best_line import BestLine, follow_best_line
from c4tui.engine import Move, Rules
from c4tui.match.driver import MatchDriver
from c4tui.records.store import unfinished_game
from c4tui.ui.advice import BEST_LINE_THINKING_AFTER
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.widgets.status import LineShown, best_line_text
from tests.ui.helpers import SIZE, make_app, play, settle, start_game


def shown_line(screen: GameScreen | ReviewScreen) -> str:
    """The best line as the panel shows it ("" when hidden)."""
    line = screen.query_one("#best-line", Static)
    return str(line.render()) if line.display else ""


def message(screen: GameScreen | ReviewScreen) -> str:
    return str(screen.query_one("#message", Static).render())


async def analysed_after(pilot: Pilot, moves: str) -> GameScreen:
    """A two-player game after ``moves``, with the analysis (and its best line) shown."""
    screen = await start_game(pilot)
    await play(pilot, moves)
    await pilot.press("a")
    await settle(pilot)
    return screen


async def test_with_the_analysis_on_the_panel_shows_the_best_line_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert shown_line(screen) == ""
        await pilot.press("a")
        await settle(pilot)
        text = shown_line(screen)
        assert text == "Best line (b):\n4 4 4 4 4 4 3 2 …\nRED wins on\nmove 21"
        assert all(len(row) <= screen.panel.size.width for row in text.splitlines())
        await play(pilot, "d4 d3")
        await settle(pilot)
        line = follow_best_line(screen.driver.state)
        assert line is not None
        assert shown_line(screen).startswith("Best line (b):\n" + str(line.moves[0].column + 1))
        assert line.result_words.replace("on move", "on\nmove") in shown_line(screen)
        await pilot.press("a")
        await pilot.pause()
        assert shown_line(screen) == ""


async def test_the_line_keeps_the_result_whole_on_a_wide_panel() -> None:
    app = make_app()
    async with app.run_test(size=(130, 30)) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert shown_line(screen) == "Best line (b): 4 4 4 4 4 4 …\nRED wins on move 21"


def test_the_moves_are_cut_short_never_the_result() -> None:
    long = LineShown((4, 4, 4, 3, 3, 2, 6, 5, 5, 5), "YELLOW wins on move 20")
    assert best_line_text(long, 18) == "Best line (b):\n4 4 4 3 3 2 6 5 …\nYELLOW wins on\nmove 20"
    short = LineShown((3, 4), "Draw (board full)")
    assert best_line_text(short, 38) == "Best line (b): 3 4\nDraw (board full)"
    cut = LineShown((3, 4), "RED wins on move 21", complete=False)
    assert best_line_text(cut, 38, "...") == "Best line (b): 3 4 ...\nRED wins on move 21"
    assert best_line_text(LineShown(), 18) == "Best line (b):\nthinking…"
    assert best_line_text(LineShown(), 28) == "Best line (b): thinking…"


async def test_b_steps_through_the_line_on_the_board_and_esc_leaves_the_game_unchanged() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await analysed_after(pilot, "d4 d3")
        moves, state, kept = screen.driver.moves, screen.driver.state, unfinished_game()
        line = follow_best_line(state)
        assert line is not None
        await pilot.press("b")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.board.state == state  # it starts at the position on the board
        assert "best line" in message(review)
        await pilot.press("right", "right")
        await pilot.pause()
        assert review.board.state == state.play(line.moves[0]).play(line.moves[1])
        assert f"Best line (solver): step 2 of {len(line.moves)}" in message(review)
        assert "play on" not in message(review)
        assert review.check_action("play_on", ()) is False  # nothing plays on from the line
        await pilot.press("c")  # not offered here: nothing happens
        await pilot.pause()
        assert app.screen is review
        await pilot.press("end")
        await pilot.pause()
        assert review.board.state == state.play_all(line.moves)
        assert review.board.state.winner is line.winner
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert screen.driver.moves == moves and screen.driver.state is state
        assert screen.board.state == state
        assert unfinished_game() == kept
        assert screen.driver.awaiting_submission()


async def test_play_on_from_the_games_own_moves_in_a_line_review_plays_those_moves() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await analysed_after(pilot, "d4 d3 d5")
        await pilot.press("b", "left", "left")
        await pilot.pause()
        assert "c: play from here" in message(app.screen)
        await pilot.press("c", "y")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and game is not screen
        assert game.driver.moves == (Move.drop(3),)


async def test_b_says_why_when_there_is_no_line() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("b")
        await pilot.pause()
        assert "press a" in message(screen)
        assert isinstance(app.screen, GameScreen)


async def test_off_7x6_classic_there_is_no_line() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert shown_line(screen) == ""
        await pilot.press("b")
        await pilot.pause()
        said = message(screen)
        assert "shown on classic boards of up to 42 cells" in said, said


async def test_a_slow_line_says_it_is_coming_and_a_move_drops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    follow = MatchDriver.best_line
    asked: list[MatchDriver] = []
    moved = asyncio.Event()  # the empty board's line is held until the move (no timing)

    async def slowly(driver: MatchDriver, seconds: float) -> BestLine | None:
        asked.append(driver)
        if len(asked) == 1:
            await moved.wait()
        return await follow(driver, seconds)

    monkeypatch.setattr(MatchDriver, "best_line", slowly)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        for _ in range(100):  # "thinking…" once BEST_LINE_THINKING_AFTER has passed
            await pilot.pause(BEST_LINE_THINKING_AFTER / 3)
            if shown_line(screen) == "Best line (b):\nthinking…":
                break
        assert shown_line(screen) == "Best line (b):\nthinking…"
        await pilot.press("b")
        assert "still being worked out" in message(screen)
        await play(pilot, "d4")
        moved.set()  # the empty board's line comes now, late: it is dropped for the next
        await settle(pilot)
        assert len(asked) >= 2
        assert shown_line(screen) == "Best line (b):\n4 4 4 4 4 3 2 6 …\nRED wins on\nmove 21"
