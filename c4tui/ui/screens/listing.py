"""What the lobby's listings share (the reports, the leaderboard, your ssh keys): one base.

A title, a line of help, a table of what the server lists (one row a thing, keyed),
what a screen adds under it (``under_table``), a status line and the footer; r
fetches the list again (``fetch``, saying "Fetching …" first), Esc goes back.
The ids are the screen's ``NAME``'s: ``#reports-title``, ``#reports``,
``#reports-status``. A listing of players opens their profiles (``profiled_listing``,
apart: a profile opens the listing of its keys, built on this one).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from c4tui.client.link import LobbyLink
from c4tui.ui.widgets.footer import FittingFooter


class ListingScreen(Screen[None]):
    """A list fetched from the lobby; r fetches it again, Esc goes back.

    Args:
        link: the lobby connection (logged in).
    """

    DEFAULT_CSS = """
    ListingScreen .listing-title { text-style: bold; margin: 1 2 0 2; height: auto; }
    ListingScreen .listing-help { color: $text-muted; margin: 0 2 1 2; height: auto; }
    ListingScreen DataTable { height: 1fr; margin: 0 2; }
    ListingScreen .listing-status { margin: 1 2 0 2; height: auto; }
    ListingScreen .listing-status.-error { color: $error; text-style: bold; }
    """

    #: The ids' stem (``reports``), the title, the help line, what is fetched (words).
    NAME = "listing"
    TITLE = ""
    HELP = ""
    FETCHING = "Fetching the list…"

    def __init__(self, link: LobbyLink) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        """Title, help, the table, what the screen adds, a status line, the footer."""
        with Vertical():
            yield Static(self.TITLE, id=f"{self.NAME}-title", classes="listing-title")
            yield Static(self.HELP, id=f"{self.NAME}-help", classes="listing-help")
            yield DataTable(id=self.NAME, cursor_type="row", zebra_stripes=True)
            yield from self.under_table()
            # It quotes the server: no markup.
            yield Static("", id=f"{self.NAME}-status", classes="listing-status", markup=False)
        yield FittingFooter(show_command_palette=False)

    def under_table(self) -> Iterable[Widget]:
        """What stands between the table and the status line (nothing here)."""
        return ()

    def on_mount(self) -> None:
        """The columns, then the list."""
        table = self.query_one(DataTable)
        self.add_columns(table)
        table.focus()
        self.action_refresh()

    def add_columns(self, table: DataTable[object]) -> None:
        """The table's columns (each screen its own)."""

    def fetch(self) -> object:
        """Fetch the list and show it (a worker; each screen its own)."""
        raise NotImplementedError

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one(f"#{self.NAME}-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def action_refresh(self) -> None:
        """Fetch the list again."""
        self._say(self.FETCHING)
        self.fetch()

    @property
    def chosen_key(self) -> str | None:
        """The key of the row under the cursor (None: no rows)."""
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_leave(self) -> None:
        """Back to where it was opened."""
        self.dismiss(None)
