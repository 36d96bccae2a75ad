"""The menu's Colour for the lobby (spec §5.6): the rooms you create and the challenges you send.

Quick play stays random whatever the menu says: the colour is the creator's or the
challenger's to choose, and quick play pairs people who chose nothing.
"""

from __future__ import annotations

from pathlib import Path

from c4tui.match.settings import MatchSettings
from c4tui.protocols.colours import Colour
from c4tui.ui.preferences import game_from_json, game_to_json
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from c4tui.ui.widgets.player_table import PlayerTable
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import text_of, until
from tests.ui.test_lobby_standing_app import zoe_in_the_lobby
from tests.ui.test_menu_terms import ONLINE

YELLOW = {"colour": "yellow"}


def test_the_colour_follows_the_option_and_is_remembered_red_by_default() -> None:
    assert MatchSettings(opponent="online").lobby_colour is Colour.RED
    chosen = MatchSettings(opponent="online", options={**ONLINE, "colour": "random"})
    assert chosen.lobby_colour is Colour.RANDOM
    kept = game_from_json(game_to_json(chosen))
    assert kept is not None and kept.lobby_colour is Colour.RANDOM


async def test_the_online_menu_offers_the_colour_and_starts_with_it() -> None:
    app = make_app(opponent="online", options=ONLINE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        colour = menu.query_one("#option-online-colour", ChoiceSet)
        assert colour.display
        colour.chosen = 1  # Red, Yellow, Random
        await pilot.pause()
        settings = menu.settings()
        assert settings is not None and settings.lobby_colour is Colour.YELLOW


async def test_c_creates_a_room_as_yellow_and_the_joiner_is_red(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, YELLOW) as (_, pilot, ann):
        help_line = text_of(pilot, "#lobby-help")
        assert "4 × 4 Classic, casual (your menu choice; you play yellow in" in help_line
        await pilot.press("c")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        assert "(4 × 4 Classic, casual, you play yellow) is open" in text_of(pilot, "#lobby-status")
        assert await ann.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:ann:zoe:4:4:classic"


async def test_a_challenge_asks_for_the_menus_colour(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, YELLOW) as (app, pilot, ann):
        app.screen.query_one(PlayerTable).focus()  # ann's row is the first
        await pilot.press("c")
        assert await ann.line() == "CHALLENGED:zoe:4:4:classic:casual:-"
        await until(
            pilot, lambda: "you play yellow): waiting for ann" in text_of(pilot, "#lobby-status")
        )
        assert await ann.ask("ACCEPT:zoe") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:ann:zoe:4:4:classic"


async def test_quick_play_stays_random_whatever_the_menus_colour(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, YELLOW) as (_, pilot, ann):
        await pilot.press("g")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        # ann wishes for yellow: she meets zoe only if zoe asked for no colour.
        answer = await ann.ask("QUICKPLAY:4:4:classic:yellow")
        assert answer.startswith("QUICKPLAY:ACKSTATUS:0:")
        assert await ann.line() == "BEGIN:zoe:ann:4:4:classic"
