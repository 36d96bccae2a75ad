"""The puzzle screen's panel: the game panel's lines, and the player's and the puzzle's.

Below the task (the turn line) and the news come the player's standing (puzzle rating,
its change after a try, the streaks) and what is known of the puzzle (its number and
rating; its themes only once the try is over, since "double threat" would give the
answer away; the daily puzzle's date and tick), each drawn by its ``watch_`` method.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widgets import Static

from c4tui.ui.widgets.status import StatusPanel


class PuzzlePanel(StatusPanel):
    """The status panel with the standing and the puzzle's lines; no move list or modes."""

    DEFAULT_CSS = """
    PuzzlePanel #score, PuzzlePanel #mode, PuzzlePanel #best-line,
    PuzzlePanel #last-move, PuzzlePanel #moves-title, PuzzlePanel #moves { display: none; }
    PuzzlePanel #standing { color: $text; }
    PuzzlePanel #about { color: $text-muted; }
    """

    #: The player's rating, its last change and the streaks, in lines.
    standing: reactive[str | None] = reactive(None, repaint=False, init=False)
    #: The puzzle's number, rating, themes (after the try) and daily mark, in lines.
    about: reactive[str | None] = reactive(None, repaint=False, init=False)

    def compose(self) -> ComposeResult:
        """The game panel's lines (those not wanted hidden), then the standing and the puzzle."""
        yield from super().compose()
        yield Static(id="standing", markup=False)
        yield Static(id="about", markup=False)

    def watch_standing(self, text: str | None) -> None:
        """The player's rating and streaks."""
        if text is not None:
            self._put(self.query_one("#standing", Static), self._laid_out(text))

    def watch_about(self, text: str | None) -> None:
        """The puzzle's number, rating and (after the try) themes."""
        if text is not None:
            self._put(self.query_one("#about", Static), self._laid_out(text))

    def on_resize(self) -> None:
        """A new width: these lines laid out again too (Textual calls the game panel's too)."""
        self.watch_standing(self.standing)
        self.watch_about(self.about)
