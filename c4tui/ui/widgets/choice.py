"""A radio set whose arrow keys choose, as radio groups do in browsers.

Textual's RadioSet moves a highlight with the arrows and chooses with Enter; in
our menu Enter starts the game, so the arrows must do the choosing.
"""

from __future__ import annotations

from textual.widgets import RadioSet


class ChoiceSet(RadioSet):
    """A RadioSet in which moving the highlight also presses the button."""

    _arrows_choose = False

    def on_mount(self) -> None:
        """Once RadioSet has set itself up (it highlights the first button on mount)."""
        self.call_later(self._start_choosing)

    def _start_choosing(self) -> None:
        """Highlight the pressed button; from now on the arrows choose."""
        if self.pressed_index >= 0:
            self._selected = self.pressed_index
        self._arrows_choose = True

    def action_next_button(self) -> None:
        """Highlight and choose the next option."""
        super().action_next_button()
        self._choose_highlighted()

    def action_previous_button(self) -> None:
        """Highlight and choose the previous option."""
        super().action_previous_button()
        self._choose_highlighted()

    def _choose_highlighted(self) -> None:
        if not self._arrows_choose or self._selected is None:
            return
        button = self._nodes[self._selected]
        if button is not self.pressed_button:
            self.action_toggle_button()
