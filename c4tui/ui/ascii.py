"""``--ascii``: every character on screen is ASCII, whoever drew it.

Our own widgets choose ASCII looks where a shape matters (the board's discs, the
menu's radio buttons). Textual's widgets and any text we show draw many other
characters (the header's icon, borders, scrollbars, "—", "×"); rather than chase each
one, a line filter, applied by the app to every line it draws, replaces whatever is
left with a look-alike of the same width. The footer's keys get their names ("enter")
rather than a look-alike, since a lone "<" would not say which key it is.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.binding import Binding
from textual.color import Color
from textual.filter import LineFilter

#: Look-alikes for the characters Textual and c4tui draw; anything else is decomposed
#: (é → e) or becomes "?".
LOOK_ALIKES = {
    # lines and edges (the rest of the box-drawing block is handled by name)
    "▔": "-",
    "▁": "_",
    "▂": "_",  # the ends of a scrollbar's thumb
    "▃": "_",
    "▅": "#",
    "▆": "#",
    "▇": "#",
    "▏": "|",
    "▕": "|",
    "▎": "|",
    "▍": "|",
    "▌": "|",
    "▋": "|",
    "▊": "|",
    "▉": "|",
    "▐": "|",
    "█": "#",
    "▀": "-",
    "▄": "_",
    "░": ":",
    "▒": "%",
    "▓": "#",
    # shapes and marks
    "●": "*",
    "○": "o",
    "◉": "@",
    "•": "*",
    "·": ".",
    "⭘": "O",
    "▼": "v",
    "▲": "^",
    "▶": ">",
    "◀": "<",
    "✓": "v",
    "✔": "v",
    "✕": "x",
    "✖": "x",
    # arrows and keys
    "←": "<",
    "→": ">",
    "↑": "^",
    "↓": "v",
    "⏎": "<",
    "⇥": ">",
    "⌫": "<",
    "🔎": "> ",  # the command palette's prompt (two cells wide)
    # punctuation
    "—": "-",
    "–": "-",
    "−": "-",  # a minus sign (a rating's change)
    "…": ".",
    "×": "x",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "≥": ">",
    "≤": "<",
    "≈": "~",
    "\u00a0": " ",
}


@lru_cache(maxsize=4096)
def ascii_look_alike(char: str) -> str:
    """An ASCII stand-in for ``char`` that takes as many cells on screen."""
    if char.isascii():
        return char
    if char in LOOK_ALIKES:
        return LOOK_ALIKES[char]
    width = cell_len(char)
    if width == 0:
        return ""
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        return _box_drawing(name)
    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    if len(base) == width:
        return base
    return "?" * width


def _box_drawing(name: str) -> str:
    """``-`` for horizontal lines, ``|`` for vertical ones, ``+`` for corners and joints."""
    if "DIAGONAL" in name:
        return "/" if "UPPER RIGHT TO LOWER LEFT" in name else "\\"
    horizontal = "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name
    vertical = "VERTICAL" in name or "UP" in name or "DOWN" in name
    if horizontal and vertical:
        return "+"
    return "|" if vertical else "-"


def to_ascii(text: str) -> str:
    """``text`` with every character replaced by its ASCII look-alike."""
    if text.isascii():
        return text
    return "".join(ascii_look_alike(char) for char in text)


class AsciiFilter(LineFilter):
    """Replaces every non-ASCII character of a drawn line; styles are kept."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """``segments`` with their text made ASCII (control segments untouched)."""
        return [
            segment if control or text.isascii() else Segment(to_ascii(text), style, control)
            for segment in segments
            for text, style, control in (segment,)
        ]


def ascii_key_display(binding: Binding, display: str) -> str:
    """How the footer names ``binding``'s key with ASCII only ("enter" rather than "⏎")."""
    if display.isascii():
        return display
    modifiers, key = binding.parse_key()
    return "+".join([*modifiers, key]) if key.isascii() else to_ascii(display)
