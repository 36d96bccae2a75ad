"""A footer that leaves out the keys that do not fit, instead of cutting the last one in half.

Textual's footer lays its keys out in a row and clips what overflows. On a narrow
terminal the keys that matter most come first (each screen orders its bindings so),
and the rest are left for the help screen.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: A key's cells besides its name and description: the space between them and the
#: padding either side (Textual's FooterKey style).
KEY_EXTRA_CELLS = 3


def key_width(key: FooterKey) -> int:
    """The cells ``key`` takes in the footer: ``" ⏎ Play "``."""
    return cell_len(key.key_display) + cell_len(key.description) + KEY_EXTRA_CELLS


class FittingFooter(Footer):
    """Shows whole keys only: those past the right edge are left out.

    Decided when the keys are made (from the terminal's width, which the footer
    spans), so the same screen at the same size always shows the same keys.
    """

    def compose(self) -> ComposeResult:
        """The footer's keys, from the left, while they fit."""
        widgets = list(super().compose())
        palette = [w for w in widgets if w.has_class("-command-palette")]
        room = self.app.size.width - sum(key_width(w) for w in palette if isinstance(w, FooterKey))
        used = 0
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget not in palette:
                used += key_width(widget)
                if used > room:
                    continue
            yield widget

    def on_resize(self) -> None:
        """A new width: choose the keys again."""
        self.refresh(recompose=True)
