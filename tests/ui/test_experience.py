"""Rough edges a new player met (issue 12), each pinned by a test through the real app."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import Footer, Input

from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.widgets.menu_button import MenuButton
from c4tui.ui.widgets.move_list import MoveList
from c4tui.ui.widgets.title_bar import TitleBar
from tests.ui.helpers import SIZE, make_app, play, settle, start_game
from tests.ui.test_help_words import assert_says_when_labels_are_proven
from tests.ui.test_lobby_app import until


def message(app) -> str:
    return str(app.screen.query_one("#message").render())


async def test_help_says_at_once_how_to_close_it_and_keeps_its_footer() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query(Footer)  # "esc Close help" stays in view
        markdown = app.screen.query_one("Markdown")
        assert "Esc or ? closes this help" in markdown.source.splitlines()[0]
        assert_says_when_labels_are_proven(" ".join(markdown.source.split()))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_a_hint_asked_for_at_the_wrong_time_says_why() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")
        await pilot.press("h")
        await pilot.pause()
        assert "The game is over: no hint to give." in message(app)
        assert "esc: menu" in message(app)  # as the footer calls it, not "m: menu"
        assert screen.driver.is_over


async def test_enter_ends_a_column_number_so_quick_typing_plays_what_was_typed() -> None:
    app = make_app(columns=12, rows=6)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("1", "enter", "2", "enter")  # column 1, then column 2: not 12
        await settle(pilot)
        assert [m.column for m in screen.driver.moves] == [0, 1]


async def test_the_move_list_follows_a_long_game() -> None:
    app = make_app(columns=12, rows=12)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        # Three full rows, colours alternating in every row and column: no four anywhere.
        await play(pilot, " ".join(f"d{c}" for c in list(range(1, 13)) * 3))
        await settle(pilot)
        moves = screen.query_one("#moves", MoveList)
        assert moves.max_scroll_y > 0  # the list is longer than its box…
        assert moves.scroll_y == moves.max_scroll_y  # …and the newest moves are in view


async def test_an_empty_size_field_is_explained_once_in_words() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#columns", Input).value = ""
        await pilot.press("enter")
        await pilot.pause()
        error = str(app.screen.query_one("#size-error").render())
        assert error == "Columns must be a whole number from 4 to 20 (the field is empty)."
        assert not app._notifications  # said once, next to the field, not again in a toast


async def test_the_app_can_open_straight_into_a_game_with_the_menu_one_key_away() -> None:
    from c4tui.match.settings import MatchSettings
    from c4tui.ui.app import C4App
    from c4tui.ui.screens.game import GameScreen
    from c4tui.ui.screens.menu import MenuScreen

    app = C4App(MatchSettings(columns=5, rows=4, ai_delay=0.0), start_at_once=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.driver.state.columns == 5
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_the_disc_in_the_title_bar_opens_the_command_palette() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        title = app.screen.query_one(TitleBar)
        assert "c4tui — Connect Four" in str(title.render())
        await pilot.click(TitleBar, offset=(30, 0))  # the name: nothing happens
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)
        await pilot.click(TitleBar, offset=(1, 0))  # the disc
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_the_menu_buttons_press_with_a_click_or_space() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        await pilot.click("#open")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is menu
        button = menu.query_one("#open", MenuButton)
        button.focus()
        await until(pilot, lambda: not button.has_class("-pressed"))  # the click has faded
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
