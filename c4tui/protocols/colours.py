"""The colour a room's creator or a challenger asks for (spec/protocols.md §5.6).

CREATE, CHALLENGE and QUICKPLAY may end in ``:red``, ``:yellow`` or ``:random``;
the words cannot be mistaken for a board's or terms' field, so the codec takes
the last field off when it is one and reads the rest as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum


class Colour(Enum):
    """Red moves first; random is decided when the game begins."""

    RED = "red"
    YELLOW = "yellow"
    RANDOM = "random"

    def fits(self, other: Colour) -> bool:
        """True if a player asking for this colour can sit down with one asking for ``other``."""
        return Colour.RANDOM in (self, other) or self is not other


_WORDS = {colour.value: colour for colour in Colour}


def split_colour(fields: Sequence[str], default: Colour) -> tuple[list[str], Colour]:
    """The fields without a last colour word, and that colour (``default`` when there is none)."""
    if fields and fields[-1] in _WORDS:
        return list(fields[:-1]), _WORDS[fields[-1]]
    return list(fields), default


def colour_fields(colour: Colour, default: Colour) -> list[str]:
    """The colour as a request's last field; none for ``default`` (what older servers assume)."""
    return [] if colour is default else [colour.value]
