"""Rated or casual, and the clock, picked in the menu for the lobby's games (issue 29, item 2).

``MatchSettings.terms`` is what the lobby screen asks CREATE, QUICKPLAY and
CHALLENGE with; the choices are remembered with the rest of the menu's.
"""

from __future__ import annotations

from c4tui.match.settings import MatchSettings
from c4tui.protocols.terms import CASUAL, Clock, Terms
from c4tui.ui.preferences import game_from_json, game_to_json
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import SIZE, make_app

ONLINE = {"host": "127.0.0.1", "port": "4444", "user": "zoe"}


def test_terms_follow_the_options_and_default_to_casual_without_a_clock() -> None:
    assert MatchSettings().terms == CASUAL
    assert MatchSettings(opponent="online").terms == CASUAL
    rated_blitz = MatchSettings(opponent="online", options={"rated": "yes", "clock": "3+2"})
    assert rated_blitz.terms == Terms(rated=True, clock=Clock(3, 2))
    assert MatchSettings(options={"rated": "no", "clock": "none"}).terms == CASUAL


def test_the_terms_are_remembered_with_the_menus_other_choices() -> None:
    chosen = MatchSettings(opponent="online", options={**ONLINE, "rated": "yes", "clock": "15+10"})
    kept = game_from_json(game_to_json(chosen))
    assert kept is not None
    assert kept.terms == Terms(rated=True, clock=Clock(15, 10))
    assert "host" not in kept.options  # typed values are asked again, as before


async def test_the_online_menu_offers_rated_and_the_clocks_and_starts_with_them() -> None:
    app = make_app(opponent="online", options=ONLINE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        rated = menu.query_one("#option-online-rated", ChoiceSet)
        clock = menu.query_one("#option-online-clock", ChoiceSet)
        assert rated.display and clock.display
        rated.chosen = 1
        clock.chosen = 3  # None, 1+0, 3+2, 5+3
        await pilot.pause()
        settings = menu.settings()
        assert settings is not None
        assert settings.terms == Terms(rated=True, clock=Clock(5, 3))
        assert settings.options["host"] == "127.0.0.1"  # the login dialog's values are kept
        menu.query_one("#mode", ChoiceSet).chosen = 1  # the computer: no terms to pick
        await pilot.pause()
        assert not rated.display and not clock.display


def test_menu_online_with_terms(snap_compare) -> None:
    app = make_app(opponent="online", options={**ONLINE, "rated": "yes", "clock": "3+2"})
    assert snap_compare(app, terminal_size=SIZE)
