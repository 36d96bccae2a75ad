"""Named saves: s asks a name (when it was saved, offered), explains a bad one, asks before
replacing a save, and Open lists the game under its name; the review's s does the same."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from c4tui.records import parse_record
from c4tui.records.store import given_name, saved_games, saved_games_folder
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.screens.save_name import SaveNameDialog
from c4tui.ui.widgets.phrasing import shortened
from tests.ui.helpers import SIZE, make_app, play, start_game, unbroken


def message(screen: GameScreen | ReviewScreen) -> str:
    return str(screen.panel.query_one("#message", Static).render())


async def save_dialog(pilot: Pilot[None]) -> SaveNameDialog:
    await pilot.press("s")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveNameDialog)
    return dialog


async def type_name(pilot: Pilot[None], name: str) -> None:
    """Type ``name`` over the one offered (it is selected: typing replaces it), then Enter."""
    await pilot.press(*name, "enter")
    await pilot.pause()


async def retype(pilot: Pilot[None], dialog: SaveNameDialog, name: str) -> None:
    """Put ``name`` in the field (after a refusal it keeps what was typed), then Enter."""
    dialog.query_one(Input).value = ""
    await type_name(pilot, name)


def status(dialog: SaveNameDialog) -> str:
    return str(dialog.query_one("#save-status", Static).render())


def saved_moves(name: str) -> list[str]:
    record = parse_record((saved_games_folder() / f"{name}.c4g").read_text())
    return [str(move) for move in record.moves]


async def test_enter_keeps_the_name_offered_and_esc_saves_nothing() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4")
        await save_dialog(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and saved_games() == [] and "Saved" not in message(screen)
        dialog = await save_dialog(pilot)
        offered = dialog.query_one(Input).value
        await pilot.press("enter")
        await pilot.pause()
        [path] = saved_games()
        assert path.stem == offered and given_name(path) is None  # named when it was saved
        width = screen.panel.content_size.width  # the name is shortened to fit it whole
        assert f"Saved: {shortened(path.stem, width)}" in unbroken(message(screen))


async def test_a_name_given_is_the_file_name_and_open_lists_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4 d5")
        await save_dialog(pilot)
        await type_name(pilot, "endgame study")
        assert saved_moves("endgame study") == ["d4", "d5"]
        await pilot.press("escape", "ctrl+o")  # the menu, then Open
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        [listed] = dialog.query_one(OptionList).options
        assert str(listed.prompt).startswith("endgame study · ")


async def test_a_name_no_file_can_have_is_explained_and_asked_again() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4")
        dialog = await save_dialog(pilot)
        await type_name(pilot, "a/b")
        assert app.screen is dialog and "cannot have /" in status(dialog)
        await retype(pilot, dialog, ".hidden")
        assert app.screen is dialog and "cannot start with a dot" in status(dialog)
        await retype(pilot, dialog, "   ")
        assert app.screen is dialog and "Type a name" in status(dialog)
        assert saved_games() == []
        await retype(pilot, dialog, "[b]ok[i]")  # brackets are fine, and not markup
        assert saved_moves("[b]ok[i]") == ["d4"]


async def test_a_name_saved_already_asks_before_replacing_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4")
        await save_dialog(pilot)
        await type_name(pilot, "[b]mine")
        await play(pilot, "d5")
        dialog = await save_dialog(pilot)
        await type_name(pilot, "[b]mine")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # keep the old one: asked again
        await pilot.pause()
        assert app.screen is dialog and "“[b]mine” is kept" in status(dialog)
        assert saved_moves("[b]mine") == ["d4"]
        await pilot.press("enter")  # the name is still there: asked again
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is screen and saved_moves("[b]mine") == ["d4", "d5"]
        assert len(saved_games()) == 1


async def test_the_review_saves_by_name_too() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4 d5 d6")
        await pilot.press("v")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await save_dialog(pilot)
        await type_name(pilot, "reviewed")
        assert app.screen is review and "Saved: reviewed" in unbroken(message(review))
        assert saved_moves("reviewed") == ["d4", "d5", "d6"]
