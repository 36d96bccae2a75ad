"""Contrast as the terminal shows it: text 4.5:1, discs and marks 3:1, in every colour mode.

Each mode runs the real app through the menu, a game (red and yellow discs, the cursor
over them, both players' turn lines, an error, Pop mode, a win) and the help screen,
and measures every run of text on screen (tests/ui/on_screen.py says how).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from c4tui.engine import Rules
from tests.ui.helpers import SIZE, make_app, play, settle, start_game
from tests.ui.on_screen import screen_lines, too_faint

#: (theme, colour mode): the default theme in colour, without colour and in 16
#: colours; the light and the colour-blind-safe themes in colour and without.
MODES = [
    ("c4tui-dark", "truecolor"),
    ("c4tui-dark", "no-color"),
    ("c4tui-dark", "16-colours"),
    ("c4tui-light", "truecolor"),
    ("c4tui-light", "no-color"),
    ("c4tui-colour-blind", "truecolor"),
]


def set_colour_mode(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """The environment a terminal in ``mode`` gives (Textual reads it when the app is made)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_COLOR_SYSTEM", raising=False)
    if mode == "16-colours":
        monkeypatch.setenv("TERM", "xterm")
        monkeypatch.delenv("COLORTERM", raising=False)
    else:
        monkeypatch.setenv("TERM", "xterm-256color")
        monkeypatch.setenv("COLORTERM", "truecolor")
    if mode == "no-color":
        monkeypatch.setenv("NO_COLOR", "1")


async def faint_on(pilot: Pilot, where: str) -> list[str]:
    await pilot.pause()
    return [f"{where}: {problem}" for problem in too_faint(pilot.app)]


@pytest.mark.parametrize(("theme", "mode"), MODES, ids=[f"{t}-{m}" for t, m in MODES])
async def test_text_and_discs_stand_out_in_every_colour_mode(
    monkeypatch: pytest.MonkeyPatch, theme: str, mode: str
) -> None:
    set_colour_mode(monkeypatch, mode)
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        assert app.no_color == (mode == "no-color")
        assert app.console.color_system == ("standard" if mode == "16-colours" else "truecolor")
        faint = await faint_on(pilot, "menu")
        await start_game(pilot)
        await play(pilot, "d4 d3 d4")
        faint += await faint_on(pilot, "yellow to move, cursor on red discs")
        await play(pilot, "d5")
        await pilot.press("p", "3", "enter")  # popping a yellow disc: refused
        await settle(pilot)
        assert app.screen.query_one("#message").has_class("-error")
        faint += await faint_on(pilot, "red to move, Pop mode, an error, cursor on yellow")
        await play(pilot, "d4 d5 d4")
        faint += await faint_on(pilot, "red won")
        await pilot.press("question_mark")
        faint += await faint_on(pilot, "help")
    assert not faint, "\n".join(faint)


async def test_the_chosen_option_and_the_size_fields_show_without_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_colour_mode(monkeypatch, "no-color")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()

        def line_with(words: str) -> str:
            return next(line for line in screen_lines(app) if words in line)

        assert "●▌ Two players" in line_with("Two players")
        assert "○▌ Computer" in line_with("Computer")
        assert "▏7  ▕ columns" in line_with("columns")  # the fields' edges are drawn
        assert "▏6  ▕ rows" in line_with("rows")
        await pilot.press("right")  # the arrows choose: the next option
        await pilot.pause()
        assert "○▌ Two players" in line_with("Two players")
        assert "●▌ Computer" in line_with("Computer")
