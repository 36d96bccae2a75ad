"""Snapshots of issue 40's menu and timed games here, at 80 × 24 and 100 × 30.

The menu says everything at once (the chosen level's note, a size that will not do,
the kept game's note under the buttons) without scrolling; a game here lost on time
shows both clocks, stopped, and who ran out. Update with ``pytest --snapshot-update``
and look at every SVG before committing.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.match.timing import HomeClock
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import make_app, play, settle
from tests.ui.test_lobby_app import until

SIZES = [(80, 24), (100, 30)]


async def menu_with_everything_said(pilot: Pilot) -> None:
    """A game left under Resume, then the Perfect level and a board size that will not do."""
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)
    await play(pilot, "d4")
    await pilot.press("escape")
    await pilot.pause()
    menu = pilot.app.screen
    menu.query_one("#option-computer-level", ChoiceSet).chosen = 4  # Perfect: a long note
    menu.query_one("#clock", ChoiceSet).chosen = 2  # 3+2
    columns = menu.query_one("#columns", Input)
    columns.value = "3"
    await pilot.pause()
    await pilot.press("enter")
    for field in menu.query(Input):
        field.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30"])
def test_the_menu_says_everything_without_scrolling(snap_compare, size: tuple[int, int]) -> None:
    app = make_app(opponent="computer")
    assert snap_compare(app, terminal_size=size, run_before=menu_with_everything_said)


async def flag_falls(pilot: Pilot) -> None:
    """Two players, a second each, nobody moves: RED's flag falls."""
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)
    await until(pilot, lambda: pilot.app.screen.driver.result is not None, seconds=20)  # type: ignore[attr-defined]
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30"])
def test_a_game_here_lost_on_time(snap_compare, size: tuple[int, int]) -> None:
    app = make_app(clock=HomeClock(1000, 0))
    assert snap_compare(app, terminal_size=size, run_before=flag_falls)
