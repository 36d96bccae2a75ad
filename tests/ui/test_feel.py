"""The feel of a move: the disc falls into place (skippable, off with --no-animation),
the disc just played is marked on the board, threats can be shown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from c4tui.engine import Move, Player
from c4tui.ui.app import C4App
from c4tui.ui.widgets.board import DROP_SECONDS, Board
from tests.ui.helpers import SIZE, make_app, play, start_game


async def soon(condition: Callable[[], bool], seconds: float = 1.0) -> bool:
    """Whether ``condition`` holds within ``seconds`` (checked every few milliseconds)."""
    for _ in range(int(seconds / 0.005)):
        if condition():
            return True
        await asyncio.sleep(0.005)
    return condition()


def cell_text(app: C4App, column: int, row: int) -> str:
    """The text drawn for one cell (its middle line)."""
    screen = app.screen
    board = screen.board  # type: ignore[attr-defined]
    look = board.look
    line = 2 + (board.state.rows - 1 - row) * look.height + look.height // 2
    strip_text = "".join(segment.text for segment in board._board_line(line))
    return strip_text[column * look.width : (column + 1) * look.width]


async def test_a_dropped_disc_falls_into_place(monkeypatch: pytest.MonkeyPatch) -> None:
    falls: list[Move] = []
    start_fall = Board._start_fall

    def watched(board: Board, move: Move) -> None:
        start_fall(board, move)
        if board.falling:
            falls.append(move)

    monkeypatch.setattr(Board, "_start_fall", watched)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.animation_level = "full"
        screen = await start_game(pilot)
        board = screen.board
        await pilot.press("4", "enter")
        assert board.state.cell(3, 0) is Player.RED  # the game has the move at once
        assert falls == [Move.drop(3)]  # and the board let it fall
        assert await soon(lambda: not board.falling, DROP_SECONDS * 20)
        assert "█" in cell_text(app, 3, 0)


async def test_the_falling_disc_is_drawn_above_its_place_until_it_lands() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.animation_level = "full"
        screen = await start_game(pilot)
        board = screen.board
        after = board.state.drop(3)
        board.show(after, Move.drop(3), animate=True)
        assert board.falling
        assert cell_text(app, 3, 0).strip() == "·"  # its place is drawn empty...
        assert "█" in cell_text(app, 3, 5)  # ...and the disc at the top
        board.land()
        assert "█" in cell_text(app, 3, 0)
        assert cell_text(app, 3, 5).strip() == "·"


async def test_a_key_ends_the_fall_at_once() -> None:
    app = make_app(rows=20)
    async with app.run_test(size=(80, 30)) as pilot:
        app.animation_level = "full"
        screen = await start_game(pilot)
        board = screen.board
        board.show(board.state.drop(3), Move.drop(3), animate=True)
        assert board.falling
        await pilot.press("right")
        assert not screen.board.falling
        assert screen.board.cursor == 4


async def test_no_animation_draws_every_move_in_place() -> None:
    app = C4App(animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("4", "enter")
        await pilot.pause()
        assert not screen.board.falling


async def test_the_disc_just_played_is_marked_on_the_board() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d2 d3")
        assert cell_text(app, 2, 0).startswith("(")  # yellow's disc, just played
        assert not cell_text(app, 1, 0).startswith("(")


async def test_threats_show_where_four_would_be_made() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d7 d2 d7 d3")
        assert "r" not in cell_text(app, 3, 0)
        await pilot.press("w")
        await pilot.pause()
        assert screen.board.show_threats
        assert cell_text(app, 3, 0).strip() == "r"  # red's four on the bottom row
        await play(pilot, "d7")
        assert cell_text(app, 6, 3).strip() == "y"  # yellow's three up column 7
        await pilot.press("w")
        await pilot.pause()
        assert "r" not in cell_text(app, 3, 0)
