"""The analysis row fits wherever the board does, and each label reads apart (issue 27, 3 and 4)."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from c4tui.engine import Rules
from c4tui.ui.screens.game import GameScreen
from tests.ui.helpers import make_app, settle, start_game
from tests.ui.on_screen import screen_lines

#: The computer on 20 × 20, as the issue played it.
HARD_20X20 = {"opponent": "computer", "options": {"level": "hard"}, "columns": 20, "rows": 20}

#: What every label reads when cut to its outcome, and the "thinking" mark.
OUTCOMES = set("WDL+=-…")


async def analysed(pilot: Pilot, screen: GameScreen) -> list[str]:
    """Turn the analysis on, wait for it, and give the screen's lines."""
    await pilot.press("a")
    await settle(pilot)
    await pilot.pause()
    assert screen.board.analysis is not None
    return screen_lines(pilot.app)


async def test_a_20x20_board_keeps_its_analysis_at_80x24() -> None:
    """The README promises 80 × 24 for 20 × 20: analysis must not ask for 80 × 25."""
    app = make_app(**HARD_20X20)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot)
        lines = await analysed(pilot, screen)
        assert not screen.query_one("#too-small", Static).display
        assert screen.needed_size() == (80, 24)
        assert screen.board.fits()
        row = lines[22][:60]  # under the cells, just above the footer
        assert len(row.split()) == 20 and set(row.split()) <= OUTCOMES | {"W1", "L1", "L2"}


async def test_pop_out_20x20_at_80x24_shows_the_pop_marker_among_the_labels() -> None:
    app = make_app(**HARD_20X20, rules=Rules.POPOUT)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot)
        await analysed(pilot, screen)
        await pilot.press("p", "1")
        await pilot.pause()
        assert screen.board.pop_mode
        row = screen_lines(app)[22][:60]
        assert row.startswith(" ▲ ") and len(row.split()) == 20


async def test_at_40x12_every_label_of_a_7x6_board_reads_apart() -> None:
    """It showed ``L20L21 D W21 D L21L20``: labels as wide as their cells ran together."""
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        screen = await start_game(pilot)
        lines = await analysed(pilot, screen)
        assert screen.board.look.width == 3
        assert any(line.startswith(" L  L  D  W  D  L  L  ") for line in lines)
        assert screen.board.analysis == ("L20", "L21", "D", "W21", "D", "L21", "L20")


async def test_with_no_line_to_spare_the_row_shares_the_pop_markers_instead_of_scrolling() -> None:
    """7 × 6 at 80 × 22 fills its board exactly: the row went below it, scrolled out of view."""
    app = make_app()
    async with app.run_test(size=(80, 22)) as pilot:
        screen = await start_game(pilot)
        lines = await analysed(pilot, screen)
        assert screen.board.look.name == "large" and screen.board.fits()
        assert lines[20].split()[:7] == ["L20", "L21", "D", "W21", "D", "L21", "L20"]
