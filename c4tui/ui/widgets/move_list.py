"""The list of moves played, numbered in pairs, drawn line by line (Textual's Line API).

Speed: the list used to be a Static in a scrolling container, which grew a line
every other move, and a widget that changes height makes Textual lay the whole
screen out again (up to 9 ms of a key on a 200 × 60 terminal). This one keeps the
size the panel gives it: a move repaints its lines, and the list scrolls itself
to the newest move (the mouse wheel still scrolls back).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from c4tui.engine import Move, format_move, move_number
from c4tui.ui.widgets.scrolling import set_virtual_size

#: What the list says before the first move.
NO_MOVES = "(no moves yet)"


#: After the move that lost the game (``marked``), as chess marks a blunder.
LOSING_MARK = "??"


def move_list_lines(
    moves: tuple[Move, ...], marked: int | None = None, marks: tuple[str, ...] = ()
) -> list[str]:
    """Moves numbered in pairs, a line each: ``  1. d4 d4`` (red's move first).

    Each move is followed by its mark in ``marks`` (a review's ``?!``, ``?``, ``??``), if
    it has one; else the move at index ``marked`` (if any) by ``LOSING_MARK``.
    """
    written = [
        format_move(move) + (_mark(marks, index) or (LOSING_MARK if index == marked else ""))
        for index, move in enumerate(moves)
    ]
    lines = []
    for index in range(0, len(moves), 2):
        pair = " ".join(written[index : index + 2])
        lines.append(f"{move_number(index + 1):>3}. {pair}")
    return lines or [NO_MOVES]


def _mark(marks: tuple[str, ...], index: int) -> str:
    return marks[index] if index < len(marks) else ""


class MoveList(ScrollView):
    """The moves of the game shown, the newest always in view."""

    DEFAULT_CSS = """
    MoveList { height: 1fr; overflow-x: hidden; scrollbar-size-vertical: 1; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines = [NO_MOVES]

    @property
    def text(self) -> str:
        """The whole list, a line per pair of moves."""
        return "\n".join(self._lines)

    def on_mount(self) -> None:
        """The first list's size, before the first layout."""
        self._fit(self._lines)

    def on_resize(self) -> None:
        """The news above grew or shrank: the newest moves stay in view."""
        self.scroll_end(animate=False, immediate=True)

    def show(
        self, moves: tuple[Move, ...], marked: int | None = None, marks: tuple[str, ...] = ()
    ) -> bool:
        """Show ``moves`` (``marked``, ``marks``: see ``move_list_lines``), scrolled to the newest.

        False if they were shown already.
        """
        lines = move_list_lines(moves, marked, marks)
        if lines == self._lines:
            return False
        old, self._lines = self._lines, lines
        if self.is_mounted:
            self._fit(lines)
            scrolled = self.scroll_offset.y
            self.scroll_end(animate=False, immediate=True)
            if self.scroll_offset.y == scrolled:  # (scrolling repaints the whole view)
                self._repaint_changes(old, lines)
        return True

    def _repaint_changes(self, old: list[str], new: list[str]) -> None:
        """Repaint the lines that differ: a move changes the last line or adds one."""
        first = next(
            (index for index, (was, now) in enumerate(zip(old, new, strict=False)) if was != now),
            min(len(old), len(new)),
        )
        self.refresh_lines(first, max(len(old), len(new)) - first)

    def _fit(self, lines: list[str]) -> None:
        """Make the scrollable area as tall as the list (the panel sets the widget's size)."""
        set_virtual_size(self, Size(max(cell_len(line) for line in lines), len(lines)))

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the view: a pair of moves, or blank below the list."""
        index = y + int(self.scroll_offset.y)
        text = self._lines[index] if 0 <= index < len(self._lines) else ""
        style = self.rich_style
        width = self.scrollable_content_region.width
        return Strip([Segment(text, style)]).adjust_cell_length(width, style)
