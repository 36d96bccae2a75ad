"""Everything the menu says is on screen at 80 × 24 and 100 × 30 (issue 40 #5).

Its error message, the Start button and the kept game's note were below the fold at
80 × 24: a scroll bar took a column, the rows of choices no longer fitted on a line,
stacked, and pushed the rest further down.
"""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input

from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import make_app, play, start_game

SAID = ("#size-error", "#start", "#resume-note")
MODES = {"computer": "Computer", "human": "Two players", "online": "Online"}
#: What else shows, by mode: the chosen opponent's note, and the clock for a game here.
ALSO = {"computer": ("#mode-note", "#clock"), "human": ("#clock",), "online": ("#mode-note",)}


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
@pytest.mark.parametrize(
    ("mode", "level"),
    [("computer", 4), ("computer", 5), ("human", 0), ("online", 0)],
    ids=["perfect", "program", "two-players", "online"],
)
async def test_the_error_start_and_kept_game_note_are_all_on_screen(
    size: tuple[int, int], mode: str, level: int
) -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=size) as pilot:
        await start_game(pilot)
        await play(pilot, "d4")  # a game under way: the menu offers it under Resume
        await pilot.press("escape")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        modes = menu.query_one("#mode", ChoiceSet)
        modes.chosen = modes.labels.index(MODES[mode])
        if mode == "computer":  # the levels with the longest notes: Perfect, Program…
            menu.query_one("#option-computer-level", ChoiceSet).chosen = level
        menu.query_one("#columns", Input).value = "3"
        await pilot.pause()
        await pilot.press("enter")  # refused: the size will not do
        await pilot.pause()
        assert "Columns must be a whole number" in str(menu.query_one("#size-error").render())
        width, height = size
        for selector in (*SAID, *ALSO[mode]):  # online has its own clock
            region = menu.query_one(selector).region
            assert region.height > 0, selector
            assert region.y >= 1 and region.bottom <= height - 1, (selector, region)  # footer
            assert region.right <= width, (selector, region)
        assert menu.query_one("#menu", VerticalScroll).max_scroll_y == 0  # nothing to scroll to
