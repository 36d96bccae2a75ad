"""Columns in the app: set up from the menu, played on the clock with keys, scores kept."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, Static

from c4tui.columns.play import ColumnsSession, fall_seconds
from c4tui.columns.scores import high_scores
from c4tui.ui.screens.columns import ColumnsScreen, ColumnsSetup
from tests.ui.helpers import SIZE, make_app


async def open_columns(pilot, rows: str = "13", columns: str = "6") -> ColumnsScreen:  # type: ignore[no-untyped-def]
    await pilot.pause()
    await pilot.press("ctrl+k")
    await pilot.pause()
    setup = pilot.app.screen
    assert isinstance(setup, ColumnsSetup)
    setup.query_one("#rows", Input).value = rows
    setup.query_one("#columns", Input).value = columns
    await pilot.press("enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ColumnsScreen)
    return screen


async def test_the_clock_brings_fallers_and_keys_move_them() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot)
        for _ in range(100):  # the first faller comes by the clock, not by a key
            await asyncio.sleep(fall_seconds(1) / 4)
            if screen.session.field.faller is not None:
                break
        faller = screen.session.field.faller
        assert faller is not None and faller.column == 2
        await pilot.press("left")
        await pilot.pause()
        assert screen.session.field.faller is not None
        assert screen.session.field.faller.column == 1
        jewels = screen.session.field.faller.jewels
        await pilot.press("up")
        await pilot.pause()
        assert screen.session.field.faller.jewels == (jewels[2], jewels[0], jewels[1])
        field = str(screen.query_one("#columns-field", Static).render())
        assert f"[{jewels[1]}]" in field or f"|{jewels[1]}|" in field  # drawn as the shell does


async def test_pause_stops_the_clock() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot)
        await pilot.press("p")
        await pilot.pause()
        before = screen.session.field
        await asyncio.sleep(fall_seconds(1) * 2.5)
        assert screen.session.field == before
        assert "Paused" in str(screen.query_one("#columns-state", Static).render())


async def test_a_game_played_to_its_end_keeps_a_high_score() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot, rows="4", columns="3")
        for _ in range(300):
            await pilot.press("down")
            if screen.session.over:
                break
        assert screen.session.over
        await pilot.pause()
        assert "GAME OVER" in str(screen.query_one("#columns-state", Static).render())
        assert [entry.score for entry in high_scores()] == [screen.session.score]
        await pilot.press("n")
        await pilot.pause()
        assert not screen.session.over
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ColumnsScreen)


async def test_a_bad_setup_is_explained() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+k")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, ColumnsSetup)
        setup.query_one("#rows", Input).value = "3"
        await pilot.press("enter")
        await pilot.pause()
        assert "Rows: a whole number from 4 to 20" in str(
            setup.query_one("#columns-status", Static).render()
        )


def test_a_session_is_what_the_screen_plays() -> None:
    assert ColumnsSession(5, 4, 2).level == 2
