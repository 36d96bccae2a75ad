"""Snapshots of the puzzles at 80 × 24 (and one at 100 × 30): the puzzle at its start, a
wrong move explained by the solver's reply, the solution shown, a puzzle solved with the
rating's change. A new player's first puzzle is always the shipped set's first (64516715:
Red finds d6, d5, d2), and each test has a data folder of its own.

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG before committing.
"""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

from c4tui.ui.screens.puzzles import PuzzleScreen
from tests.ui.helpers import SIZE, make_app

#: How long the pool may take to explain a wrong move (its worker starts first).
REFUTING_SECONDS = 120


def in_puzzles(*keys: str):
    """A run_before that opens the puzzles (Ctrl+Z), presses ``keys``, lets the pool answer."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.press(*keys)
        screen = pilot.app.screen
        assert isinstance(screen, PuzzleScreen)
        async with asyncio.timeout(REFUTING_SECONDS):
            while screen.checking:
                await asyncio.sleep(0.1)
        await pilot.pause()

    return run_before


def test_puzzle_at_its_start(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=in_puzzles())


def test_puzzle_wrong_move_explained(snap_compare) -> None:
    keys = in_puzzles("1", "enter")
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=keys)


def test_puzzle_solution_shown(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=in_puzzles("s"))


def test_puzzle_solved_with_the_rating_change(snap_compare) -> None:
    keys = in_puzzles("6", "enter", "5", "enter", "2", "enter")
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=keys)


def test_puzzle_with_a_hint_at_100x30(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=in_puzzles("h"))
