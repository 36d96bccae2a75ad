"""A screen's breakpoint classes (``-inline``, ``-snug``…) before its first resize gives them.

Textual gives a screen its classes for the terminal's size on the first resize, after
mounting: a screen that takes them at once is styled for its size once, not restyled
whole just before its first frame.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen


def breakpoint_classes(screen: Screen[Any]) -> list[str]:
    """The breakpoint classes Textual gives ``screen`` at its app's present size."""
    width, height = screen.app.size
    vertical = screen.VERTICAL_BREAKPOINTS
    if vertical is None:
        vertical = screen.app.VERTICAL_BREAKPOINTS
    classes = []
    for size, breakpoints in ((width, screen.HORIZONTAL_BREAKPOINTS), (height, vertical)):
        passed = [(at, name) for at, name in breakpoints or [] if size >= at]
        if passed:
            classes.append(max(passed)[1])
    return classes
