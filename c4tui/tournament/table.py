"""The standings as a table of words: the same cells for the live view and for plain lines."""

from __future__ import annotations

import math
from collections.abc import Sequence

from c4tui.tournament.results import GameResult
from c4tui.tournament.standings import FAILURES, Outcome, Standing

HEADERS = (
    "#",
    "Player",
    "Games",
    "W",
    "D",
    "L",
    "Score",
    "Elo",
    "±95%",
    "Crash",
    "Time",
    "Illegal",
)
ACCURACY_HEADER = "Accuracy"
#: The heads of a compact table (``compact``), where they differ.
COMPACT_HEADERS = {"Games": "G", "Score": "Pts", ACCURACY_HEADER: "Acc"}
#: A compact table's one column of failures, of every kind.
FAILS_HEADER = "Fail"
#: Mistakes listed per player under the table.
MISTAKES_SHOWN = 3


def elo_text(elo: float) -> str:
    """``+191``, ``-40``, ``0``, ``+inf``, ``-inf``."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo):+d}" if round(elo) else "0"


def error_text(line: Standing) -> str:
    """``±120``; ``±inf`` when the interval reaches 0 % or 100 %; blank beside an infinite Elo."""
    if math.isinf(line.elo):
        return ""
    return "±inf" if math.isinf(line.elo_error) else f"±{round(line.elo_error)}"


def accuracy_text(accuracy: float) -> str:
    """``89%``: rounded down, as the records' annotations say it (a mistake never shows 100%)."""
    return f"{int(accuracy * 100 + 1e-9)}%"


def score_text(score: float) -> str:
    """``3``, ``2.5``."""
    return f"{score:g}"


def reviewed(table: Sequence[Standing]) -> bool:
    """True when the solver's review gave anyone an accuracy (the column is shown then)."""
    return any(line.review.accuracy is not None for line in table)


def headers(table: Sequence[Standing]) -> tuple[str, ...]:
    """The column heads, Accuracy last when there is one."""
    return (*HEADERS, ACCURACY_HEADER) if reviewed(table) else HEADERS


def rows(table: Sequence[Standing]) -> list[tuple[str, ...]]:
    """One row of cells per player, in the table's order."""
    shown = []
    for place, line in enumerate(table, start=1):
        cells = (
            str(place),
            line.name,
            str(line.games),
            str(line.wins),
            str(line.draws),
            str(line.losses),
            score_text(line.score),
            elo_text(line.elo) if line.games else "",  # no games yet: no rating
            error_text(line) if line.games else "",
            *(str(line.failures.get(reason, 0)) for reason in FAILURES),
        )
        if reviewed(table):
            accuracy = line.review.accuracy
            cells = (*cells, "-" if accuracy is None else accuracy_text(accuracy))
        shown.append(cells)
    return shown


def compact(
    heads: Sequence[str], body: Sequence[Sequence[str]]
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The table in fewer, narrower columns: short heads, the failures added up in one.

    For a narrow terminal (60 columns): the live view, and the final table there.
    """
    first = heads.index(HEADERS[-len(FAILURES)])  # the failures' first column

    def merged(cells: Sequence[str], total: str) -> tuple[str, ...]:
        return (*cells[:first], total, *cells[first + len(FAILURES) :])

    shown = merged([COMPACT_HEADERS.get(head, head) for head in heads], FAILS_HEADER)
    failed = [str(sum(int(cell) for cell in row[first : first + len(FAILURES)])) for row in body]
    return shown, [merged(row, total) for row, total in zip(body, failed, strict=True)]


def mistakes_lines(table: Sequence[Standing]) -> list[str]:
    """The list of costliest mistakes, each player's first few, when the review found any."""
    if not any(line.review.mistakes for line in table):
        return []
    lines = ["Costliest mistakes:"]
    for line in table:
        for index, mistake in enumerate(line.review.mistakes[:MISTAKES_SHOWN]):
            name = f"{line.name}:" if index == 0 else ""
            lines.append(f"  {name:<{len(line.name) + 1}} {mistake.words_with_game()}")
    return lines


def plain_table(table: Sequence[Standing], width: int | None = None) -> str:
    """The standings as aligned plain text (names left, numbers right), mistakes below.

    Past ``width`` columns (a narrow terminal's) in the compact columns of the live view.
    """
    heads, body = headers(table), rows(table)
    text = _aligned(heads, body)
    if width is not None and max(map(len, text)) > width:
        text = _aligned(*compact(heads, body))
    return "\n".join([*text, *mistakes_lines(table)])


def _aligned(heads: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    """The heads and rows as lines, each column as wide as its widest cell."""
    widths = [max(len(row[column]) for row in (heads, *body)) for column in range(len(heads))]

    def line(cells: Sequence[str]) -> str:
        # One space between numbers, two after the name: the table fits 80 columns
        # with names up to 20 characters.
        return "".join(
            (cell.ljust(width) + " " if column == 1 else cell.rjust(width)) + " "
            for column, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(heads), *(line(row) for row in body)]


def game_line(result: GameResult, done: int, total: int) -> str:
    """One finished game in a line: ``[3/12] hard - medium 1-0 (four: four in a row)``."""
    points = {Outcome.RED: "1-0", Outcome.YELLOW: "0-1", Outcome.DRAW: "½-½"}[result.outcome]
    why = result.reason.value + (f": {result.detail}" if result.detail else "")
    plies = len(result.moves)
    return f"[{done}/{total}] {result.red} - {result.yellow} {points} ({why}; {plies} moves)"
