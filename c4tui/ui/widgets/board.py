"""The board: one focusable widget drawn line by line (Textual's Line API).

It shows a GameState, a column cursor (keys, digits, mouse) and whether the next
move drops or pops (the screen's choice, shown through ``pop_mode``); it never
plays a move itself. Choosing a column posts ``Board.MoveChosen`` with the whole
move, and the screen decides what happens.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from c4tui.engine import GameState, Move, MoveKind, Player
from c4tui.ui.widgets.looks import EXTRA_LINES, CellLook, choose_look
from c4tui.ui.widgets.scrolling import set_virtual_size

#: Two digits typed within this many seconds make one column number ("1", "2" → 12).
DIGIT_CHORD_SECONDS = 0.8
#: How long a dropped disc takes to fall to its place, whatever the height of the board.
DROP_SECONDS = 0.18


@dataclass
class Fall:
    """A disc on its way down a column (the drop animation)."""

    column: int
    player: Player
    row: int  # where it is now
    landing: int  # where it stops


#: One column's part of a line: its segment without the cursor, and the style before and
#: after which the cursor's background goes (a winning cell's own background stays on top).
_Cell = tuple[Segment, Style, Style]


@dataclass(frozen=True)
class _Line:
    """A line of cells without the cursor, kept between paints.

    Each column's cell, and neighbours of one style merged into runs (text, style,
    first column, last column). Speed: everything after the board (the compositor,
    the terminal) works segment by segment, and an empty row is one run, not twenty.
    """

    cells: list[_Cell]
    runs: list[tuple[str, Style, int, int]]

    @classmethod
    def of(cls, cells: list[_Cell]) -> _Line:
        """The line of ``cells``, its runs merged."""
        runs: list[tuple[str, Style, int, int]] = []
        for column, (segment, _, _) in enumerate(cells):
            style = segment.style or Style()
            if runs and runs[-1][1] is style:  # equal cells share their style object
                text, _, first, _ = runs[-1]
                runs[-1] = (text + segment.text, style, first, column)
            else:
                runs.append((segment.text, style, column, column))
        return cls(cells, runs)

    def with_cursor(self, cursor: int, width: int, overlay: Style) -> list[Segment]:
        """The line's segments with the cursor's background on column ``cursor``."""
        segments = []
        for text, style, first, last in self.runs:
            if not first <= cursor <= last:
                segments.append(Segment(text, style))
                continue
            start = (cursor - first) * width  # every cell is ``width`` single-width characters
            if start:
                segments.append(Segment(text[:start], style))
            _, before, after = self.cells[cursor]
            segments.append(Segment(text[start : start + width], before + overlay + after))
            if start + width < len(text):
                segments.append(Segment(text[start + width :], style))
        return segments


@dataclass(frozen=True)
class _Paint:
    """What every line of one paint shares."""

    width: int
    left: int  # blank columns left of the board
    top: int  # blank lines above it
    scroll_x: int
    scroll_y: int
    base: Style


class Board(ScrollView, can_focus=True):
    """A Connect Four board with a column cursor."""

    COMPONENT_CLASSES = {
        "board--red",
        "board--yellow",
        "board--empty",
        "board--cursor",
        "board--winning",
        "board--last",
        "board--label",
        "board--marker",
        "board--good",
        "board--bad",
    }

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
        #: False once the game is over: Play leaves the footer instead of being dimmed.
        self.offers_play = True
        self._threats: dict[tuple[int, int], frozenset[Player]] = {}
        self._fall: Fall | None = None
        self._fall_timer: Timer | None = None
        self._styles: dict[str, Style] | None = None
        self._plain: dict[int, _Line] = {}
        #: The board size the lines kept were made for.
        self._lines_for = (state.columns, state.rows)
        self._paint: _Paint | None = None
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
        old_last, old_marked = self._last_cell(), (*self._winning, *self._threats)
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
        cells.update(cell for cell in (old_last, self._last_cell()) if cell is not None)
        cells.update((*old_marked, *self._winning, *self._threats))
        if self._fall is not None:
            fall = self._fall
            cells.update(((fall.column, fall.row), (fall.column, fall.landing)))
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
        landing = self._state.column_height(move.column) - 1
        player = self._state.cell(move.column, landing) if landing >= 0 else None
        top = self._state.rows - 1
        if move.kind is not MoveKind.DROP or player is None or landing == top:
            return
        self._fall = Fall(move.column, player, top, landing)
        self._fall_timer = self.set_interval(DROP_SECONDS / (top - landing + 1), self._fall_step)

    def _fall_step(self) -> None:
        fall = self._fall
        if fall is None or fall.row <= fall.landing:
            self.land()
            return
        fall.row -= 1
        self._redraw_cells({(fall.column, fall.row), (fall.column, fall.row + 1)}, labels=False)

    def land(self) -> None:
        """End the drop animation at once: the disc is in its place."""
        timer, self._fall_timer = self._fall_timer, None
        if timer is not None:
            timer.stop()
        fall = self._fall
        if fall is not None:
            self._fall = None
            self._redraw_cells({(fall.column, fall.row), (fall.column, fall.landing)}, labels=False)

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
        old_look = self._look
        self._look = choose_look(
            self._state.columns, self._state.rows, width, height, self._ascii_only
        )
        analysis_lines = 0 if self._analysis is None else 1
        virtual_size = Size(
            self._state.columns * self._look.width,
            self._state.rows * self._look.height + EXTRA_LINES + analysis_lines,
        )
        set_virtual_size(self, virtual_size)  # the CSS sets the board's own size
        if self._look != old_look or (self._state.columns, self._state.rows) != self._lines_for:
            self._plain.clear()  # lines of other cells, or of another board
            self._lines_for = (self._state.columns, self._state.rows)
        self.refresh()
        self.call_after_refresh(self._scroll_cursor_into_view)

    def _left_margin(self) -> int:
        """Blank columns left of the board, which is centred when narrower than the widget."""
        return max(0, (self.size.width - self.virtual_size.width) // 2)

    def _top_margin(self) -> int:
        """Blank lines above the board, which is centred when shorter than the widget."""
        return max(0, (self.size.height - self.virtual_size.height) // 2)

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
    #
    # Speed: a key must show within one frame on a 20 x 20 board, so drawing does as
    # little as it can. Each line's cells are kept as segments without the cursor
    # (``_plain``), built again only when what they show changes; the cursor's column
    # is styled as the line is drawn. Styles are looked up once per style change, the
    # margins once per paint, and a change repaints only the cells, columns or lines it
    # touched (``refresh`` with regions), so the terminal is sent only those.

    def notify_style_update(self) -> None:
        """New CSS, theme or focus: the styles looked up, and lines made with them, are stale."""
        super().notify_style_update()
        self._styles = None
        self._plain.clear()

    def _redraw(self) -> None:
        """What the cells show changed: make every line again and repaint the board."""
        self._plain.clear()
        self.refresh()

    def _row_lines(self, row: int) -> range:
        """The virtual lines of cells that draw ``row`` (0 at the bottom)."""
        height = self._look.height
        first = 2 + (self._state.rows - 1 - row) * height
        return range(first, first + height)

    def _forget_rows(self, rows: Iterable[int]) -> None:
        """What these rows show changed: their lines are made again when next drawn."""
        for row in rows:
            for line in self._row_lines(row):
                self._plain.pop(line, None)

    def _redraw_cells(self, cells: set[tuple[int, int]], labels: bool = True) -> None:
        """Make the rows of these cells (and the column numbers) again; repaint only the cells."""
        self._forget_rows({row for _, row in cells})
        if labels:
            self._plain.pop(0, None)
            self._repaint_lines(0)
        self._repaint_cells(cells)

    def _repaint_cells(self, cells: set[tuple[int, int]]) -> None:
        """Repaint only these cells (a disc fell a row, a move changed them)."""
        look = self._look
        left = self._left_margin() - int(self.scroll_offset.x)
        top = self._top_margin() - int(self.scroll_offset.y)
        regions = [
            Region(
                left + column * look.width,
                top + self._row_lines(row).start,
                look.width,
                look.height,
            )
            for column, row in cells
        ]
        if regions:
            self.refresh(*regions)

    def _repaint_columns(self, *columns: int) -> None:
        """Repaint only these columns, top to bottom (the cursor moved)."""
        look_width = self._look.width
        left = self._left_margin() - int(self.scroll_offset.x)
        height = self.size.height
        self.refresh(
            *(Region(left + column * look_width, 0, look_width, height) for column in columns)
        )

    def _repaint_marker_lines(self) -> None:
        """Repaint the lines above and below the cells, where the drop and pop markers go."""
        self._repaint_lines(1, 2 + self._state.rows * self._look.height)

    def _repaint_lines(self, *lines: int) -> None:
        """Repaint these lines of the board (0: the column numbers), the widget's width."""
        top = self._top_margin() - int(self.scroll_offset.y)
        width = self.size.width
        self.refresh(*(Region(0, top + line, width, 1) for line in lines))

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
        segments = self._board_line(line) if line >= 0 else []
        if paint.left:
            segments.insert(0, Segment(" " * paint.left, paint.base))
        length = sum(len(segment.text) for segment in segments)  # single-width characters
        if scroll_x or length > paint.width:
            strip = Strip(segments).crop(scroll_x, scroll_x + paint.width)
            return strip.extend_cell_length(paint.width, paint.base)
        if length < paint.width:
            segments.append(Segment(" " * (paint.width - length), paint.base))
        return Strip(segments, paint.width)

    def _measure_paint(self) -> _Paint:
        scroll_x, scroll_y = self.scroll_offset
        return _Paint(
            width=self.size.width,
            left=self._left_margin(),
            top=self._top_margin(),
            scroll_x=int(scroll_x),
            scroll_y=int(scroll_y),
            base=self.rich_style,
        )

    def _style(self, name: str) -> Style:
        return self._looked_up()[name]

    def _overlay(self, name: str) -> Style:
        """Only what a component class itself sets (e.g. a background), to add on top."""
        return self._looked_up()[f"{name}/overlay"]

    def _looked_up(self) -> dict[str, Style]:
        """Every component style and overlay, looked up once per style change."""
        if self._styles is None:
            styles = {}
            for name in self.COMPONENT_CLASSES:
                styles[name] = self.get_component_rich_style(name)
                styles[f"{name}/overlay"] = self.get_component_rich_style(name, partial=True)
            self._styles = styles
        return self._styles

    def _board_line(self, line: int) -> list[Segment]:
        """Line ``line`` of the whole board: numbers, drop marker, cells, pop marker."""
        look = self._look
        cells_height = self._state.rows * look.height
        if line == 1:
            return self._marker_line(show=not self.pop_mode, glyph="v" if self._ascii_only else "▼")
        if line == 2 + cells_height:
            return self._marker_line(show=self.pop_mode, glyph="^" if self._ascii_only else "▲")
        if line == 3 + cells_height:
            return self._analysis_line()
        if line != 0 and not 0 <= line - 2 < cells_height:
            return []
        plain = self._plain.get(line)
        if plain is None:
            self._make_lines(line)
            plain = self._plain[line]
        return plain.with_cursor(self.cursor, look.width, self._overlay("board--cursor"))

    def _make_lines(self, line: int) -> None:
        """Keep the label line (0), or every line of the row of cells that ``line`` is in."""
        if line == 0:
            self._plain[0] = _Line.of(self._label_line())
            return
        row = self._state.rows - 1 - (line - 2) // self._look.height
        for kept, cells in zip(self._row_lines(row), self._cell_lines(row), strict=True):
            self._plain[kept] = _Line.of(cells)

    def _label_line(self) -> list[_Cell]:
        label = self._style("board--label")
        last = self._overlay("board--last")
        last_column = self._last_move.column if self._last_move else None
        width = self._look.width
        no_style = Style()
        cells = []
        for column in range(self._state.columns):
            after = last if column == last_column else no_style
            text = str(column + 1).center(width)
            cells.append((Segment(text, label + after), label, after))
        return cells

    def _analysis_line(self) -> list[Segment]:
        """Each column's outcome: wins stand out, losses warn, the rest are quiet."""
        if self._analysis is None:
            return []
        width = self._look.width
        styles = {"W": "board--good", "+": "board--good", "L": "board--bad", "-": "board--bad"}
        return [
            Segment(label[:width].center(width), self._style(styles.get(label[:1], "board--label")))
            for label in self._analysis
        ]

    def _marker_line(self, show: bool, glyph: str) -> list[Segment]:
        """The cursor's arrow: above the board to drop, below it to pop."""
        if not show or not self.accepting:
            return []
        width = self._look.width
        return [
            Segment(" " * width * self.cursor, self.rich_style),
            Segment(glyph.center(width), self._style("board--marker")),
        ]

    def _cell_lines(self, row: int) -> list[list[_Cell]]:
        """Each line of a row of cells (a cell is ``look.height`` lines), one entry a column."""
        state = self._state
        look = self._look
        styles = {
            None: self._style("board--empty"),
            "R": self._style("board--red"),
            "Y": self._style("board--yellow"),
        }
        winning = self._overlay("board--winning")
        no_style = Style()
        last = self._last_cell()
        lines_of_row: list[list[_Cell]] = [[] for _ in range(look.height)]
        for column in range(state.columns):
            occupant = self._occupant(column, row)
            style = styles[occupant.short if occupant else None]
            lines = look.lines_for(occupant)
            if occupant is None and (column, row) in self._threats:
                players = self._threats[(column, row)]
                lines = look.threat(players)
                if len(players) == 1:
                    style = styles[next(iter(players)).short]
            after = no_style
            if (column, row) in self._winning:
                after = winning
                lines = look.framed(lines)
            elif (column, row) == last:
                lines = look.marked(lines)
            both = style + after
            for cells, text in zip(lines_of_row, lines, strict=True):
                cells.append((Segment(text, both), style, after))
        return lines_of_row

    def _occupant(self, column: int, row: int) -> Player | None:
        """Who is in a cell as drawn: a falling disc is shown where it is, not where it lands."""
        fall = self._fall
        if fall is not None and column == fall.column:
            if row == fall.row:
                return fall.player
            if row == fall.landing:
                return None
        return self._state.cell(column, row)

    def _last_cell(self) -> tuple[int, int] | None:
        """The cell of the disc just dropped (none for a pop, or while it falls)."""
        move = self._last_move
        if move is None or move.kind is not MoveKind.DROP or self._fall is not None:
            return None
        row = self._state.column_height(move.column) - 1
        return (move.column, row) if row >= 0 else None
