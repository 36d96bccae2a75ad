"""The menu's buttons: Textual's look, in a widget with a few style rules instead of sixty.

Speed: Textual's ``Button`` brings its stylesheet for every variant, flat style and
terminal-colour theme (57 rules, parsed at the first button and matched against
each one); the menu is the first screen, and its four buttons cost 58 M of the
instructions to its first frame (callgrind). These draw the same: a tall border
lit from above, bold words, a primary colour for the default action.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

#: How long a pressed button shows pressed (as Textual's).
PRESSED_SECONDS = 0.2


class MenuButton(Static, can_focus=True):
    """A button: a click, Space or Enter (when the screen leaves Enter to it) presses it."""

    BINDINGS = [Binding("enter,space", "press", "Press", show=False)]
    DEFAULT_CSS = """
    MenuButton {
        width: auto;
        min-width: 12;
        height: auto;
        padding: 0 1;
        content-align: center middle;
        text-style: bold;
        color: $button-foreground;
        background: $surface;
        border-top: tall $surface-lighten-1;
        border-bottom: tall $surface-darken-1;
        pointer: pointer;
        &:focus { text-style: $button-focus-text-style; background-tint: $foreground 5%; }
        &:hover { border-top: tall $surface; background: $surface-darken-1; }
        &.-pressed {
            background: $surface;
            border-top: tall $surface-darken-1;
            border-bottom: tall $surface-lighten-1;
            tint: $background 30%;
        }
        &.-primary {
            color: $button-color-foreground;
            background: $primary;
            border-top: tall $primary-lighten-3;
            border-bottom: tall $primary-darken-3;
            &:hover { background: $primary-darken-2; border-top: tall $primary; }
            &.-pressed {
                background: $primary;
                border-top: tall $primary-darken-3;
                border-bottom: tall $primary-lighten-3;
            }
        }
        &:ansi {
            background: ansi_default;
            border: tall $border-blurred;
            &:hover { background: $ansi-background; border: tall $border; }
            &.-primary { color: $primary; border: tall $primary; }
        }
    }
    """

    class Pressed(Message):
        """The button was pressed."""

        def __init__(self, button: MenuButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> MenuButton:
            """The button pressed (for ``@on`` selectors)."""
            return self.button

    def __init__(self, label: str, *, id: str, primary: bool = False) -> None:
        super().__init__(label, id=id, classes="-primary" if primary else None, markup=False)

    def press(self) -> None:
        """Show the press a moment, and say so."""
        if self.has_class("-pressed"):
            return
        self.add_class("-pressed")
        self.set_timer(PRESSED_SECONDS, lambda: self.remove_class("-pressed"))
        self.post_message(self.Pressed(self))

    def action_press(self) -> None:
        """Enter or Space."""
        self.press()

    def on_click(self, event: events.Click) -> None:
        """A click presses it."""
        event.stop()
        self.press()
