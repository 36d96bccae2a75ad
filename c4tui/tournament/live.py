"""The live view of a tournament in a terminal: a progress bar, games done and left, the table.

Drawn with rich (which comes with Textual): no full-screen app, so Ctrl-C reaches the
tournament; the view is cleared at the end, when the final table is printed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from c4tui.tournament.results import GameResult
from c4tui.tournament.standings import Standing
from c4tui.tournament.table import game_line, headers, rows

#: Finished games shown under the table (the newest last).
RECENT_SHOWN = 3
#: The widest a player's name is shown, so the table fits 80 columns with its Accuracy.
PLAYER_WIDTH = 20


class LiveReporter:
    """Redraws the progress and the standings as each game ends."""

    def __init__(self, console: Console | None = None) -> None:
        self._console = console or Console()
        self._progress = Progress(
            TextColumn("Games"),
            BarColumn(bar_width=None),
            MofNCompleteColumn(),
            TextColumn("{task.fields[left]} left"),
            TimeElapsedColumn(),
            console=self._console,
        )
        self._task = self._progress.add_task("games", total=1, left=0)
        self._recent: list[str] = []
        self._table: Sequence[Standing] = ()
        self._live = Live(console=self._console, refresh_per_second=4, transient=True)
        self._total = 0

    def begin(self, total: int, done: int, table: Sequence[Standing]) -> None:
        """Start drawing."""
        self._total = total
        self._progress.update(self._task, total=total, completed=done, left=total - done)
        self._table = table
        self._live.update(self._view())
        self._live.start()

    def game_over(self, result: GameResult, done: int, table: Sequence[Standing]) -> None:
        """Move the bar, redraw the table, show the game among the latest."""
        self._progress.update(self._task, completed=done, left=self._total - done)
        self._recent = [*self._recent, game_line(result, done, self._total)][-RECENT_SHOWN:]
        self._table = table
        self._live.update(self._view())

    def end(self) -> None:
        """Stop drawing and clear the view: the final table is printed after it."""
        self._live.stop()

    def _view(self) -> Group:
        recent = [Text(line, overflow="ellipsis", no_wrap=True) for line in self._recent]
        return Group(self._progress, standings_table(self._table), *recent)


def standings_table(table: Sequence[Standing]) -> Table:
    """The standings as a rich table (numbers right-aligned)."""
    shown = Table(box=None, padding=(0, 1, 0, 0), header_style="bold")
    for column, head in enumerate(headers(table)):
        if column == 1:  # a long name is cut short, never the numbers
            shown.add_column(head, no_wrap=True, overflow="ellipsis", max_width=PLAYER_WIDTH)
        else:
            shown.add_column(head, justify="right", no_wrap=True)
    for row in rows(table):
        shown.add_row(*row)
    return shown
