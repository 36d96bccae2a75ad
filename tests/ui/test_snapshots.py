"""Snapshots of every screen at 80 × 24 (pytest-textual-snapshot).

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG (``snapshot_report.html``) before committing.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.engine import Rules
from tests.ui.helpers import SIZE, make_app, play, settle


def playing(moves: str, *extra_keys: str):
    """A run_before that starts the game from the menu, plays ``moves``, then presses keys."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        await play(pilot, moves)
        if extra_keys:
            await pilot.press(*extra_keys)
        await settle(pilot)

    return run_before


def test_menu(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_menu_against_the_computer(snap_compare) -> None:
    app = make_app(opponent="computer", rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE)


def test_menu_explains_a_bad_size(snap_compare) -> None:
    app = make_app()
    keys = ["tab", "backspace", "3", "enter"]
    assert snap_compare(app, terminal_size=SIZE, press=keys)


def test_game_in_progress_7x6(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4 d3 d4 d5 d6 d4", "left"))


def test_analysis_row_under_a_7x6_board(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4 d3 d4 d5 d6 d4", "a"))


def test_won_4x4_board_highlights_the_line(snap_compare) -> None:
    app = make_app(columns=4, rows=4)
    assert snap_compare(
        app, terminal_size=SIZE, run_before=playing("d1 d2 d2 d3 d3 d4 d3 d4 d4 d1 d4")
    )


def test_20x20_board_fits_80x24(snap_compare) -> None:
    app = make_app(opponent="computer", columns=20, rows=20, rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d20 d19 d1", "1", "8"))


def test_pop_mode(snap_compare) -> None:
    app = make_app(rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d1 d2 d3", "p", "2"))


def test_help_screen(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4", "question_mark"))


def test_connect_dialog(snap_compare) -> None:
    app = make_app(opponent="network", options={"user": "player"})

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor would make the picture flaky
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_ansi_dark_theme_keeps_discs_and_the_winning_line_readable(snap_compare) -> None:
    app = make_app(rules=Rules.POPOUT)

    async def run_before(pilot: Pilot) -> None:
        pilot.app.theme = "ansi-dark"
        await playing("d4 d5 d4 d5 d4 d5 d4")(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
