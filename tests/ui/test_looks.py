"""Cell looks: sizes that fit, glyphs that differ by shape, single-width characters only."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from c4tui.engine import Player
from c4tui.ui.app import C4App
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.looks import ASCII_LOOKS, UNICODE_LOOKS, CellLook, choose_look
from tests.ui.helpers import SIZE, play, start_game

ALL_LOOKS = [*UNICODE_LOOKS, *ASCII_LOOKS]


@pytest.mark.parametrize("look", ALL_LOOKS, ids=lambda look: look.name)
def test_every_pattern_fills_its_cell_with_single_width_characters(look: CellLook) -> None:
    for pattern in (look.red, look.yellow, look.empty, look.framed(look.red)):
        assert len(pattern) == look.height
        for line in pattern:
            assert len(line) == look.width == cell_len(line)
            assert all(cell_len(char) == 1 for char in line)


@pytest.mark.parametrize("look", ALL_LOOKS, ids=lambda look: look.name)
def test_discs_differ_by_shape_not_only_colour(look: CellLook) -> None:
    assert look.red != look.yellow != look.empty
    assert look.framed(look.red) != look.red


def test_ascii_looks_are_ascii() -> None:
    for look in ASCII_LOOKS:
        assert all(line.isascii() for line in (*look.red, *look.yellow, *look.empty))


@pytest.mark.parametrize(
    ("columns", "rows", "width", "height", "expected"),
    [
        (7, 6, 60, 23, "large"),
        (7, 6, 40, 16, "roomy"),
        (20, 20, 60, 23, "compact"),
        (20, 20, 200, 60, "roomy"),
        (20, 20, 10, 5, "compact"),  # nothing fits: compact, and the board scrolls
    ],
)
def test_the_biggest_look_that_fits_is_chosen(
    columns: int, rows: int, width: int, height: int, expected: str
) -> None:
    assert choose_look(columns, rows, width, height).name == expected


async def test_ascii_app_draws_only_ascii_on_the_board() -> None:
    app = C4App(ascii_only=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5 d4 d5 d4 d5 d4")
        board = screen.query_one(Board)
        text = "\n".join(board.render_line(y).text for y in range(board.size.height))
        assert text.isascii()
        assert "X" in text and "O" in text and "[" in text  # the winning line is bracketed
        assert screen.driver.state.winner is Player.RED
