"""A radio set whose arrow keys choose, as radio groups do in browsers.

Textual's RadioSet moves a highlight with the arrows and chooses with Enter; in
our menu Enter starts the game, so the arrows must do the choosing.

Textual draws every radio button alike (``▐●▌``) and tells the chosen one by colour
alone; here the chosen one is filled and bold, the others hollow, so the choice
reads without colour (NO_COLOR, 16 colours) and in ASCII too.
"""

from __future__ import annotations

from textual.widgets import RadioButton, RadioSet

#: A radio button's (left side, inside, right side), by (ASCII only, chosen). Textual draws
#: the sides in the button's background colour (they round it off), so the ASCII marks are
#: all inside, where they are drawn in the mark's colour.
MARKS: dict[tuple[bool, bool], tuple[str, str, str]] = {
    (False, True): ("▐", "●", "▌"),
    (False, False): ("▐", "○", "▌"),
    (True, True): ("", "(*)", ""),
    (True, False): ("", "( )", ""),
}


class ChoiceButton(RadioButton):
    """A radio button that, made already chosen, does not restyle itself before mounting.

    Speed: Textual's button applies the stylesheet to itself when made with
    ``value=True``, before it is even in the screen, where the styles are applied
    again at mounting; a menu of chosen buttons spent ~20 ms of the start on it.
    """

    def watch_value(self) -> None:
        """Mark the button on or off, and say so (as Textual's button does)."""
        if self.is_mounted:
            super().watch_value()
            return
        self.set_class(self.value, "-on", update=False)  # styled when mounted
        self.post_message(self.Changed(self, self.value))


class ChoiceSet(RadioSet):
    """A RadioSet in which moving the highlight also presses the button."""

    DEFAULT_CSS = """
    ChoiceSet > RadioButton > .toggle--button { color: $text-muted; }
    ChoiceSet > RadioButton.-on > .toggle--button { color: $text-success; text-style: bold; }
    ChoiceSet > RadioButton.-on > .toggle--label { text-style: bold; }
    """

    _arrows_choose = False

    def on_mount(self) -> None:
        """Once RadioSet has set itself up (it highlights the first button on mount)."""
        self._show_marks()
        self.call_later(self._start_choosing)

    def on_radio_set_changed(self) -> None:
        """Another button is chosen: fill it, hollow out the others."""
        self._show_marks()

    def _show_marks(self) -> None:
        ascii_only = bool(getattr(self.app, "ascii_only", False))
        for button in self.query_children(RadioButton):
            marks = MARKS[ascii_only, button.value]
            button.BUTTON_LEFT, button.BUTTON_INNER, button.BUTTON_RIGHT = marks
            button.refresh()

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
