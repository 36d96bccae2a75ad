"""Themes: c4tui's own are offered, one chosen in the command palette is kept for next time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

from c4tui.ui.preferences import Preferences, load_preferences, preferences_path, save_preferences
from c4tui.ui.themes import DEFAULT_THEME, THEMES
from tests.ui.helpers import SIZE, make_app


async def choose_theme_in_the_palette(pilot: Pilot, words: str) -> None:
    """Ctrl+P, "Change theme", then the theme found by typing ``words``, as a person would."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"theme")
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause(0.3)
    await pilot.press(*words)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()


async def test_a_first_start_uses_the_default_theme_and_offers_all_of_ours() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        assert {theme.name for theme in THEMES} <= set(app.available_themes)
    assert not preferences_path().exists()  # nothing chosen, nothing written


async def test_a_theme_chosen_in_the_palette_is_used_at_the_next_start() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await choose_theme_in_the_palette(pilot, "c4tui-colour")
        assert app.theme == "c4tui-colour-blind"
    assert load_preferences() == Preferences(theme="c4tui-colour-blind")
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "c4tui-colour-blind"


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe", b"[1, 2]", b'{"theme": 7}', b'{"theme": "no-such-theme"}'],
    ids=["broken", "not-text", "not-an-object", "not-a-name", "unknown-theme"],
)
async def test_a_preferences_file_that_cannot_be_used_gives_the_default(content: bytes) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME


def test_preferences_are_written_whole_with_nothing_left_beside_them(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "preferences.json"
    save_preferences(Preferences(theme="c4tui-light"), path)
    save_preferences(Preferences(theme="c4tui-dark"), path)
    assert load_preferences(path) == Preferences(theme="c4tui-dark")
    assert [entry.name for entry in path.parent.iterdir()] == ["preferences.json"]


def test_no_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_preferences(tmp_path / "missing.json") == Preferences()


def test_preferences_live_in_the_config_folder() -> None:
    save_preferences(Preferences(theme="c4tui-light"))
    assert preferences_path().parent == Path(os.environ["XDG_CONFIG_HOME"]) / "c4tui"
    assert load_preferences() == Preferences(theme="c4tui-light")


async def test_a_preferences_file_in_the_data_folder_is_moved_on_the_first_start() -> None:
    old = Path(os.environ["XDG_DATA_HOME"]) / "c4tui" / "preferences.json"
    save_preferences(Preferences(theme="c4tui-light"), old)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "c4tui-light"
    assert not old.exists()
    assert load_preferences(preferences_path()) == Preferences(theme="c4tui-light")
