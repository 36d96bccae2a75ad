"""The help's words on the analysis labels say exactly when a label is proven.

The help screen's test (test_experience, at 80 x 24) checks the words as shown;
here, that the analysis does what they say.
"""

from __future__ import annotations

from c4tui.ai.analysis import analyse_columns
from c4tui.engine import GameState, Rules
from tests.engine_helpers import play


def assert_says_when_labels_are_proven(words: str) -> None:
    """The help's analysis paragraph (``words`` on one line) says when a label is proven."""
    assert "proven on the 7 × 6 classic board" not in words  # said more exactly now
    assert "**W**, **D** and **L** labels are proven" in words
    assert "every position of the classic boards of up to 42 cells" in words
    assert "c4tui's own books or small enough to need none" in words
    assert "a forced win or loss" in words  # Pop Out's L1, for instance
    assert "**+ = -** are estimates" in words


def test_what_the_help_says_is_what_the_analysis_does() -> None:
    small = analyse_columns(
        GameState.new(4, 4, Rules.CLASSIC), 10.0
    )  # 5 s: ample, even on a busy machine
    assert small.exact and {v.label for v in small.columns if v} <= {"D", "L7", "W7"}
    booked = analyse_columns(GameState.new(6, 6, Rules.CLASSIC), 0.0)  # no time: the book
    assert booked.exact and {v.label for v in booked.columns if v} == {"L18", "L17"}
    pop_out = analyse_columns(play("d4 d3 d3 d4 p4 d5"), 1.0)
    assert not pop_out.exact and {v.label for v in pop_out.columns if v} == {"L1"}
    wide = analyse_columns(GameState.new(20, 20, Rules.CLASSIC), 1.0)
    assert not wide.exact and {v.label for v in wide.columns if v} <= {"+", "=", "-"}
