"""Snapshots of how the board and the panel fit smaller and larger terminals (issue 27).

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG before committing.
"""

from __future__ import annotations

from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from tests.ui.helpers import make_app
from tests.ui.test_fits_80x24 import BROWSER_SIZE, with_saved_games
from tests.ui.test_snapshots import playing


def test_analysis_labels_cut_to_their_outcome_at_40x12(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=(40, 12), run_before=playing("", "a"))


def test_analysis_row_on_the_pop_markers_line_when_no_line_is_spare(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=(80, 22), run_before=playing("d4 d3", "a"))


def test_the_open_dialog_stands_alone_at_the_browsers_size(snap_compare) -> None:
    """Nothing of the menu peeks out round it (issue 40 #20: the Start button did)."""
    with_saved_games("first", "second")
    app = C4App(MatchSettings(ai_delay=0.0, seed=1), visitor_servers=())
    assert snap_compare(app, terminal_size=BROWSER_SIZE, press=["ctrl+o"])
