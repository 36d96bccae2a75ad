"""Every screen at every size from 40 x 12 up: whole, or saying what size it needs;
big terminals get big cells, a centred board and a wider panel."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from c4tui.ui.widgets.menu_button import MenuButton
from tests.ui.helpers import make_app, settle, start_game

TERMINALS = [(40, 12), (60, 20), (80, 24), (120, 40), (200, 60)]
#: The default board, the biggest, and the tallest (the widest is covered by the biggest).
BOARDS = [(7, 6), (20, 20), (4, 20)]


def visible_footer_keys(screen: GameScreen | MenuScreen) -> dict[str, FooterKey]:
    return {key.description: key for key in screen.query(FooterKey) if key.display}


async def assert_footer_whole(
    pilot: Pilot[None], screen: GameScreen | MenuScreen, width: int
) -> dict[str, FooterKey]:
    """The footer's keys once it has them (a footer re-laid out is briefly empty), all whole."""
    for _ in range(50):
        keys = visible_footer_keys(screen)
        if keys and all(key.region.width for key in keys.values()):
            break
        await pilot.pause(0.1)
    for key in keys.values():
        assert key.region.right <= width, f"{key.description} is cut off"
    return keys


@pytest.mark.parametrize("terminal", TERMINALS, ids=lambda size: "{}x{}".format(*size))
@pytest.mark.parametrize("board", BOARDS, ids=lambda size: "{}x{}".format(*size))
async def test_the_game_is_whole_or_says_what_size_it_needs(
    terminal: tuple[int, int], board: tuple[int, int]
) -> None:
    width, height = terminal
    app = make_app(columns=board[0], rows=board[1])
    async with app.run_test(size=terminal) as pilot:
        screen = await start_game(pilot)
        await pilot.pause()
        need_width, need_height = screen.needed_size()
        notice = screen.query_one("#too-small", Static)
        if width < need_width or height < need_height:
            assert notice.display and not screen.query_one("#game-body").display
            text = str(notice.render())
            assert f"needs {need_width} × {need_height}" in text
            assert f"this one is {width} × {height}" in text
        else:
            assert not notice.display
            assert screen.board.fits(), "part of the board is scrolled away"
            panel = screen.panel.region
            assert panel.right <= width and panel.bottom <= height - 1
        keys = await assert_footer_whole(pilot, screen, width)
        assert {"Menu", "Help", "Quit"} <= set(keys)


async def test_a_small_terminal_grown_shows_the_game_and_it_goes_on() -> None:
    app = make_app(columns=20, rows=20)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await start_game(pilot)
        assert screen.query_one("#too-small").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert not screen.query_one("#too-small").display
        assert screen.board.has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert len(screen.driver.moves) == 1


@pytest.mark.parametrize(
    ("terminal", "look", "panel_width"),
    [((80, 24), "large", 20), ((120, 40), "huge", 30), ((200, 60), "huge", 40)],
)
async def test_big_terminals_get_big_cells_a_centred_board_and_a_wider_panel(
    terminal: tuple[int, int], look: str, panel_width: int
) -> None:
    app = make_app()
    async with app.run_test(size=terminal) as pilot:
        screen = await start_game(pilot)
        await pilot.pause()
        board = screen.board
        assert board.look.name == look
        assert screen.panel.outer_size.width == panel_width
        spare_x = board.size.width - board.virtual_size.width
        spare_y = board.size.height - board.virtual_size.height
        assert board._left_margin() == spare_x // 2
        assert board._top_margin() == spare_y // 2
        # The panel's lines do not wrap at this width.
        assert str(screen.panel.query_one("#last-move", Static).render()) == "Last: —"


@pytest.mark.parametrize("terminal", TERMINALS, ids=lambda size: "{}x{}".format(*size))
@pytest.mark.parametrize("opponent", ["computer", "network"])  # the most rows; the longest note
async def test_the_menu_is_whole_at_every_size(terminal: tuple[int, int], opponent: str) -> None:
    width, height = terminal
    app = make_app(opponent=opponent)
    async with app.run_test(size=terminal) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        for choice in menu.query(ChoiceSet):
            if choice.display:
                assert choice.region.right <= width or choice.region.width == 0
        start = menu.query_one("#start", MenuButton)
        start.focus()  # Tab reaches it: it scrolls into view (smoothly)
        for _ in range(50):
            await pilot.pause(0.1)
            if start.region.bottom <= height - 1:
                break
        assert start.region.bottom <= height - 1 and start.region.right <= width
        keys = await assert_footer_whole(pilot, menu, width)
        assert {"Start game", "Help"} <= set(keys)


@pytest.mark.parametrize("terminal", [(40, 12), (59, 24), (78, 24)])
async def test_the_size_asked_for_is_one_at_which_the_game_shows(terminal: tuple[int, int]) -> None:
    app = make_app(columns=20, rows=20)
    async with app.run_test(size=terminal) as pilot:
        screen = await start_game(pilot)
        await pilot.pause()
        assert "it needs 80 × 24" in str(screen.query_one("#too-small", Static).render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert not screen.query_one("#too-small").display


@pytest.mark.parametrize(("width", "wide"), [(80, False), (160, True)])
async def test_wide_terminals_show_every_game_key(width: int, wide: bool) -> None:
    app = make_app()
    async with app.run_test(size=(width, 40)) as pilot:
        screen = await start_game(pilot)
        await pilot.pause()
        keys = set(visible_footer_keys(screen))
        assert ({"Threats", "Digits", "Save", "Review", "Rematch"} <= keys) is wide
        await pilot.press("w")  # the key works at any width
        await pilot.pause()
        assert screen.board.show_threats


@pytest.mark.parametrize("play_key", ["enter", "space"])
async def test_no_move_is_taken_while_the_board_cannot_be_seen(play_key: str) -> None:
    """Issue 40 #2: shrunk to "too small" mid-game, Enter dropped blind in the old cursor
    column and the computer answered; now it says why nothing was played."""
    app = make_app(columns=20, rows=20, opponent="computer", options={"level": "hard"})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(pilot)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        notice = screen.query_one("#too-small", Static)
        assert notice.display
        await pilot.press(play_key)
        await settle(pilot)
        assert screen.driver.moves == ()
        assert "No move is played while the board cannot be seen" in str(notice.render())
        await pilot.resize_terminal(100, 30)  # it fits again: the key plays
        await pilot.pause()
        await pilot.pause()
        await pilot.press(play_key)
        await settle(pilot)
        assert len(screen.driver.moves) == 2
