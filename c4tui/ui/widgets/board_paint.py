"""The board's lines: pure functions of what it shows (a Picture), its look and its styles.

No Textual here, only Rich's segments and styles, so the drawing is tested without
an app (tests/ui/test_board_paint.py). The board widget keeps the lines these make
and says which to make again.

The board's virtual lines, top to bottom: 0 the column numbers, 1 the drop marker,
then ``look.height`` lines per row of cells (the top row first), then the pop
marker, then the analysis row (when shown). Where the widget has no line to spare
for that row, the labels share the pop marker's line (the marker over its column's
label), so turning the analysis on never asks for a bigger terminal.

Speed: a key must show within one frame on a 20 x 20 board. Each line of cells is
kept without the cursor (a ``Line``), made again only when what it shows changes;
the cursor's column is styled as the line is drawn. Neighbouring cells of one style
are merged into runs: everything after the board (the compositor, the terminal)
works segment by segment, and an empty row is one run, not twenty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field

from rich.segment import Segment
from rich.style import Style

from c4tui.engine import GameState, Move, MoveKind, Player
from c4tui.ui.widgets.looks import CellLook, board_height

#: Lines above the first row of cells: the column numbers and the drop marker.
LINES_ABOVE = 2


#: The board's component classes (Textual styles them; ``BoardStyles`` holds their styles).
COMPONENTS = frozenset(
    {
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
)

#: The cursor's marker, by (ASCII only, below the board: pop).
MARKERS = {(False, False): "▼", (False, True): "▲", (True, False): "v", (True, True): "^"}


@dataclass(frozen=True)
class Fall:
    """A disc on its way down a column (the drop animation)."""

    column: int
    player: Player
    row: int  # where it is now
    landing: int  # where it stops

    @classmethod
    def of(cls, state: GameState, move: Move) -> Fall | None:
        """The fall of ``move``'s disc, just played in ``state`` (None: nothing to fall)."""
        landing = state.column_height(move.column) - 1
        player = state.cell(move.column, landing) if landing >= 0 else None
        top = state.rows - 1
        if move.kind is not MoveKind.DROP or player is None or landing == top:
            return None
        return cls(move.column, player, top, landing)

    @property
    def cells(self) -> set[tuple[int, int]]:
        """The cells it changes: where it is drawn now, and where it lands."""
        return {(self.column, self.row), (self.column, self.landing)}


@dataclass(frozen=True)
class BoardStyles:
    """The board's component styles, looked up once per style change.

    The overlays (cursor, winning, last) are only what their class itself sets
    (e.g. a background), to add on top of a cell's own style.
    """

    red: Style
    yellow: Style
    empty: Style
    label: Style
    marker: Style
    good: Style
    bad: Style
    cursor: Style
    winning: Style
    last: Style

    @classmethod
    def looked_up(
        cls, style: Callable[[str], Style], overlay: Callable[[str], Style]
    ) -> BoardStyles:
        """The styles of the ``board--…`` component classes, found with ``style``/``overlay``."""
        return cls(
            red=style("board--red"),
            yellow=style("board--yellow"),
            empty=style("board--empty"),
            label=style("board--label"),
            marker=style("board--marker"),
            good=style("board--good"),
            bad=style("board--bad"),
            cursor=overlay("board--cursor"),
            winning=overlay("board--winning"),
            last=overlay("board--last"),
        )

    def outcome(self, label: str) -> Style:
        """An analysis label's style: wins ("W3", "+") stand out, losses warn, others are quiet."""
        first = label[:1]
        if first in ("W", "+"):
            return self.good
        return self.bad if first in ("L", "-") else self.label

    def of(self, player: Player | None) -> Style:
        """A disc's style (or an empty cell's)."""
        if player is None:
            return self.empty
        return self.red if player is Player.RED else self.yellow


@dataclass(frozen=True)
class Paint:
    """What every screen line of one paint shares."""

    width: int
    left: int  # blank columns left of the board
    top: int  # blank lines above it
    scroll_x: int
    scroll_y: int
    base: Style
    picture: Picture


@dataclass(frozen=True)
class Picture:
    """Everything the board's lines show, but the cursor (drawn over them)."""

    state: GameState
    look: CellLook
    last_move: Move | None = None
    winning: frozenset[tuple[int, int]] = frozenset()
    #: Empty cells that would complete four, and for whom.
    threats: Mapping[tuple[int, int], frozenset[Player]] = field(default_factory=dict)
    fall: Fall | None = None
    #: One short outcome per column ("W3", "D", "L5"), or None: no analysis row.
    analysis: tuple[str, ...] | None = None
    #: The analysis row has a line of its own; False: it shares the pop marker's line.
    analysis_apart: bool = True
    pop_mode: bool = False
    #: False while moves wait (the markers are hidden).
    accepting: bool = True
    ascii_only: bool = False

    def occupant(self, column: int, row: int) -> Player | None:
        """Who is in a cell as drawn: a falling disc is shown where it is, not where it lands."""
        fall = self.fall
        if fall is not None and column == fall.column:
            if row == fall.row:
                return fall.player
            if row == fall.landing:
                return None
        return self.state.cell(column, row)

    def last_cell(self) -> tuple[int, int] | None:
        """The cell of the disc just dropped (none for a pop, or while it falls)."""
        move = self.last_move
        if move is None or move.kind is not MoveKind.DROP or self.fall is not None:
            return None
        row = self.state.column_height(move.column) - 1
        return (move.column, row) if row >= 0 else None

    def marked(self) -> set[tuple[int, int]]:
        """The cells drawn with a mark: the last disc, a winning line, threats."""
        last = self.last_cell()
        return {*self.winning, *self.threats, *([last] if last else [])}

    def size(self) -> tuple[int, int]:
        """The whole board's width and height in cells (numbers, markers, analysis row)."""
        state, look = self.state, self.look
        analysis_lines = 1 if self.analysis is not None and self.analysis_apart else 0
        return state.columns * look.width, board_height(state.rows, look) + analysis_lines

    def cell_boxes(self, cells: Iterable[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
        """Where ``cells`` are drawn on the board: (x, y, width, height) of each."""
        width, height = self.look.width, self.look.height
        return [(column * width, self.row_lines(row).start, width, height) for column, row in cells]

    def row_lines(self, row: int) -> range:
        """The virtual lines that draw row ``row`` of cells (0 at the bottom)."""
        return row_lines(self.state.rows, self.look.height, row)

    def row_at(self, line: int) -> int:
        """The row of cells that virtual line ``line`` is part of."""
        return self.state.rows - 1 - (line - LINES_ABOVE) // self.look.height


def row_lines(rows: int, cell_height: int, row: int) -> range:
    """The virtual lines that draw row ``row`` (0 at the bottom) of ``rows`` rows."""
    first = LINES_ABOVE + (rows - 1 - row) * cell_height
    return range(first, first + cell_height)


#: One column's part of a line: its segment without the cursor, and the style before and
#: after which the cursor's background goes (a winning cell's own background stays on top).
Cell = tuple[Segment, Style, Style]


@dataclass(frozen=True)
class Line:
    """A line of cells without the cursor, kept between paints.

    Each column's cell, and neighbours of one style merged into runs (text, style,
    first column, last column).
    """

    cells: list[Cell]
    runs: list[tuple[str, Style, int, int]]

    @classmethod
    def of(cls, cells: list[Cell]) -> Line:
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


class KeptLines:
    """Lines of cells without the cursor, kept between paints until what they show changes.

    ``lines`` maps a virtual line to its Line; the board says which to forget.
    """

    def __init__(self) -> None:
        self.lines: dict[int, Line] = {}
        #: The look and board size the kept lines were made for.
        self._made_for: tuple[CellLook, int, int] | None = None

    def fit(self, picture: Picture) -> None:
        """Forget every line made for another look or another board size."""
        made_for = (picture.look, picture.state.columns, picture.state.rows)
        if made_for != self._made_for:
            self.lines.clear()
            self._made_for = made_for

    def forget(self, picture: Picture, rows: Iterable[int], labels: bool) -> None:
        """These rows (and the column numbers, with ``labels``) are made again when drawn."""
        for row in rows:
            for line in picture.row_lines(row):
                self.lines.pop(line, None)
        if labels:
            self.lines.pop(0, None)

    def line(
        self, picture: Picture, styles: BoardStyles, line: int, *, cursor: int, blank: Style
    ) -> list[Segment]:
        """Virtual line ``line`` (see ``board_line``), from the lines kept where it can."""
        return board_line(picture, styles, line, self.lines, cursor=cursor, blank=blank)


def board_line(
    picture: Picture,
    styles: BoardStyles,
    line: int,
    kept: MutableMapping[int, Line],
    *,
    cursor: int,
    blank: Style,
) -> list[Segment]:
    """Virtual line ``line`` of the board with the cursor on column ``cursor``.

    Lines of cells come from ``kept``, and are made (and kept) when missing; ``blank``
    is the board's own style, for the space left of a marker.
    """
    look = picture.look
    cells_height = picture.state.rows * look.height
    below = LINES_ABOVE + cells_height  # the pop marker's line
    analysis_at = below + 1 if picture.analysis_apart else below
    if line == analysis_at and picture.analysis is not None:
        return analysis_line(picture, styles, None if picture.analysis_apart else cursor)
    if line in (1, below):
        return marker_line(picture, styles, below=line > 1, cursor=cursor, blank=blank)
    if line == below + 1:
        return []
    if line != 0 and not 0 <= line - LINES_ABOVE < cells_height:
        return []
    if line not in kept:
        kept.update(made_lines(picture, styles, line))
    return kept[line].with_cursor(cursor, look.width, styles.cursor)


def made_lines(picture: Picture, styles: BoardStyles, line: int) -> dict[int, Line]:
    """The label line (for ``line`` 0), or every line of the row of cells ``line`` is in."""
    if line == 0:
        return {0: Line.of(label_cells(picture, styles))}
    row = picture.row_at(line)
    lines = zip(picture.row_lines(row), cell_lines(picture, styles, row), strict=True)
    return {number: Line.of(cells) for number, cells in lines}


def label_cells(picture: Picture, styles: BoardStyles) -> list[Cell]:
    """The column numbers, the last move's underlined."""
    label = styles.label
    last_column = picture.last_move.column if picture.last_move else None
    width = picture.look.width
    no_style = Style()
    cells = []
    for column in range(picture.state.columns):
        after = styles.last if column == last_column else no_style
        text = column_number(column + 1, width)
        cells.append((Segment(text, label + after), label, after))
    return cells


def column_number(number: int, width: int) -> str:
    """``number`` centred in a cell ``width`` wide, its last column kept blank.

    Centred, "20" filled a 3-wide cell to its edge and ran into the panel beside the
    board; a number with no blank after it moves one column left.
    """
    text = str(number).center(width)
    return text[1:] + " " if text.startswith(" ") and not text.endswith(" ") else text


def analysis_line(
    picture: Picture, styles: BoardStyles, marker_at: int | None = None
) -> list[Segment]:
    """Each column's outcome: wins stand out, losses warn, the rest are quiet.

    Sharing the pop marker's line, the marker (when shown) takes the place of the
    label of its column, ``marker_at``.
    """
    if picture.analysis is None:
        return []
    width = picture.look.width
    segments = [
        Segment(label.center(width), styles.outcome(label))
        for label in readable_labels(picture.analysis, width)
    ]
    if marker_at is not None and picture.pop_mode and picture.accepting:
        glyph = MARKERS[picture.ascii_only, True]
        segments[marker_at] = Segment(glyph.center(width), styles.marker)
    return segments


def readable_labels(labels: tuple[str, ...], width: int) -> tuple[str, ...]:
    """The labels as cells ``width`` wide show them, each apart from the next.

    Whole when every one leaves a blank in its cell; otherwise every one cut to its
    outcome (W, D, L, + = -): a row that reads one way, whose counts the panel's
    words give for the best column. (Pending dots stay dots, one fewer.)
    """
    if all(len(label) < width for label in labels):
        return labels
    return tuple(label[: width - 1] if label.startswith(".") else label[:1] for label in labels)


def marker_line(
    picture: Picture, styles: BoardStyles, *, below: bool, cursor: int, blank: Style
) -> list[Segment]:
    """The cursor's arrow: above the board to drop, below it to pop (none while moves wait)."""
    if below != picture.pop_mode or not picture.accepting:
        return []
    glyph = MARKERS[picture.ascii_only, below]
    width = picture.look.width
    return [Segment(" " * width * cursor, blank), Segment(glyph.center(width), styles.marker)]


def cell_lines(picture: Picture, styles: BoardStyles, row: int) -> list[list[Cell]]:
    """Each line of a row of cells (a cell is ``look.height`` lines), one entry a column."""
    look = picture.look
    no_style = Style()
    last = picture.last_cell()
    lines_of_row: list[list[Cell]] = [[] for _ in range(look.height)]
    for column in range(picture.state.columns):
        occupant = picture.occupant(column, row)
        style = styles.of(occupant)
        lines = look.lines_for(occupant)
        players = picture.threats.get((column, row)) if occupant is None else None
        if players is not None:
            lines = look.threat(players)
            if len(players) == 1:
                style = styles.of(next(iter(players)))
        after = no_style
        if (column, row) in picture.winning:
            after = styles.winning
            lines = look.framed(lines)
        elif (column, row) == last:
            lines = look.marked(lines)
        both = style + after
        for cells, text in zip(lines_of_row, lines, strict=True):
            cells.append((Segment(text, both), style, after))
    return lines_of_row
