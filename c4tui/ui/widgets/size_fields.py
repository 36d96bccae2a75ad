"""The menu's board size fields: two digits each, and what is wrong with what was typed."""

from __future__ import annotations

from textual.widgets import Input

from c4tui.engine import MAX_SIZE, MIN_SIZE, parse_size


def size_input(name: str, value: int) -> Input:
    """The field for ``name`` (``columns``, ``rows``), showing ``value``: digits only, two."""
    return Input(
        str(value),
        id=name,
        restrict=r"[0-9]{0,2}",
        max_length=2,
        compact=True,
        tooltip=f"{MIN_SIZE} to {MAX_SIZE}",
    )


def size_problem(name: str, typed: str) -> str | None:
    """What is wrong with ``typed`` in the ``name`` field, in words; None when it will do."""
    if parse_size(typed) is not None:
        return None
    what = f"{typed} won't do" if typed else "the field is empty"
    return f"{name.capitalize()} must be a whole number from {MIN_SIZE} to {MAX_SIZE} ({what})."
