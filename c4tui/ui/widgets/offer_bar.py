"""The line above an online game's footer: what stands at the table, and the keys that answer it.

"bob offers a draw.  d: accept · n: decline" stays in view until it is answered or
void, where a notification would fade and cover the board. Hidden while nothing stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Static


class OfferBar(Static):
    """One line a standing offer, request or claim; nothing shown while none stands."""

    DEFAULT_CSS = """
    OfferBar {
        display: none;
        height: auto;
        padding: 0 1;
        background: $boost;
        text-style: bold;
    }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)  # names are plain text

    def show(self, lines: Sequence[str]) -> None:
        """Say ``lines`` (none: hide the bar and give its row back to the board)."""
        self.update("\n".join(lines))
        self.display = bool(lines)
