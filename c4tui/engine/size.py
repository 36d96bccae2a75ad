"""Board sizes: the allowed range, and reading a size typed by a person."""

from __future__ import annotations

from c4tui.engine.errors import BoardSizeError
from c4tui.numbers import number_in_range

MIN_SIZE = 4
MAX_SIZE = 20


def check_size(columns: int, rows: int) -> None:
    """Raise BoardSizeError unless both dimensions are whole numbers in range."""
    for name, value in (("columns", columns), ("rows", rows)):
        if type(value) is not int or not MIN_SIZE <= value <= MAX_SIZE:
            raise BoardSizeError(
                f"{name} must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {value!r}"
            )


def parse_size(text: str) -> int | None:
    """A board dimension typed as text, or None unless it is a whole number in range."""
    return number_in_range(text.strip(), MIN_SIZE, MAX_SIZE)
