"""The menu remembers the last game's choices across runs, and follows the game you left
(issue 27, item 12)."""

from __future__ import annotations

import pytest

from c4tui.engine import Player, Rules
from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.preferences import Preferences, load_preferences, preferences_path
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from tests.ui.helpers import SIZE, make_app, settle

PERFECT_YELLOW_9_BY_7 = MatchSettings(
    opponent="computer",
    options={"level": "perfect"},
    columns=9,
    rows=7,
    rules=Rules.POPOUT,
    person_colour=Player.YELLOW,
    ai_delay=0.0,
    seed=1,
)


async def play_perfect_as_yellow_on_9_by_7() -> None:
    """A first run of the app: a game started from the command line, finished."""
    first = C4App(PERFECT_YELLOW_9_BY_7, start_at_once=True)
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = first.screen
        assert isinstance(game, GameScreen)
        game.driver.resign(Player.YELLOW, "done")  # nothing kept to resume
        await settle(pilot)


def shown(app: C4App) -> MatchSettings:
    """The settings the menu on screen would start."""
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    settings = menu.settings()
    assert settings is not None
    return settings


async def test_the_last_game_is_offered_at_the_next_start() -> None:
    await play_perfect_as_yellow_on_9_by_7()
    second = make_app()  # the menu's defaults, as ``c4tui`` without options gives
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        settings = shown(second)
        assert settings.opponent == "computer" and settings.options["level"] == "perfect"
        assert (settings.columns, settings.rows) == (9, 7)
        assert settings.rules is Rules.POPOUT
        assert settings.person_colour is Player.YELLOW
        assert settings.seed == 1  # the pace and seed are still the run's own


async def test_command_line_choices_win_over_the_remembered_ones() -> None:
    await play_perfect_as_yellow_on_9_by_7()
    second = C4App(MatchSettings(columns=8, ai_delay=0.0), start_at_once=True)
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = second.screen
        assert isinstance(game, GameScreen)
        assert (game.settings.opponent, game.settings.columns) == ("human", 8)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        '{"last_game": "perfect"}',
        '{"last_game": {"opponent": "nobody", "columns": 7, "rows": 6,'
        ' "rules": "classic", "colour": "red"}}',
        '{"last_game": {"opponent": "computer", "columns": 99, "rows": 6,'
        ' "rules": "classic", "colour": "red"}}',
        '{"last_game": {"opponent": "computer", "columns": 7, "rows": 6,'
        ' "rules": "sideways", "colour": "blue", "options": {"level": "godlike"}}}',
        "\udcff",
    ],
)
async def test_a_corrupt_preferences_file_gives_the_menus_defaults(text: str) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert load_preferences() == Preferences()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert shown(app) == MatchSettings(ai_delay=0.0, seed=1)


def test_an_unknown_level_is_left_out_but_the_rest_kept() -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '{"last_game": {"opponent": "computer", "columns": 8, "rows": 6,'
        ' "rules": "popout", "colour": "yellow", "options": {"level": "godlike"}}}'
    )
    last = load_preferences().last_game
    assert last is not None and last.options == {} and last.columns == 8
