"""The live view of a tournament in a terminal: a progress bar, games done and left, the table.

Drawn with rich (which comes with Textual): no full-screen app, so Ctrl-C reaches the
tournament; the view is cleared at the end, when the final table is printed. It fits
the terminal down to 60 columns (a narrow one gets the compact table), and says when
the games should be done (ETA): each game finished so far took its time, and the games
left take that on average, ``concurrency`` at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta

from rich.cells import cell_len
from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from c4tui.tournament.results import GameResult
from c4tui.tournament.standings import Standing
from c4tui.tournament.table import compact, game_line, headers, rows

#: Finished games shown under the table (the newest last).
RECENT_SHOWN = 3
#: The widest a player's name is shown, so the table fits 80 columns with its Accuracy.
PLAYER_WIDTH = 20
#: The narrowest a name is cut to before the table is made compact.
PLAYER_MIN_WIDTH = 12


def eta_seconds(durations: Sequence[float], left: int, concurrency: int) -> float | None:
    """How long the ``left`` games should take: their average time, ``concurrency`` at once.

    None before any game has finished (nothing to go by).
    """
    if not durations:
        return None
    return sum(durations) / len(durations) * math.ceil(left / max(1, concurrency))


class _EtaColumn(ProgressColumn):
    """``ETA 0:01:10``: counting down between games to the time the last estimate gave."""

    def render(self, task: Task) -> Text:
        deadline = task.fields.get("deadline")
        if deadline is None:
            return Text("ETA -:--:--")
        left = math.ceil(max(0.0, deadline - task.get_time()))
        return Text(f"ETA {timedelta(seconds=left)}")


class LiveReporter:
    """Redraws the progress and the standings as each game ends.

    Args:
        console: where it draws (default: the terminal).
        concurrency: games played at once, for the ETA.
    """

    def __init__(self, console: Console | None = None, concurrency: int = 1) -> None:
        self._console = console or Console()
        self._concurrency = concurrency
        self._durations: list[float] = []  # of the games finished in this run
        self._progress = Progress(
            TextColumn("Games"),
            BarColumn(bar_width=None),
            MofNCompleteColumn(),
            TextColumn("{task.fields[left]} left"),
            TimeElapsedColumn(),
            _EtaColumn(),
            console=self._console,
        )
        self._task = self._progress.add_task("games", total=1, left=0, deadline=None)
        self._recent: list[str] = []
        self._table: Sequence[Standing] = ()
        self._live = Live(console=self._console, refresh_per_second=4, transient=True)
        self._total = 0

    def begin(self, total: int, done: int, table: Sequence[Standing]) -> None:
        """Start drawing."""
        self._total = total
        self._progress.update(self._task, total=total, completed=done, left=total - done)
        self._table = table
        self._live.update(self.view())
        self._live.start()

    def game_over(self, result: GameResult, done: int, table: Sequence[Standing]) -> None:
        """Move the bar, estimate the time left again, redraw the table, show the game."""
        self._durations.append(result.seconds)
        eta = eta_seconds(self._durations, self._total - done, self._concurrency)
        deadline = None if eta is None else self._progress.get_time() + eta
        self._progress.update(
            self._task, completed=done, left=self._total - done, deadline=deadline
        )
        self._recent = [*self._recent, game_line(result, done, self._total)][-RECENT_SHOWN:]
        self._table = table
        self._live.update(self.view())

    def end(self) -> None:
        """Stop drawing and clear the view: the final table is printed after it."""
        self._live.stop()

    def view(self) -> Group:
        """What is drawn now: the progress, the table, the latest games."""
        recent = [Text(line, overflow="ellipsis", no_wrap=True) for line in self._recent]
        table = standings_table(self._table, self._console.width)
        return Group(self._progress, table, *recent)


def standings_table(table: Sequence[Standing], width: int = 80) -> Table:
    """The standings as a rich table within ``width`` columns (numbers right-aligned).

    A long name is cut short, never a number; where even a name cut to
    ``PLAYER_MIN_WIDTH`` leaves too little room, the table is compact (``compact``).
    """
    heads, body = headers(table), rows(table)
    name, room = _name_and_room(heads, body, width)
    if room < min(name, PLAYER_MIN_WIDTH):
        heads, body = compact(heads, body)
        name, room = _name_and_room(heads, body, width)
    player = max(1, min(name, PLAYER_WIDTH, room))
    shown = Table(box=None, padding=(0, 1, 0, 0), header_style="bold")
    for column, head in enumerate(heads):
        if column == 1:
            shown.add_column(head, no_wrap=True, overflow="ellipsis", max_width=player)
        else:
            shown.add_column(head, justify="right", no_wrap=True)
    for row in body:
        shown.add_row(*row)
    return shown


def _name_and_room(
    heads: Sequence[str], body: Sequence[Sequence[str]], width: int
) -> tuple[int, int]:
    """The longest name (or head), and the room beside the other columns (each its space)."""
    widths = [max(cell_len(cell) for cell in column) for column in zip(heads, *body, strict=True)]
    return widths[1], width - (sum(widths) - widths[1] + len(widths))
