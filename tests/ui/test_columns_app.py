"""Columns in the app: set up from the menu, played on the clock with keys, scores kept."""

from __future__ import annotations

import asyncio
import random

from textual.widgets import Input, Static

from c4tui.columns import Field
from c4tui.columns.play import ColumnsSession, fall_seconds
from c4tui.columns.scores import high_scores
from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.columns import ColumnsScreen, ColumnsSetup
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.menu import MenuScreen
from tests.conftest import scaled
from tests.ui.fuzz_keys import send_key
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
        for typed in ["3", "³"]:  # "³" is a digit to Python, and int() refuses it
            setup.query_one("#rows", Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert "Rows: a whole number from 4 to 20" in str(
                setup.query_one("#columns-status", Static).render()
            )


def test_enter_before_the_setup_has_its_fields_does_nothing() -> None:
    """Found by the random-key test on CI: Enter reached the setup while it had no fields."""
    setup = ColumnsSetup()  # not mounted: no fields yet
    setup.action_play()  # raised NoMatches


def test_a_session_is_what_the_screen_plays() -> None:
    assert ColumnsSession(5, 4, 2).level == 2


class FakeClock:
    """A clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def clocked_game(pilot, session: ColumnsSession) -> tuple[ColumnsScreen, FakeClock]:  # type: ignore[no-untyped-def]
    clock = FakeClock()
    screen = ColumnsScreen(session, clock=clock, use_timer=False)
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen, clock


def later(screen: ColumnsScreen, clock: FakeClock, ticks: int = 1) -> None:
    clock.now += fall_seconds(screen.session.level) * ticks
    screen.catch_up()


async def test_on_a_fake_clock_fallers_land_rotate_and_missed_ticks_are_caught_up() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, clock = await clocked_game(pilot, ColumnsSession(6, 3, seed=11))
        clock.now += fall_seconds(1) / 2
        screen.catch_up()
        assert screen.session.field.faller is None  # not due yet: nothing happens
        later(screen, clock)
        faller = screen.session.field.faller
        assert faller is not None
        top, middle, bottom = faller.jewels
        await pilot.press("space")
        assert screen.session.field.faller.jewels == (bottom, top, middle)  # type: ignore[union-attr]
        later(screen, clock, ticks=5)  # five periods late: five ticks at once
        assert screen.session.field.landed
        await pilot.pause()
        assert f"|{top}|" in str(screen.query_one("#columns-field", Static).render())
        later(screen, clock)
        assert screen.session.field.faller is None


async def test_on_a_fake_clock_a_chain_scores_and_pause_stops_time() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        session = ColumnsSession(5, 3, seed=2)
        session.field = Field.with_contents(5, 3, ["   ", "Y  ", "Y  ", "SS ", "YTT"])
        session.field = session.field.create_faller(3, ("X", "X", "S"))
        screen, clock = await clocked_game(pilot, session)
        later(screen, clock, ticks=4)  # falls, lands, freezes: three S match
        await pilot.pause()
        assert "*S*" in str(screen.query_one("#columns-field", Static).render())
        await pilot.press("p")
        later(screen, clock, ticks=10)
        assert session.cleared == 0  # paused: nothing happened
        await pilot.press("p")
        later(screen, clock, ticks=2)  # S cleared, then the Y chain
        assert session.cleared == 6 and session.score > 60


async def test_random_keys_never_break_a_game_of_columns() -> None:
    rng = random.Random(14)
    keys = ["left", "right", "up", "down", "space", "p", "n", "question_mark", "escape", "x"]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot, rows="4", columns="3")
        for pressed in range(scaled(here=300, on_ci=350)):
            key = rng.choice(keys)
            if key == "escape" and isinstance(app.screen, ColumnsScreen):
                continue  # leaving would end the test early
            send_key(app, key)
            await asyncio.sleep(0.002)
            if pressed % 50 == 0:
                await pilot.pause()
                assert app._exception is None
        await pilot.pause()
        assert app._exception is None
        del screen


async def test_the_app_can_open_on_columns_setup_with_the_menu_underneath() -> None:
    """``C4App(start_columns=True)`` (``c4tui columns``): the setup first, Esc to the menu."""
    app = C4App(MatchSettings(ai_delay=0.0, seed=1), start_columns=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ColumnsSetup)
        assert [type(screen) for screen in app.screen_stack[1:]] == [MenuScreen, ColumnsSetup]
        await pilot.press("enter")  # the setup's defaults
        await pilot.pause()
        assert isinstance(app.screen, ColumnsScreen)


async def test_escape_from_the_columns_setup_opened_at_start_shows_the_menu() -> None:
    app = C4App(MatchSettings(ai_delay=0.0, seed=1), start_columns=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_columns_opened_at_start_wins_over_the_menus_game_options() -> None:
    """``c4tui --opponent easy columns``: the command asked for Columns, so Columns it is."""
    app = C4App(MatchSettings(ai_delay=0.0, seed=1), start_at_once=True, start_columns=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ColumnsSetup)


async def test_escape_from_a_game_under_way_asks_before_ending_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot)
        for _ in range(100):  # down until the first faller has landed
            await pilot.press("down")
            if any(any(row) for row in screen.session.field.cells):
                break
        await pilot.press("escape")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert "cannot be resumed" in str(dialog.query_one(Static).render())
        assert screen.paused  # the game waits for the answer
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and not screen.paused  # and goes on
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_q_in_a_columns_game_asks_first_as_connect_four_does() -> None:
    """Issue 40 #12: q quit at once from a Columns game under way."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_columns(pilot)
        await pilot.press("q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert "Columns game is not finished" in str(dialog.query_one(Static).render())
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and app.is_running  # no: the game goes on
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
