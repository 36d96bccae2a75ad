"""A timed game here in the app (issue 40, clocks at home): the menu's row, both clocks running,
the flag's end, and what is kept of the clock."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from c4tui.engine import Move, Rules
from c4tui.match.record import settings_to_continue
from c4tui.match.settings import MatchSettings
from c4tui.match.timing import HomeClock
from c4tui.records import GameRecord
from c4tui.ui.preferences import game_from_json, game_to_json
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from c4tui.ui.widgets.game_clocks import GameClocks
from tests.ui.helpers import SIZE, make_app, play, start_game
from tests.ui.test_lobby_app import text_of, until


def _times(pilot: Pilot) -> list[str]:
    """The two clocks' times as shown (RED's, YELLOW's)."""
    return [line.split()[-1] for line in text_of(pilot, "#clocks").splitlines()]


async def test_both_clocks_run_beside_the_board_and_a_move_adds_the_increment() -> None:
    app = make_app(opponent="computer", options={"level": "random"}, clock=HomeClock(60_000, 5000))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        clocks = screen.query_one("#clocks", GameClocks)
        assert clocks.display
        lines = text_of(pilot, "#clocks").splitlines()
        assert "You" in lines[0] and "Compute" in lines[1]  # its name cut to fit the panel
        await until(pilot, lambda: _times(pilot)[0] == "0:59")  # red's runs, live
        assert _times(pilot)[1] == "1:00"  # the computer's waits
        await play(pilot, "d4")  # and the computer answers at once
        assert len(screen.driver.moves) == 2
        red, yellow = _times(pilot)
        assert red in ("1:04", "1:03", "1:02", "1:01"), red  # under 0:59, then five added
        assert yellow in ("1:05", "1:04"), yellow  # its thinking took a moment, five added


async def test_undo_is_refused_in_a_timed_game_saying_why() -> None:
    app = make_app(clock=HomeClock(60_000, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4")
        await pilot.press("u")
        await pilot.pause()
        assert len(screen.driver.moves) == 1
        said = text_of(pilot, "#message")
        assert said == "No undo in a timed game: the clocks cannot give time back."


async def test_the_flag_ends_the_game_and_the_panel_says_who_ran_out() -> None:
    app = make_app(clock=HomeClock(1000, 0))  # two players, one second each; nobody moves
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert isinstance(screen, GameScreen)
        await until(pilot, lambda: screen.driver.result is not None, seconds=20)
        await pilot.pause()
        assert text_of(pilot, "#message").startswith("Red ran out of time: Yellow wins.")
        assert "YELLOW wins on time" in text_of(pilot, "#turn")
        assert _times(pilot) == ["!0:00.0", "!0:01.0"]
        assert screen.query_one("#clocks", GameClocks).reading.mover is None  # type: ignore[union-attr]


async def test_the_menus_clock_is_for_games_here_and_offers_the_one_given() -> None:
    app = make_app(clock=HomeClock(30_000, 0))  # c4tui --clock 0.5+0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        clock = menu.query_one("#clock", ChoiceSet)
        assert clock.labels == ("None", "1+0", "3+2", "5+3", "10+5", "15+10", "0.5+0")
        assert clock.pressed_index == 6
        modes = menu.query_one("#mode", ChoiceSet)
        for mode, here in [("Two players", True), ("Computer", True), ("Network server", False)]:
            modes.chosen = modes.labels.index(mode)
            await pilot.pause()
            assert clock.display is here, mode
            settings = menu.settings()
            assert settings is not None
            assert settings.clock == (HomeClock(30_000, 0) if here else None), mode
        modes.chosen = modes.labels.index("Computer")
        clock.chosen = clock.labels.index("3+2")
        await pilot.pause()
        settings = menu.settings()
        assert settings is not None and settings.clock == HomeClock(180_000, 2000)


@pytest.mark.parametrize(
    ("kept", "clock"),
    [("0.5+0", HomeClock(30_000, 0)), (None, None), ("fast", None), (7, None)],
)
def test_the_last_games_clock_is_remembered_and_a_bad_one_forgotten(
    kept: object, clock: HomeClock | None
) -> None:
    saved = game_to_json(MatchSettings(opponent="computer", clock=HomeClock(30_000, 0)))
    assert saved["clock"] == "0.5+0"
    settings = game_from_json({**saved, "clock": kept})
    assert settings is not None and settings.opponent == "computer" and settings.clock == clock


def test_a_timed_game_kept_for_the_next_start_goes_on_untimed() -> None:
    """A record keeps no clock's times: Resume at the next start plays on without one."""
    record = GameRecord(7, 6, Rules.CLASSIC, (Move.drop(3),), opponent="computer")
    base = MatchSettings(clock=HomeClock(180_000, 2000))  # as --clock 3+2 gives
    assert settings_to_continue(record, base).clock is None
