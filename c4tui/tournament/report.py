"""How a tournament shows itself while it runs: the reporters' protocol, and plain lines.

Plain lines are for a standard output that is not a terminal (a file, a pipe, CI):
one line per finished game, then the table. The live view for a terminal is
``live.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TextIO

from c4tui.tournament.results import GameResult
from c4tui.tournament.standings import Standing
from c4tui.tournament.table import game_line, plain_table


class Reporter(Protocol):
    """Told how the tournament goes; shows it."""

    def begin(self, total: int, done: int, table: Sequence[Standing]) -> None:
        """The games start: ``total`` in all, ``done`` of them already played (resumed)."""
        ...

    def game_over(self, result: GameResult, done: int, table: Sequence[Standing]) -> None:
        """A game ended; ``done`` games are played now, and ``table`` stands."""
        ...

    def end(self) -> None:
        """The games stopped (all played, or interrupted): leave the screen as it is."""
        ...


class PlainReporter:
    """One line per finished game, on ``out``."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._total = 0

    def begin(self, total: int, done: int, table: Sequence[Standing]) -> None:
        """Say how many games there are to play."""
        self._total = total
        left = total - done
        already = f" ({done} already played)" if done else ""
        print(f"{left} games to play{already}", file=self._out, flush=True)

    def game_over(self, result: GameResult, done: int, table: Sequence[Standing]) -> None:
        """The game's line."""
        print(game_line(result, done, self._total), file=self._out, flush=True)

    def end(self) -> None:
        """Nothing to tidy."""


def final_report(table: Sequence[Standing], width: int | None = None) -> str:
    """The standings as printed at the end, in either mode (``width``: a terminal's)."""
    return plain_table(table, width)
