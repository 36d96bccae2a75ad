"""The position editor in the real app: discs stacked by key and mouse, taken off, the side
to move chosen, a won position refused saying why, and the position played against the
computer (which answers) or reviewed at its last move; Open takes a board picture to it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from c4tui.engine import Player, Rules
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HELP_TEXT
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.screens.position_editor import PositionEditor
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.widgets.board import Board
from tests.ui.fuzz_keys import send_key
from tests.ui.helpers import SIZE, make_app, play, settle, start_game, typed_into_open
from tests.ui.test_palette import choose

RED, YELLOW = Player.RED, Player.YELLOW
README = Path(__file__).resolve().parents[2] / "README.md"


async def editor_open(pilot: Pilot) -> PositionEditor:
    """Ctrl+T in the menu: the editor."""
    await pilot.pause()
    await pilot.press("ctrl+t")
    await pilot.pause()
    editor = pilot.app.screen
    assert isinstance(editor, PositionEditor)
    return editor


def said(editor: PositionEditor) -> str:
    """The panel's message, on one line."""
    return " ".join(str(editor.panel.query_one("#message", Static).render()).split())


def turn_line(editor: PositionEditor) -> str:
    return " ".join(str(editor.panel.query_one("#turn", Static).render()).split())


async def test_keys_stack_discs_and_backspace_takes_the_top_one_off() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        assert (editor.setup.columns, editor.setup.rows) == (7, 6)
        await pilot.press("enter")  # the side to move's disc, in the cursor's column (4)
        await pilot.press("y", "o", "1", "r", "x")
        await pilot.pause()
        assert editor.setup.stacks[3] == (RED, YELLOW, YELLOW)
        assert editor.setup.stacks[0] == (RED, RED)
        assert editor.board.state.cell(3, 2) is YELLOW  # what the board shows
        assert "3 red, 2 yellow" in said(editor) and "YELLOW to move" in turn_line(editor)
        await pilot.press("4", "backspace", "delete")
        await pilot.pause()
        assert editor.setup.stacks[3] == (RED,)
        assert "3 red, 0 yellow" in said(editor) and "Not playable" in said(editor)


async def test_a_click_stacks_a_disc_of_the_side_to_move_in_the_clicked_column() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        board = editor.board
        x = next(x for x in range(board.size.width) if board.column_at(x) == 1)
        await pilot.click(Board, offset=(x + 1, board.size.height // 2))
        await pilot.click(Board, offset=(x + 1, board.size.height // 2))
        await pilot.pause()
        assert editor.setup.stacks[1] == (RED, YELLOW)
        assert "RED to move" in turn_line(editor)


async def test_a_full_column_or_an_empty_one_is_said_and_nothing_changes() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("1", *["enter"] * 5)
        await pilot.pause()
        assert len(editor.setup.stacks[0]) == 4
        assert said(editor).startswith("Column 1 is full.")
        await pilot.press("2", "backspace")
        await pilot.pause()
        assert said(editor).startswith("Column 2 is empty.")


async def test_a_won_position_is_refused_saying_who_has_four_and_where() -> None:
    app = make_app(opponent="computer", options={"level": "random"})
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        for column in "123":
            await pilot.press(column, "r", "y")
        await pilot.press("4", "r")
        await pilot.pause()
        assert said(editor) == (
            "4 red, 3 yellow. Not playable: RED already has four in a row at a1–d1: "
            "a won position cannot be played on."
        )
        for key in ("p", "a"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is editor  # nothing is played or reviewed
        await pilot.press("backspace")  # the fourth disc off: playable again
        await pilot.pause()
        assert said(editor) == "3 red, 3 yellow. Playable: p plays it, a analyses it."


async def test_t_chooses_who_moves_and_the_panel_says_when_the_discs_disagree() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("t")
        await pilot.pause()
        assert editor.setup.turn is YELLOW and "YELLOW to move" in turn_line(editor)
        assert "with 0 red and 0 yellow discs, RED is to move" in said(editor)
        await pilot.press("t")
        await pilot.pause()
        assert "Playable" in said(editor)


async def test_play_from_a_set_up_position_against_the_computer_which_answers() -> None:
    app = make_app(opponent="computer", options={"level": "random"})
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("4", "r", "r", "3", "y")  # yellow to move: the person is yellow
        await pilot.pause()
        assert editor.setup.turn is YELLOW
        await pilot.press("p")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        driver = game.driver
        assert len(driver.moves) == 3 and driver.state.turn is YELLOW
        assert driver.seats[YELLOW].submits and not driver.seats[RED].submits
        assert driver.state.cell(3, 1) is RED and driver.state.cell(2, 0) is YELLOW
        await pilot.press("1", "enter")
        await settle(pilot)
        assert len(driver.moves) == 5  # ours, then the computer's answer
        assert driver.state.cell(0, 0) is YELLOW and driver.state.turn is YELLOW


async def test_leaving_the_game_goes_back_to_the_editor_and_esc_there_to_the_menu() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("enter", "p")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_analyse_reviews_the_position_at_its_last_move() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("enter", "enter", "enter")
        await pilot.pause()
        assert editor.setup.stacks[3] == (RED, YELLOW, RED)
        await pilot.press("a")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.at == 3
        assert review.board.state.cell(3, 2) is RED
        assert review.board.state.rules is Rules.POPOUT


async def test_play_is_refused_for_an_opponent_that_starts_from_the_empty_board() -> None:
    app = make_app(opponent="network")
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("p")
        await pilot.pause()
        assert app.screen is editor
        assert "Network server cannot take up a set-up position" in said(editor)


async def test_open_with_a_board_picture_loads_it_into_the_editor() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = await typed_into_open(pilot, "..../..../x.../xo.o")
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PositionEditor) and dialog is not editor
        assert (editor.setup.columns, editor.setup.rows, editor.setup.rules) == (
            4,
            4,
            Rules.POPOUT,
        )
        assert editor.setup.stacks == ((RED, RED), (YELLOW,), (), (YELLOW,))
        assert "Playable" in said(editor) and "RED to move" in turn_line(editor)


async def test_c_copies_the_board_picture_that_open_takes_back() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        await pilot.press("1", "r", "2", "y", "y", "c")
        await pilot.pause()
        assert app.clipboard == "..../..../.o../xo.."
        assert said(editor).startswith("The board picture is copied")
        set_up = editor.setup
        await pilot.press("escape")
        await pilot.pause()
        await typed_into_open(pilot, app.clipboard)
        await pilot.press("enter")
        await pilot.pause()
        reopened = app.screen
        assert isinstance(reopened, PositionEditor) and reopened.setup == set_up


async def test_a_picture_opened_from_a_game_sets_it_up_and_the_game_waits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await start_game(pilot)
        await play(pilot, "d4")
        await choose(pilot, "open a")  # Open, from the game's palette
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        dialog.query_one(Input).value = "......./......./......./......./......./..ox..."
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PositionEditor)
        assert editor.setup.stacks[2] == (YELLOW,) and editor.setup.stacks[3] == (RED,)
        assert app.games.resumable() is not None  # the game played waits under Resume
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is game and len(game.driver.moves) == 1


async def test_open_says_what_is_wrong_with_a_picture() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = await typed_into_open(pilot, "......./......./......./......./......./...z...")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        status = " ".join(str(dialog.query_one("#open-status", Static).render()).split())
        assert "line 6 of the picture: 'z' is not a cell" in status


async def test_a_pasted_picture_keeps_its_rows() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        field = (await typed_into_open(pilot, "")).query_one(Input)
        await pilot.pause()
        field.post_message(
            events.Paste("1  2  3  4\n.  .  .  .\n.  .  .  .\n.  .  .  .\nR  .  .  .\n")
        )
        await pilot.pause()
        assert field.value == "1  2  3  4/.  .  .  ./.  .  .  ./.  .  .  ./R  .  .  ."
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PositionEditor)
        assert editor.setup.stacks[0] == (RED,) and editor.setup.turn is YELLOW


@pytest.mark.parametrize("where", ["help", "README"])
def test_the_help_and_the_readme_tell_the_editors_keys(where: str) -> None:
    text = HELP_TEXT if where == "help" else README.read_text(encoding="utf-8")
    words = " ".join(text.split())
    for said in ("Ctrl+T", "board picture", "Backspace or Delete", "side to move", "review"):
        assert said in words, said


async def test_a_visitor_opens_a_board_picture_too() -> None:
    """A browser visitor types no file names, but a picture is no file: it opens."""
    app = C4App(visitor_servers=())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await typed_into_open(pilot, "..../..../..../.x..")
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PositionEditor)
        assert editor.setup.stacks[1] == (RED,)


EDITOR_KEYS = [*"0123456789rxyotpa?", "left", "right", "enter", "space", "backspace", "delete"]


async def test_random_keys_in_the_editor_never_crash_it() -> None:
    """Whatever is pressed (a game or a review opened by p or a, and left again), the app
    stands, and every disc in the editor rests on another or on the bottom."""
    rng = random.Random(20261203)
    app = make_app(opponent="computer", options={"level": "random"}, columns=5, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        editor = await editor_open(pilot)
        for pressed in range(1, 401):
            for _ in range(3):  # a game, a review (whose Esc plays on) or help: leave them
                if app.screen is editor:
                    break
                await settle(pilot)
                await pilot.press("escape")
                await settle(pilot)
            send_key(app, rng.choice(EDITOR_KEYS))
            await asyncio.sleep(0.002)
            if pressed % 25 == 0:
                await pilot.pause()
                assert app._exception is None, f"after {pressed} keys"
                shown, held = editor.board.state, editor.setup.state()
                assert (shown.red, shown.yellow) == (held.red, held.yellow)
        await pilot.pause()
    assert app._exception is None


async def test_set_up_takes_the_menus_board_and_points_at_a_size_that_wont_do() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        menu.query_one("#columns", Input).value = "3"
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.screen is menu
        assert "Columns must be a whole number from 4 to 20" in str(
            menu.query_one("#size-error", Static).render()
        )
        menu.query_one("#columns", Input).value = "9"
        menu.query_one("#rows", Input).value = "5"
        await pilot.press("ctrl+t")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PositionEditor)
        assert (editor.setup.columns, editor.setup.rows) == (9, 5)
