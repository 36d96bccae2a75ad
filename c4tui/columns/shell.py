"""The handout's test shell, character for character: no prompts, the field after every command.

Input: rows, columns, ``EMPTY`` or ``CONTENTS`` and that many lines, then commands:
a blank line (time passes), ``F c A B C``, ``R``, ``<``, ``>``, ``Q``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from c4tui.columns.game import HIDDEN, MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Field
from c4tui.numbers import ascii_digits, number_in_range

GAME_OVER = "GAME OVER"
#: What the shell reads after the field, in the handout's words.
COMMANDS = "a blank line, F column A B C, R, <, > or Q"


def render(field: Field) -> list[str]:
    """The field as the handout shows it: ``|``, three characters a cell, ``|``; then the floor."""
    faller: dict[tuple[int, int], str] = {}
    if field.faller is not None:
        faller = {(row, column): colour for row, column, colour in field.faller.cells()}
    landed = field.landed
    lines = []
    for row in range(HIDDEN, HIDDEN + field.rows):
        cells = []
        for column in range(field.columns):
            cells.append(_cell(field, faller, landed, row, column))
        lines.append("|" + "".join(cells) + "|")
    lines.append(" " + "-" * (3 * field.columns) + " ")
    return lines


def _cell(
    field: Field, faller: dict[tuple[int, int], str], landed: bool, row: int, column: int
) -> str:
    if (row, column) in faller:
        falling = faller[(row, column)]
        return f"|{falling}|" if landed else f"[{falling}]"
    colour = field.cells[row][column]
    if colour is None:
        return "   "
    return f"*{colour}*" if (row, column) in field.matched else f" {colour} "


def apply(field: Field, command: str) -> Field | None:
    """The field after ``command`` (None for Q). Raises ColumnsError / ValueError if malformed."""
    if command == "":
        return field.tick()
    if command == "Q":
        return None
    if command == "R":
        return field.rotate()
    if command in ("<", ">"):
        return field.shift(-1 if command == "<" else 1)
    words = command.split(" ")
    if len(words) == 5 and words[0] == "F" and ascii_digits(words[1]):
        return field.create_faller(int(words[1]), (words[2], words[3], words[4]))
    raise ValueError(f"expected a command ({COMMANDS}), not {command!r}")


def run_shell(read: Callable[[], str] = input, write: Callable[[str], None] = print) -> int:
    """Run the shell until Q, GAME OVER or the end of input; returns the exit status."""
    try:
        rows = _read_size(read, "rows", MIN_ROWS, MAX_ROWS)
        columns = _read_size(read, "columns", MIN_COLUMNS, MAX_COLUMNS)
        start = read()
        if start == "CONTENTS":
            field = Field.with_contents(rows, columns, [read() for _ in range(rows)])
        else:
            field = Field.empty(rows, columns)
        _show(field, write)
        while True:
            next_field = apply(field, read())
            if next_field is None:
                return 0
            field = next_field
            _show(field, write)
            if field.over:
                write(GAME_OVER)
                return 0
    except EOFError:
        return 0
    except ValueError as error:  # the handout promises good input; say what was wrong
        print(f"columns: {error}", file=sys.stderr)
        return 2


def _read_size(read: Callable[[], str], name: str, low: int, high: int) -> int:
    """The number of rows or columns on the next line; a ValueError saying what was expected."""
    text = read()
    size = number_in_range(text.strip(), low, high)
    if size is None:
        raise ValueError(f"expected the number of {name}, {low} to {high}, not {text!r}")
    return size


def _show(field: Field, write: Callable[[str], None]) -> None:
    for line in render(field):
        write(line)
