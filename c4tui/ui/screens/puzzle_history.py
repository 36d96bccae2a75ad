"""The puzzles tried: each one's latest try, the failed ones first; Enter tries one again.

Dismissed with the chosen puzzle's id (None: Esc, nothing chosen). A retry is not rated
(``puzzles.progress``), and the list says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from c4tui.puzzles.progress import Try
from c4tui.ui.widgets.footer import FittingFooter

#: The list's help line.
HISTORY_HELP = "Your latest try at each puzzle, failed ones first. Enter retries one (not rated)."


class PuzzleHistory(ModalScreen[str | None]):
    """The tries, newest first within failed and solved; Enter picks one, Esc goes back.

    Args:
        tries: each puzzle's latest try, in the order shown.
        number: a puzzle's place in the set, by its id.
    """

    DEFAULT_CSS = """
    PuzzleHistory { align: center middle; }
    PuzzleHistory > Vertical {
        width: 64; max-width: 100%; height: auto; max-height: 1fr;
        border: round $primary; background: $panel; padding: 0 1;
    }
    PuzzleHistory #history-help { color: $text-muted; margin-bottom: 1; }
    PuzzleHistory DataTable { height: auto; max-height: 16; }
    """
    BINDINGS = [
        Binding("enter", "retry", "Retry", priority=True, id="history.retry"),
        Binding("escape,y", "back", "Back", id="history.back"),
    ]

    def __init__(self, tries: Sequence[Try], number: Callable[[str], int]) -> None:
        super().__init__()
        self._tries = tries
        self._number = number

    def compose(self) -> ComposeResult:
        """The help line and the table (or the word that there is nothing yet)."""
        with Vertical():
            yield Static("Puzzles tried", id="history-title")
            yield Static(HISTORY_HELP if self._tries else "No tries yet.", id="history-help")
            yield DataTable(id="history", cursor_type="row", zebra_stripes=True)
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """One row a puzzle: its number, the day, how it went, your rating after it."""
        table: DataTable[str] = self.query_one(DataTable)
        for column in ("Puzzle", "Day", "Result", "Rating after"):
            table.add_column(column)
        for entry in self._tries:
            result = "solved" if entry.solved else "failed"
            number = str(self._number(entry.puzzle_id))
            table.add_row(number, entry.day, result, str(entry.rating_after), key=entry.puzzle_id)
        table.display = bool(self._tries)
        table.focus()

    def action_retry(self) -> None:
        """Try the chosen puzzle again."""
        table = self.query_one(DataTable)
        if not table.row_count:
            self.dismiss(None)
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        self.dismiss(str(key))

    def action_back(self) -> None:
        """Back to the puzzle, nothing chosen."""
        self.dismiss(None)
