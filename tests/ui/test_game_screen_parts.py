"""The game screen's parts on their own: the screen in an app that keeps no games, the
board's message, and the panel drawn from what the screen sets."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from c4tui.engine import GameState, Move, MoveKind, Player
from c4tui.match.settings import MatchSettings
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.status import News, StatusPanel, Turn
from tests.ui.helpers import SIZE, play, settle


class BareApp(App[None]):
    """An app that opens one game and handles none of the game screen's messages."""

    def on_mount(self) -> None:
        settings = MatchSettings(ai_delay=0.0, seed=1)
        self.push_screen(GameScreen(settings.driver(None, ()), settings))


async def test_an_app_that_keeps_no_games_still_leaves_an_unfinished_one() -> None:
    app = BareApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await play(pilot, "d4")
        assert screen.unfinished
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert app.screen is not screen and not screen.is_attached


class BoardApp(App[None]):
    """A board alone, keeping what it says."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[Move] = []

    def compose(self) -> ComposeResult:
        yield Board(GameState.new(7, 6), id="board")

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        self.chosen.append(message.move)


async def test_the_board_says_the_whole_move_as_its_markers_show_it() -> None:
    app = BoardApp()
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one(Board)
        board.focus()
        await pilot.press("3", "enter")
        board.pop_mode = True
        await pilot.press("5", "enter")
        await pilot.pause()
    assert app.chosen == [Move(MoveKind.DROP, 2), Move(MoveKind.POP, 4)]


class PanelApp(App[None]):
    """A status panel alone."""

    def compose(self) -> ComposeResult:
        yield StatusPanel("7 × 6 Classic", id="status")


async def test_the_panel_draws_what_it_is_given() -> None:
    app = PanelApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(StatusPanel)
        panel.turn = Turn(GameState.new(7, 6), {Player.RED: "You"})
        panel.news = News("Hints are for your turn.", "error")
        await pilot.pause()
        assert "RED to move" in str(panel.query_one("#turn", Static).render())
        message = panel.query_one("#message", Static)
        assert str(message.render()) == "Hints are for your turn."
        assert message.has_class("-error")
