"""What a game, its review and the position editor share: board and panel, sized to fit.

The game screen and the review screen look alike (the review is pushed on top of
the game): both lay out a board, the status panel and the footer here, and show
a notice instead when the terminal is too small for the board.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from c4tui.engine import GameState
from c4tui.ui.commands import ShowsAGame
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.looks import board_height, smallest_look
from c4tui.ui.widgets.status import News, StatusPanel, narrowest_terminal_for, panel_width_for

#: Lines the panel needs to show the turn, a message and the last move.
PANEL_MIN_HEIGHT = 10

ResultType = TypeVar("ResultType")


class BoardScreen(ShowsAGame, Screen[ResultType]):
    """A board and its status panel, shown whole or not at all.

    Args:
        state: the position the board shows first.
        title: the game in words, at the top of the panel.
        ascii_only: draw with ASCII characters only.
    """

    #: The board widget's class (the position editor's places discs where a game's plays).
    board_class: ClassVar[type[Board]] = Board
    #: The panel's class (the puzzles' shows the player's rating and the puzzle's themes).
    panel_class: ClassVar[type[StatusPanel]] = StatusPanel

    def __init__(self, state: GameState, title: str, ascii_only: bool) -> None:
        super().__init__()
        self._first_state = state
        self._title = title
        self._ascii_only = ascii_only
        self._shown = False  # True from mounting until unmounting: the widgets are there
        self._board: Board | None = None
        self._panel: StatusPanel | None = None
        self._refused_blind = False  # a move was asked while the notice showed: it says so

    def compose(self) -> ComposeResult:
        """Board and panel side by side, footer (no header: a 20-row board needs the line)."""
        self._board = self.board_class(self._first_state, ascii_only=self._ascii_only, id="board")
        self._panel = self.panel_class(self._title, ascii_only=self._ascii_only, id="status")
        with Horizontal(id="game-body"):
            yield self._board
            yield self._panel
        yield Static(id="too-small")
        # Without the palette hint every key fits 80 columns, Pop Out included (^p still works).
        yield FittingFooter(show_command_palette=False)

    @property
    def _widgets_ready(self) -> bool:
        """True while the board and panel are there.

        Not before mounting, nor while the screen is being taken apart (children first).
        """
        board = self._board
        return self._shown and board is not None and board.is_attached

    # Kept rather than queried: keys ask for them many times a frame.

    @property
    def board(self) -> Board:
        """The board widget."""
        return self._board or self.query_one(Board)

    @property
    def panel(self) -> StatusPanel:
        """The status panel."""
        return self._panel or self.query_one(StatusPanel)

    def _tell(self, news: News) -> None:
        """Show ``news`` in the panel (a dialog's answer may come after the screen has gone)."""
        if self._widgets_ready:
            self.panel.news = news

    def _show_board(self) -> None:
        """The widgets are mounted: size the panel to the terminal and focus the board.

        Called by each screen's own ``on_mount`` (Textual calls every class's handler,
        so this one has none: the order of the first frame's steps stays in one place).
        """
        self._shown = True
        self.panel.styles.width = panel_width_for(self.app.size.width)
        self.board.focus()

    def on_resize(self) -> None:
        """Size the panel to the terminal; show the game only when all of it fits."""
        if self._widgets_ready:
            self.panel.styles.width = panel_width_for(self.app.size.width)
            self.refresh_bindings()  # wide terminals show more keys
        self.call_after_refresh(self._check_fit)

    def needed_size(self) -> tuple[int, int]:
        """The smallest terminal that shows this board whole, with the panel and footer.

        The same with the analysis row: it takes a line under the board only if one is spare.
        """
        state = self.board.state
        look = smallest_look(self._ascii_only)
        width = narrowest_terminal_for(state.columns * look.width)
        height = max(board_height(state.rows, look), PANEL_MIN_HEIGHT)
        return width, height + 1  # the footer

    @property
    def board_hidden(self) -> bool:
        """True while the terminal is too small: the notice shows instead of the board."""
        return self._widgets_ready and self.query_one("#too-small").display

    def refuse_blind_move(self) -> None:
        """A move asked while the board cannot be seen: none is played, the notice says so."""
        self._refused_blind = True
        self._check_fit()
        self.app.bell()

    def _check_fit(self) -> None:
        if not self._widgets_ready:
            return
        width, height = self.app.size
        need_width, need_height = self.needed_size()
        small = width < need_width or height < need_height
        body = self.query_one("#game-body")
        notice = self.query_one("#too-small", Static)
        if small:
            state = self.board.state
            refused = "\n\nNo move is played while the board cannot be seen." * self._refused_blind
            notice.update(
                f"The terminal is too small for this {state.columns} × {state.rows} board: "
                f"it needs {need_width} × {need_height}, and this one is {width} × {height}.\n\n"
                "Enlarge the window, or press Esc for the menu and a smaller board. "
                f"The game goes on when it fits.{refused}"
            )
        else:
            self._refused_blind = False
        was_small = notice.display
        body.display, notice.display = not small, small
        if was_small and not small:
            self.board.focus()
