"""The palette in a game (issue 40 #11): Screenshot saves into c4tui's data folder and says
where, or where it could not write and why; Textual's Keys and Maximize are not offered."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from c4tui.ui.screenshots import screenshot_folder
from tests.ui.helpers import SIZE, make_app, start_game
from tests.ui.test_lobby_app import until
from tests.ui.test_palette import choose, palette_names


def told(pilot: Pilot[None]) -> list[str]:
    """What the notifications on screen say."""
    return [note.message for note in pilot.app._notifications]


async def test_a_game_offers_no_keys_panel_and_no_maximize() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "Keys" in await palette_names(pilot)  # the menu keeps Textual's commands
        await pilot.press("escape")
        await pilot.pause()
        await start_game(pilot)
        names = await palette_names(pilot)
        assert "Screenshot" in names and "Theme" in names
        assert not {"Keys", "Maximize", "Minimize"} & set(names)


async def test_screenshot_saves_into_the_data_folder_and_says_where() -> None:
    """Textual wrote into ~/Downloads, and where that was missing said only that it failed."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await choose(pilot, "screenshot")
        await until(pilot, lambda: any(screenshot_folder().glob("*.svg")))
        [saved] = screenshot_folder().glob("*.svg")
        assert "<svg" in saved.read_text(encoding="utf-8")
        await until(pilot, lambda: f"Saved as {saved}" in told(pilot))


async def test_a_screenshot_that_cannot_be_written_says_where_and_why() -> None:
    folder = screenshot_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the folder would go", encoding="utf-8")
    app = make_app()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot)
            await choose(pilot, "screenshot")
            said = f"Could not save the screenshot in {folder}: "
            await until(pilot, lambda: any(note.startswith(said) for note in told(pilot)))
            [note] = [note for note in app._notifications if note.message.startswith(said)]
            assert note.severity == "error" and "exists" in note.message
    finally:
        Path(folder).unlink()
