"""Resizing what a Line API widget scrolls over, without laying the screen out again."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Make ``view``'s scrollable area ``size``; the caller repaints what it shows.

    Speed: assigning ``virtual_size`` asks Textual to lay the whole screen out again
    (up to 9 ms of a key on a 200 × 60 terminal), which a view whose own size is set
    by its CSS does not need. The scroll bars are updated here; only when one of them
    appears or goes does Textual lay the screen out (it must: the view's room changes).
    """
    if size == view.virtual_size:
        return
    view.set_reactive(ScrollView.virtual_size, size)
    view._scroll_update(size)
