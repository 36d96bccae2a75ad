"""Snapshots of the game's actions asked for in dialogs (80 × 24): the save dialog's name,
and the command palette listing the game's actions."""

from __future__ import annotations

from textual.command import CommandInput, CommandList
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.helpers import SIZE, make_app, play, start_game


async def saving_as(pilot: Pilot[None], name: str) -> None:
    """Two moves, then s and ``name`` typed over the time offered, then Enter."""
    await start_game(pilot)
    await play(pilot, "d4 d3")
    await pilot.press("s")
    await pilot.pause()
    pilot.app.screen.query_one(Input).cursor_blink = False  # the same each time
    await pilot.press(*name, "enter")
    await pilot.pause()


def test_the_save_dialog_says_why_a_name_will_not_do(snap_compare) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await saving_as(pilot, "4/3 study")

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_command_palette_finds_the_game_actions(snap_compare) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await start_game(pilot)
        await play(pilot, "d4 d3")
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        # Typed: what each provider lists first comes in the order they answer.
        await pilot.press(*"save")
        for _ in range(50):
            await pilot.pause(0.1)
            if len(pilot.app.screen.query_one(CommandList).options) == 2:
                break
        pilot.app.screen.query_one(CommandInput).cursor_blink = False  # the same each time
        await pilot.pause(0.5)  # its loading indicator gone

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
