"""Snapshots of the game's actions asked for in dialogs: the save dialog's name (80 × 24)."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.ui.helpers import SIZE, make_app, play, start_game


async def saving_as(pilot: Pilot[None], name: str) -> None:
    """Two moves, then s and ``name`` typed over the time offered, then Enter."""
    await start_game(pilot)
    await play(pilot, "d4 d3")
    await pilot.press("s")
    await pilot.pause()
    await pilot.press(*name, "enter")
    await pilot.pause()


def test_the_save_dialog_says_why_a_name_will_not_do(snap_compare) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await saving_as(pilot, "4/3 study")

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
