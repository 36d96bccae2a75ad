"""The menu's board fields show a two-digit size whole (issue 40 #4: 12 showed as its 2)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.ui.helpers import make_app


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("name", ["columns", "rows"])
async def test_a_two_digit_size_shows_whole_while_typed(size: tuple[int, int], name: str) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        field = app.screen.query_one(f"#{name}", Input)
        field.focus()
        field.value = "20"
        field.cursor_position = 2  # as after typing it: the cursor after the digits
        await pilot.pause()
        assert "20" in field.render_line(0).text
