"""Snapshots of choosing an outside program: "Program…" in the computer's row, and its dialog."""

from __future__ import annotations

from c4tui.engine import Rules
from tests.ui.helpers import SIZE, make_app, open_dialog_still

#: A Kaggle agent, named relative to the repository (the tests run from its root).
AGENT = "kaggle:tests/data/outside/centre_agent.py"


def test_menu_with_program_picked(snap_compare) -> None:
    assert snap_compare(make_app(opponent="program"), terminal_size=SIZE)


def test_program_dialog_says_a_kaggle_agent_plays_classic(snap_compare) -> None:
    app = make_app(opponent="program", rules=Rules.POPOUT, options={"program": AGENT})
    assert snap_compare(app, terminal_size=SIZE, run_before=open_dialog_still)
