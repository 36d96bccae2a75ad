"""A footer that leaves out the keys that do not fit, instead of cutting the last one in half.

Textual's footer lays its keys out in a row and clips what overflows. On a narrow
terminal the keys that matter most come first (each screen orders its bindings so),
and the rest are left for the help screen.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class FittingFooter(Footer):
    """Shows whole keys only; the ones past the right edge are hidden."""

    def compose(self) -> ComposeResult:
        """The footer's keys, then a check of what fits once they are laid out."""
        yield from super().compose()
        self.call_after_refresh(self._hide_overflow)

    def on_resize(self) -> None:
        """A new width: lay every key out again, then hide what does not fit."""
        self.refresh(recompose=True)

    def _hide_overflow(self) -> None:
        """Keep keys from the left while their widths add up to no more than the footer's.

        Widths are measured, not read from the layout: a footer under a dialog may not
        have been laid out again yet.
        """
        available = self.size.width
        if not available:
            return  # not laid out yet: its first resize comes back here
        used = 0
        for key in self.query(FooterKey):
            used += key.get_content_width(self.size, self.app.size) + key.styles.gutter.width
            key.display = used <= available
