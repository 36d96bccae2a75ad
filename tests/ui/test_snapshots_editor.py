"""Snapshots of the position editor at 80 × 24 and 100 × 30: the board, whose turn, and
whether the position can be played on (and why not).

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG before committing.
"""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.engine import Rules
from tests.ui.helpers import SIZE, make_app


def setting_up(*keys: str):
    """A run_before that opens the editor from the menu (Ctrl+T) and presses ``keys``."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    return run_before


#: RED's four along the bottom, columns 1 to 4, yellow on three of them.
RED_FOUR = ("1", "r", "y", "2", "r", "y", "3", "r", "y", "4", "r")


def test_editor_with_a_playable_position(snap_compare) -> None:
    app = make_app(opponent="computer", options={"level": "hard"})
    keys = ("enter", "enter", "3", "enter", "y", "5", "r")
    assert snap_compare(app, terminal_size=SIZE, run_before=setting_up(*keys))


def test_editor_refuses_a_won_position(snap_compare) -> None:
    app = make_app(opponent="computer", options={"level": "hard"})
    assert snap_compare(app, terminal_size=SIZE, run_before=setting_up(*RED_FOUR))


def test_editor_at_100x30_says_the_discs_cannot_alternate(snap_compare) -> None:
    app = make_app(rules=Rules.POPOUT, columns=9, rows=7)
    keys = ("1", "r", "r", "r", "9", "y")
    assert snap_compare(app, terminal_size=(100, 30), run_before=setting_up(*keys))


def test_editor_at_100x30_with_a_won_position(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=(100, 30), run_before=setting_up(*RED_FOUR))
