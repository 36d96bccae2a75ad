"""The 3 × 3 board of a tic-tac-toe room, drawn and played like the Connect Four board.

The same conventions: arrow keys move the cursor, a digit jumps to a cell (1-9,
``123`` on the top row), Enter or Space plays there; the cursor follows the
mouse and a click plays. Marks differ by shape as well as colour (X crossed,
O round), the winning line is bracketed and the last mark is in parentheses, so
the board reads on monochrome terminals and with NO_COLOR too. Each empty cell
shows its number, which is how it is chosen by digit.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.tictactoe import Board, Mark, cell_of_number
from c4tui.tictactoe.game import SIDE

CELL_WIDTH, CELL_HEIGHT = 9, 3
UNICODE_MARKS = {
    Mark.X: ("  ╲   ╱  ", "    ╳    ", "  ╱   ╲  "),
    Mark.O: ("  ╭───╮  ", "  │   │  ", "  ╰───╯  "),
}
ASCII_MARKS = {
    Mark.X: ("  \\   /  ", "    X    ", "  /   \\  "),
    Mark.O: ("  .---.  ", "  |   |  ", "  '---'  "),
}
#: (vertical bar, horizontal rule, crossing) between cells.
UNICODE_RULES = ("│", "─", "┼")
ASCII_RULES = ("|", "-", "+")
WIDTH = SIDE * CELL_WIDTH + SIDE - 1
HEIGHT = SIDE * CELL_HEIGHT + SIDE - 1


class TicTacToeBoard(Widget, can_focus=True):
    """A tic-tac-toe board; posts ``CellChosen`` when the person plays a cell."""

    BINDINGS = [
        Binding("left", "move_cursor(-1, 0)", "Left", show=False),
        Binding("right", "move_cursor(1, 0)", "Right", show=False),
        Binding("up", "move_cursor(0, -1)", "Up", show=False),
        Binding("down", "move_cursor(0, 1)", "Down", show=False),
        Binding("enter,space", "choose", "Play", id="tictactoe.play"),
        *[Binding(str(n), f"jump({n})", f"Cell {n}", show=False) for n in range(1, 10)],
    ]
    COMPONENT_CLASSES = {
        "tictactoe--x",
        "tictactoe--o",
        "tictactoe--empty",
        "tictactoe--rule",
        "tictactoe--cursor",
        "tictactoe--winning",
        "tictactoe--last",
    }
    DEFAULT_CSS = """
    TicTacToeBoard { width: auto; height: auto; background: $surface; pointer: pointer; }
    TicTacToeBoard > .tictactoe--x { color: $error; text-style: bold; }
    TicTacToeBoard > .tictactoe--o { color: $warning; text-style: bold; }
    TicTacToeBoard > .tictactoe--empty { color: $foreground-darken-3; }
    TicTacToeBoard > .tictactoe--rule { color: $text-muted; }
    TicTacToeBoard > .tictactoe--cursor { background: $panel; }
    TicTacToeBoard:focus > .tictactoe--cursor { background: $primary-muted; }
    TicTacToeBoard > .tictactoe--winning { background: $success-muted; text-style: bold; }
    TicTacToeBoard > .tictactoe--last { text-style: bold; }
    """

    cursor: reactive[tuple[int, int]] = reactive((1, 1))
    accepting: reactive[bool] = reactive(False)

    class CellChosen(Message):
        """The person played the cell at column ``x``, row ``y``."""

        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, board: Board, *, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board = board
        self.last: tuple[int, int] | None = None
        self._marks = ASCII_MARKS if ascii_only else UNICODE_MARKS
        self._rules = ASCII_RULES if ascii_only else UNICODE_RULES

    def show(self, board: Board, last: tuple[int, int] | None = None) -> None:
        """Draw ``board``; ``last`` is the cell just marked (in parentheses)."""
        self.board, self.last = board, last
        self.refresh()

    # ----- playing ---------------------------------------------------------------------

    def cursor_to_free_cell(self) -> None:
        """Move the cursor off a taken cell, to the first free one (reading order)."""
        x, y = self.cursor
        if self.board.cells[y * SIDE + x] is None:
            return
        free = [i for i, mark in enumerate(self.board.cells) if mark is None]
        if free:
            self.cursor = (free[0] % SIDE, free[0] // SIDE)

    def action_move_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor one cell, stopping at the edges."""
        x, y = self.cursor
        self.cursor = (min(SIDE - 1, max(0, x + dx)), min(SIDE - 1, max(0, y + dy)))

    def action_jump(self, number: int) -> None:
        """Put the cursor on the cell numbered ``number``."""
        self.cursor = cell_of_number(number)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter plays only when a move is wanted (the footer hides it otherwise)."""
        return self.accepting if action == "choose" else True

    def watch_accepting(self) -> None:
        """Show or hide Enter in the footer."""
        self.refresh_bindings()

    def action_choose(self) -> None:
        """Play the cell under the cursor."""
        self.post_message(self.CellChosen(*self.cursor))

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The cell at offset (x, y) in the widget, if any (None on a rule)."""
        column, x_in = divmod(x, CELL_WIDTH + 1)
        row, y_in = divmod(y, CELL_HEIGHT + 1)
        if x_in == CELL_WIDTH or y_in == CELL_HEIGHT or column >= SIDE or row >= SIDE:
            return None
        return column, row

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The cursor follows the mouse."""
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.cursor = cell

    def on_click(self, event: events.Click) -> None:
        """A click plays the clicked cell."""
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.cursor = cell
            self.post_message(self.CellChosen(*cell))

    # ----- drawing ---------------------------------------------------------------------

    def get_content_width(self, container: object, viewport: object) -> int:
        """The board's own width."""
        return WIDTH

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """The board's own height."""
        return HEIGHT

    def render(self) -> Text:
        """The whole board (it is small: 29 × 11 characters)."""
        bar, rule, cross = self._rules
        rule_style = self.get_component_rich_style("tictactoe--rule")
        text = Text(no_wrap=True, end="")
        for row in range(SIDE):
            if row:
                text.append("\n" + cross.join([rule * CELL_WIDTH] * SIDE), rule_style)
            for line in range(CELL_HEIGHT):
                text.append("\n" if row or line else "")
                for column in range(SIDE):
                    if column:
                        text.append(bar, rule_style)
                    text.append(*self._cell_line(column, row, line))
        return text

    def _cell_line(self, x: int, y: int, line: int) -> tuple[str, Style]:
        """Line ``line`` of the cell at (x, y): its text and style."""
        index = y * SIDE + x
        mark = self.board.cells[index]
        if mark is None:
            middle = f"{index + 1:^{CELL_WIDTH}}" if line == CELL_HEIGHT // 2 else ""
            chars, style = middle.ljust(CELL_WIDTH), self._style("tictactoe--empty")
        else:
            chars = self._marks[mark][line]
            style = self._style("tictactoe--x" if mark is Mark.X else "tictactoe--o")
        winning = self.board.winning_line
        if winning is not None and index in winning:
            chars = f"[{chars[1:-1]}]"
            style += self._style("tictactoe--winning", overlay=True)
        elif (x, y) == self.last and line == CELL_HEIGHT // 2:
            chars = f"({chars[1:-1]})"
            style += self._style("tictactoe--last", overlay=True)
        if self.accepting and (x, y) == self.cursor:
            style += self._style("tictactoe--cursor", overlay=True)
            if line == CELL_HEIGHT // 2:
                chars = f">{chars[1:-1]}<"
        return chars, style

    def _style(self, name: str, overlay: bool = False) -> Style:
        """A component's style; an overlay keeps the colours it does not set."""
        return self.get_component_rich_style(name, partial=overlay)
