"""Snapshots of how the board and the panel fit smaller and larger terminals (issue 27).

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG before committing.
"""

from __future__ import annotations

from tests.ui.helpers import make_app
from tests.ui.test_snapshots import playing


def test_analysis_labels_cut_to_their_outcome_at_40x12(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=(40, 12), run_before=playing("", "a"))


def test_analysis_row_on_the_pop_markers_line_when_no_line_is_spare(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=(80, 22), run_before=playing("d4 d3", "a"))
