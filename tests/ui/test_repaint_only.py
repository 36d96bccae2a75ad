"""Game keys repaint what changed, never lay the whole screen out again (issue 15).

A whole layout costs several milliseconds on a big terminal, a third of a frame:
the move list growing, news of another height, or the analysis row coming and
going must not cause one.
"""

from __future__ import annotations

import pytest
from textual.screen import Screen

from c4tui.engine import Rules
from tests.ui.helpers import make_app, settle, start_game

BIG = (200, 60)


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The screens laid out whole (Textual's full layout), as they happen."""
    done: list[str] = []
    original = Screen._refresh_layout

    def counted(self: Screen[object], *args: object, **kwargs: object) -> None:
        done.append(type(self).__name__)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return done


async def test_game_keys_on_a_big_terminal_lay_nothing_out(layouts: list[str]) -> None:
    app = make_app(columns=20, rows=20, rules=Rules.POPOUT)
    async with app.run_test(size=BIG) as pilot:
        screen = await start_game(pilot)
        # Drops (the list grows a line every other move), undo, threats and the analysis
        # (news of several lines, a row under the board), pop mode and RED popping its disc.
        keys = ["enter", "enter", "enter", "u", "w", "w", "a", "a", "p", "enter"]
        for key in keys:
            layouts.clear()
            await pilot.press(key)
            await settle(pilot)
            assert layouts == [], f"{key!r} laid the screen out"
        assert [move.kind.value for move in screen.driver.moves] == ["d", "d", "p"]
