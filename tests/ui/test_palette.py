"""The game's actions in the command palette (Ctrl+P): each runs what its key runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from c4tui.engine import Player
from c4tui.records import parse_record
from c4tui.records.store import saved_games
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.screens.save_name import SaveNameDialog
from c4tui.ui.widgets.phrasing import shortened
from tests.ui.helpers import SIZE, make_app, play, settle, start_game, unbroken


def message(screen: GameScreen) -> str:
    return str(screen.panel.query_one("#message", Static).render())


async def palette_names(pilot: Pilot[None]) -> list[str]:
    """Open the palette; the names of the commands it lists before anything is typed."""
    await pilot.press("ctrl+p")
    await pilot.pause(0.3)
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    return [str(option.prompt).split("\n")[0] for option in palette.query_one(CommandList).options]


async def choose(pilot: Pilot[None], typed: str) -> None:
    """Open the palette, type ``typed`` and pick the one command it matches."""
    await pilot.press("ctrl+p")
    await pilot.pause(0.3)
    await pilot.press(*typed)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await settle(pilot)


async def test_the_palette_lists_the_game_actions_and_one_theme_command() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        names = await palette_names(pilot)
        game = ["New game", "Rematch", "Save", "Open a saved game", "Analysis on/off"]
        game += ["Hint", "Review", "Undo", "Redo"]
        assert [name for name in names if name in game] == game
        assert names.count("Theme") == 1  # Textual's own, which offers c4tui's themes


async def test_rematch_from_the_palette_asks_first_and_swaps_the_colours() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4")
        await choose(pilot, "rematch")
        assert isinstance(app.screen, ConfirmDialog)  # as r asks mid-game
        await pilot.press("y")
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen) and rematch is not screen
        assert rematch.settings.person_colour is Player.YELLOW


async def test_save_from_the_palette_asks_the_name_and_saves() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5")
        await choose(pilot, "save")
        assert isinstance(app.screen, SaveNameDialog)
        await pilot.press("enter")
        await pilot.pause()
        [path] = saved_games()
        width = screen.panel.content_size.width  # the name is shortened to fit it whole
        assert f"Saved: {shortened(path.stem, width)}" in unbroken(message(screen))


async def test_undo_and_redo_from_the_palette_say_why_not_as_their_keys_do() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await choose(pilot, "redo")
        assert message(screen) == "Nothing to redo"
        await play(pilot, "d4 d5")
        await choose(pilot, "undo")
        assert [str(move) for move in screen.driver.moves] == ["d4"]
        await choose(pilot, "redo")
        assert [str(move) for move in screen.driver.moves] == ["d4", "d5"]


async def test_a_finished_game_leaves_analysis_out_and_says_why_nothing_is_undone() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")
        names = await palette_names(pilot)
        assert "Analysis on/off" not in names and "Undo" in names
        await pilot.press("escape")
        await choose(pilot, "undo")
        assert message(screen).startswith("The game is over: nothing to undo.")


async def test_open_from_the_palette_reviews_a_saved_game_and_this_one_waits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5")
        await pilot.press("s", "enter")
        await play(pilot, "d6")
        await choose(pilot, "open a")
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        await pilot.press("escape")  # changed one's mind: back to the game
        await pilot.pause()
        assert app.screen is screen
        await choose(pilot, "open a")
        app.screen.query_one(OptionList).focus()
        await pilot.press("enter")  # the game saved after two moves
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and len(review._game.moves) == 2
        assert app.games.resumable() is not None  # the game played waits under Resume
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is screen and len(screen.driver.moves) == 3


async def test_download_record_in_the_palette_puts_the_game_in_the_downloads_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser visitor's saves stay on the server (issue 40 #21): the palette's "Download
    record" hands the game over (in a browser, as a download; at a terminal, a copy in
    the downloads folder, which the panel names)."""
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:  # a panel wide enough for the name
        screen = await start_game(pilot)
        await play(pilot, "d4 d3 d4")
        assert "Download record" in await palette_names(pilot)
        await pilot.press("escape")
        await choose(pilot, "download record")
        [copy] = tmp_path.glob("*.c4g")
        assert "".join(str(move.column + 1) for move in parse_record(copy.read_text()).moves) == (
            "434"
        )
        assert copy.name in message(screen)
        assert saved_games() == []  # a copy handed over, not a save
