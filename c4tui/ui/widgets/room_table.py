"""The lobby's rooms as a table: one row a room, keyed by its name, rebuilt only on change."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

#: One room's row: its name (the row's key) first.
Row = tuple[str, ...]

#: The columns: the lobby's, and the tic-tac-toe rooms' (their protocol tells no more).
LOBBY_COLUMNS = ("Room", "Board", "Players", "Watching", "State", "Terms")
TICTACTOE_COLUMNS = ("Room", "Game", "State")
#: How a player we block is marked in every list (spec §7), in words: no colour needed.
BLOCKED_MARK = "[blocked]"
#: Marks shown dimmed wherever they stand in a cell: whom we block matters less.
DIMMED_MARKS = (BLOCKED_MARK,)


def cell_text(cell: str) -> Text:
    """A cell as words, not markup (``[bot]`` stays), its ``DIMMED_MARKS`` dimmed."""
    text = Text(cell)
    text.highlight_words(DIMMED_MARKS, "dim")
    return text


class RoomTable(DataTable[Text]):
    """Rooms to choose from; the cursor stays on its room when the list changes."""

    def __init__(self, columns: tuple[str, ...], *, id: str) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._columns = columns
        self._shown: list[Row] | None = None  # as the table shows them

    def on_mount(self) -> None:
        """The columns, once."""
        self.add_columns(*self._columns)

    def show(self, rooms: list[Row]) -> None:
        """Rebuild the rows only when the rooms changed, the cursor on the same room.

        A rebuild at every refresh flickered, and could catch the table empty.
        """
        if rooms == self._shown:
            return
        self._shown = rooms
        chosen = self.chosen
        self.clear()
        for row in rooms:
            self.add_row(*(cell_text(cell) for cell in row), key=row[0])
        names = [row[0] for row in rooms]
        if chosen in names:
            self.move_cursor(row=names.index(chosen))

    @property
    def chosen(self) -> str | None:
        """The name of the room under the cursor (None: no rooms)."""
        if not self.row_count:
            return None
        return str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)
