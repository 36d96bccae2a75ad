"""The app's themes at run time: c4tui's on offer, the saved one from the first frame.

The themes themselves (their colours and why) are in ``themes.py``; the file the
choice is kept in is ``preferences.py``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from textual.app import App

from c4tui.ui.preferences import Preferences, load_preferences, save_preferences
from c4tui.ui.themes import DEFAULT_THEME, TERMINAL_THEMES, THEMES

AppResult = TypeVar("AppResult")


class ThemeMemory:
    """The theme chosen last time, and a new choice kept for next time."""

    def __init__(self) -> None:
        self._preferences: Preferences = load_preferences()

    @property
    def saved(self) -> str:
        """The theme chosen last time (or the default)."""
        return self._preferences.theme

    def remember(self, theme: str) -> None:
        """Keep ``theme`` for the next start. Raises OSError when it cannot be written."""
        if theme == self._preferences.theme:
            return
        # Read again: the last game's choices may have been kept since the start.
        self._preferences = replace(load_preferences(), theme=theme)
        save_preferences(self._preferences)


def offer_themes(app: App[AppResult], saved: str) -> None:
    """Offer c4tui's themes, and start with ``saved`` (if it still exists).

    Of Textual's own themes only the two that use the terminal's colours stay on
    offer: the others were not made for discs and do not meet the contrast bar.
    """
    for name in list(app.available_themes):
        if name not in TERMINAL_THEMES:
            app.unregister_theme(name)
    for theme in THEMES:
        app.register_theme(theme)
    start_with_theme(app, saved if app.get_theme(saved) is not None else DEFAULT_THEME)


def start_with_theme(app: App[AppResult], name: str) -> None:
    """Set the first theme before any CSS is read: setting ``theme`` would read it twice.

    Speed: Textual's theme watcher reparses every stylesheet, ~6 ms of the start,
    for CSS not yet read. This does the rest of what the watcher does.
    """
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    classes = {old: False for old in app.classes if old.startswith("-theme-")}
    classes.update({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark})
    app.update_classes(classes, update=False)
    # Private, no public way to point the ANSI colours at the theme's (checked on Textual
    # 8.2.8, where ``App._watch_theme`` calls it the same way).
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())  # read with these, once
