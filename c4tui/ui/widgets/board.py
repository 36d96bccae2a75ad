"""The board: one focusable widget drawn line by line (Textual's Line API).

It shows a GameState, a column cursor (keys, digits, mouse) and whether the next
move drops or pops (the screen's choice, shown through ``pop_mode``); it never
plays a move itself. Choosing a column posts ``Board.MoveChosen`` with the whole
move, and the screen decides what happens.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from c4tui.engine import GameState, Move, MoveKind, Player
from c4tui.ui.widgets.board_paint import COMPONENTS, BoardStyles, Fall, KeptLines, Paint, Picture
from c4tui.ui.widgets.looks import CellLook, board_height, choose_look
from c4tui.ui.widgets.scrolling import set_virtual_size

#: Two digits typed within this many seconds make one column number ("1", "2" → 12).
DIGIT_CHORD_SECONDS = 0.8
#: How long a dropped disc takes to fall to its place, whatever the height of the board.
DROP_SECONDS = 0.18


class Board(ScrollView, can_focus=True):
    """A Connect Four board with a column cursor."""

    COMPONENT_CLASSES = set(COMPONENTS)

    DEFAULT_CSS = """
    Board {
        background: $surface;
        scrollbar-size: 1 1;
    }
    Board > .board--red { color: $error; text-style: bold; }
    Board > .board--yellow { color: $warning; text-style: bold; }
    Board > .board--empty { color: $foreground-darken-3; }
    Board > .board--cursor { background: $panel; }
    Board:focus > .board--cursor { background: $primary-muted; }
    Board > .board--winning { background: $success-muted; text-style: bold; }
    Board > .board--last { color: $foreground; text-style: bold underline; }
    Board > .board--label { color: $text-muted; }
    Board > .board--marker { color: $accent; text-style: bold; }
    Board > .board--good { color: $success; text-style: bold; }
    Board > .board--bad { color: $error; }
    """

    BINDINGS = [
        Binding("left", "move_cursor(-1)", "Left", show=False, id="board.left"),
        Binding("right", "move_cursor(1)", "Right", show=False, id="board.right"),
        Binding("home", "jump_to_edge(0)", "First column", show=False),
        Binding("end", "jump_to_edge(1)", "Last column", show=False),
        Binding("enter,space", "choose", "Play", id="board.play"),
        *[
            Binding(str(digit), f"digit({digit})", f"Column {digit}", show=False)
            for digit in range(10)
        ],
    ]

    # Each watcher repaints just what its change touches (two columns, two marker lines,
    # the threatened cells): none of them repaints the whole board.
    cursor: reactive[int] = reactive(0, repaint=False)
    #: Whether the next move pops (set by the screen, which owns the mode; shown by the markers).
    pop_mode: reactive[bool] = reactive(False, repaint=False)
    accepting: reactive[bool] = reactive(True, repaint=False)
    #: Mark the empty cells that would complete four (r, y, or ! for both).
    show_threats: reactive[bool] = reactive(False, repaint=False)

    @dataclass
    class MoveChosen(Message):
        """A person chose a move (Enter, Space or a click): a drop or pop, as the board shows."""

        move: Move

    def __init__(
        self,
        state: GameState,
        *,
        ascii_only: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._state = state
        self._last_move: Move | None = None
        self._ascii_only = ascii_only
        self._look = choose_look(state.columns, state.rows, 80, 24, ascii_only)
        self._winning: frozenset[tuple[int, int]] = frozenset()
        self._last_digit: tuple[int, float] | None = None
        #: One short outcome per column ("W3", "D", "L5"; "" for none), shown under the board.
        self._analysis: tuple[str, ...] | None = None
        self._analysis_apart = True  # a line to spare for it under the board
        #: False once the game is over: Play leaves the footer instead of being dimmed.
        self.offers_play = True
        self._threats: dict[tuple[int, int], frozenset[Player]] = {}
        self._fall: Fall | None = None
        self._fall_timer: Timer | None = None
        self._styles: BoardStyles | None = None
        self._kept = KeptLines()
        self._paint: Paint | None = None
        self.cursor = state.columns // 2

    # ----- what the screen sets ------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The position shown."""
        return self._state

    @property
    def look(self) -> CellLook:
        """The cell size in use (changes with the widget's size)."""
        return self._look

    def show(self, state: GameState, last_move: Move | None = None, animate: bool = False) -> None:
        """Show ``state``; ``last_move`` is marked (its disc, its column number).

        With ``animate``, a dropped disc falls into place first (any key ends the fall).
        """
        old = self._state
        resized = (state.columns, state.rows) != (old.columns, old.rows)
        if state is not old:
            self.land()  # a disc still falling lands before the next position is shown
        old_marked = self._picture().marked()
        self._state = state
        self._last_move = last_move
        self._winning = state.winning_cells()
        self._threats = state.threats() if self.show_threats else {}
        self.cursor = self.validate_cursor(self.cursor)
        if resized:
            self._fit_look()
        if animate and last_move is not None:
            self._start_fall(last_move)
        if resized:
            self._redraw()
            return
        # Only the rows whose discs or marks changed are made again, and only the cells
        # that changed are repainted (a pop changes a column, not the whole board).
        cells = state.cells_differing(old) if state is not old else set()
        cells |= old_marked | self._picture().marked() | (self._fall.cells if self._fall else set())
        self._redraw_cells(cells)

    def watch_show_threats(self, show: bool) -> None:
        """Work the threats out now (and on every move while shown)."""
        old = self._threats
        self._threats = self._state.threats() if show else {}
        self._redraw_cells({*old, *self._threats}, labels=False)

    # ----- the drop animation ----------------------------------------------------------

    @property
    def falling(self) -> bool:
        """True while a dropped disc is still on its way down."""
        return self._fall is not None

    def _start_fall(self, move: Move) -> None:
        self._fall = fall = Fall.of(self._state, move)
        if fall is not None:
            steps = fall.row - fall.landing + 1
            self._fall_timer = self.set_interval(DROP_SECONDS / steps, self._fall_step)

    def _fall_step(self) -> None:
        fall = self._fall
        if fall is None or fall.row <= fall.landing:
            self.land()
            return
        self._fall = fall = replace(fall, row=fall.row - 1)
        self._redraw_cells({(fall.column, fall.row), (fall.column, fall.row + 1)}, labels=False)

    def land(self) -> None:
        """End the drop animation at once: the disc is in its place."""
        timer, self._fall_timer = self._fall_timer, None
        if timer is not None:
            timer.stop()
        fall, self._fall = self._fall, None
        if fall is not None:
            self._redraw_cells(fall.cells, labels=False)

    def on_key(self) -> None:
        """Any key ends a fall (the key does what it does as well)."""
        self.land()

    def show_analysis(self, labels: tuple[str, ...] | None) -> None:
        """Show one outcome label under each column (None: no analysis row)."""
        had_row = self._analysis is not None
        self._analysis = labels
        if had_row != (labels is not None):
            self._fit_look()
        self.refresh()

    @property
    def analysis(self) -> tuple[str, ...] | None:
        """The labels under the columns, if shown."""
        return self._analysis

    # ----- reactives -----------------------------------------------------------------

    def validate_cursor(self, cursor: int) -> int:
        """Keep the cursor on a column of the board."""
        return max(0, min(cursor, self._state.columns - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        """Repaint the two columns and bring the cursor column into view."""
        self._repaint_columns(old, new)
        self._scroll_cursor_into_view()

    def watch_pop_mode(self) -> None:
        """The marker moves between the lines above and below the board."""
        self._repaint_marker_lines()

    def watch_accepting(self) -> None:
        """The footer's Play key is dimmed, and the drop marker hidden, while moves wait."""
        self.refresh_bindings()
        self._repaint_marker_lines()

    # ----- actions -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim Play while it is not a person's turn here (the screen then says why)."""
        if action == "choose" and not self.accepting:
            return None if self.offers_play else False
        return True

    def action_move_cursor(self, step: int) -> None:
        """Move the cursor one column left or right, wrapping at the edges."""
        self._last_digit = None
        self.cursor = (self.cursor + step) % self._state.columns

    def action_jump_to_edge(self, edge: int) -> None:
        """Jump to the first (0) or last (1) column."""
        self._last_digit = None
        self.cursor = 0 if edge == 0 else self._state.columns - 1

    def action_digit(self, digit: int) -> None:
        """Jump to a column by number; two quick digits make a two-digit column."""
        now = time.monotonic()
        column_number = digit
        if self._last_digit is not None:
            previous, when = self._last_digit
            combined = previous * 10 + digit
            if now - when <= DIGIT_CHORD_SECONDS and combined <= self._state.columns:
                column_number = combined
        self._last_digit = (digit, now)
        if column_number == 0:
            column_number = 10
        if column_number <= self._state.columns:
            self.cursor = column_number - 1

    def action_choose(self) -> None:
        """Play in the cursor column (a digit typed next starts a new column number)."""
        self._last_digit = None
        self._choose(self.cursor)

    def _choose(self, column: int) -> None:
        """Say the move in ``column``, dropping or popping as the markers show."""
        kind = MoveKind.POP if self.pop_mode else MoveKind.DROP
        self.post_message(self.MoveChosen(Move(kind, column)))

    # ----- mouse ---------------------------------------------------------------------

    def column_at(self, x: int) -> int | None:
        """The column under widget x-coordinate ``x``, or None between/outside columns."""
        virtual_x = x + int(self.scroll_offset.x) - self._left_margin()
        if virtual_x < 0:
            return None
        column = virtual_x // self._look.width
        return column if column < self._state.columns else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The cursor follows the mouse."""
        column = self.column_at(event.x)
        if column is not None:
            self.cursor = column

    def on_click(self, event: events.Click) -> None:
        """A click plays in the clicked column."""
        column = self.column_at(event.x)
        if column is not None:
            self.cursor = column
            self._choose(column)

    # ----- size ----------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        """Pick the biggest cells that fit the new size."""
        self._fit_look()

    def _fit_look(self) -> None:
        width, height = self.size.width or 80, self.size.height or 24
        self._look = look = choose_look(
            self._state.columns, self._state.rows, width, height, self._ascii_only
        )
        self._analysis_apart = board_height(self._state.rows, look) < height
        picture = self._picture()
        set_virtual_size(self, Size(*picture.size()))  # the CSS sets the board's own size
        self._kept.fit(picture)  # lines of other cells, or of another board, go
        self.refresh()
        self.call_after_refresh(self._scroll_cursor_into_view)

    def _left_margin(self) -> int:
        """Blank columns left of the board, which is centred when narrower than the widget."""
        return max(0, (self.size.width - self.virtual_size.width) // 2)

    def _top_margin(self) -> int:
        """Blank lines above the board, centred (without the analysis row: a/a never move it)."""
        row = self._analysis is not None and self._analysis_apart  # it takes a spare line below
        return max(0, (self.size.height - self.virtual_size.height + row) // 2)

    def fits(self) -> bool:
        """True when the whole board is in view (no part of it scrolled away)."""
        return (
            self.virtual_size.width <= self.size.width
            and self.virtual_size.height <= self.size.height
        )

    def _scroll_cursor_into_view(self) -> None:
        look = self._look
        region = Region(self.cursor * look.width, 0, look.width, 1)
        self.scroll_to_region(region, animate=False, force=True)

    # ----- drawing -------------------------------------------------------------------
    # Speed (see board_paint): lines are kept until what they show changes, and a change
    # repaints only the cells, columns or lines it touched, so the terminal gets only those.

    def notify_style_update(self) -> None:
        """New CSS, theme or focus: the styles looked up, and lines made with them, are stale."""
        super().notify_style_update()
        self._styles = None
        self._kept.lines.clear()

    def _redraw(self) -> None:
        """What the cells show changed: make every line again and repaint the board."""
        self._kept.lines.clear()
        self.refresh()

    def _redraw_cells(self, cells: set[tuple[int, int]], labels: bool = True) -> None:
        """Make the rows of these cells (and the column numbers) again; repaint only the cells."""
        self._kept.forget(self._picture(), {row for _, row in cells}, labels)
        if labels:
            self._repaint_lines(0)
        self._repaint_cells(cells)

    def _origin(self) -> tuple[int, int]:
        """Where the board's top left corner is in the widget, as scrolled now."""
        scroll_x, scroll_y = self.scroll_offset
        return self._left_margin() - int(scroll_x), self._top_margin() - int(scroll_y)

    def _repaint_cells(self, cells: set[tuple[int, int]]) -> None:
        """Repaint only these cells (a disc fell a row, a move changed them)."""
        left, top = self._origin()
        boxes = self._picture().cell_boxes(cells)
        if boxes:
            self.refresh(
                *(Region(left + x, top + y, width, height) for x, y, width, height in boxes)
            )

    def _repaint_columns(self, *columns: int) -> None:
        """Repaint only these columns, top to bottom (the cursor moved)."""
        width, height = self._look.width, self.size.height
        left, _ = self._origin()
        self.refresh(*(Region(left + column * width, 0, width, height) for column in columns))

    def _repaint_marker_lines(self) -> None:
        """Repaint the lines above and below the cells, where the drop and pop markers go."""
        self._repaint_lines(1, 2 + self._state.rows * self._look.height)

    def _repaint_lines(self, *lines: int) -> None:
        """Repaint these lines of the board (0: the column numbers), the widget's width."""
        _, top = self._origin()
        self.refresh(*(Region(0, top + line, self.size.width, 1) for line in lines))

    def render_lines(self, crop: Region) -> list[Strip]:
        """Paint ``crop``: what every line shares is worked out once, then each line."""
        self._paint = self._measure_paint()
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        """One screen line: the virtual board line under it, scrolled and centred."""
        paint = self._paint or self._measure_paint()
        scroll_x = paint.scroll_x
        line = y + paint.scroll_y - paint.top
        segments = self._board_line(line, paint.picture) if line >= 0 else []
        if paint.left:
            segments.insert(0, Segment(" " * paint.left, paint.base))
        length = sum(len(segment.text) for segment in segments)  # single-width characters
        if scroll_x or length > paint.width:
            strip = Strip(segments).crop(scroll_x, scroll_x + paint.width)
            return strip.extend_cell_length(paint.width, paint.base)
        if length < paint.width:
            segments.append(Segment(" " * (paint.width - length), paint.base))
        return Strip(segments, paint.width)

    def _measure_paint(self) -> Paint:
        scroll_x, scroll_y = self.scroll_offset
        return Paint(
            width=self.size.width,
            left=self._left_margin(),
            top=self._top_margin(),
            scroll_x=int(scroll_x),
            scroll_y=int(scroll_y),
            base=self.rich_style,
            picture=self._picture(),
        )

    def _picture(self) -> Picture:
        """Everything the lines show but the cursor, as the board shows it now."""
        return Picture(
            self._state,
            self._look,
            self._last_move,
            self._winning,
            self._threats,
            self._fall,
            self._analysis,
            self._analysis_apart,
            pop_mode=self.pop_mode,
            accepting=self.accepting,
            ascii_only=self._ascii_only,
        )

    def _looked_up(self) -> BoardStyles:
        """Every component style and overlay, looked up once per style change."""
        if self._styles is None:
            self._styles = BoardStyles.looked_up(
                self.get_component_rich_style,
                lambda name: self.get_component_rich_style(name, partial=True),
            )
        return self._styles

    def _board_line(self, line: int, picture: Picture | None = None) -> list[Segment]:
        """Line ``line`` of the whole board: numbers, drop marker, cells, pop marker."""
        picture = picture or self._picture()
        return self._kept.line(
            picture, self._looked_up(), line, cursor=self.cursor, blank=self.rich_style
        )
