"""A moderator's mute (MUTE, spec §7): for how many minutes a player's chat reaches nobody.

The minutes are checked by the wire's rule here (1 to 10080, a week), and
explained in the dialog if they will not do; Enter dismisses it with the mute
asked for, Esc with None. Whoever opened it sends the mute and says what came of
it (``ui.public_actions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.client.in_public import MINUTES_RULE, minutes_of

#: The minutes offered first: an hour.
DEFAULT_MINUTES = "60"


@dataclass(frozen=True)
class MuteAsked:
    """A mute to send: ``user``'s chat reaches nobody for ``minutes``."""

    user: str
    minutes: int


class MuteDialog(ModalScreen[MuteAsked | None]):
    """Mute ``user``: for how many minutes; Enter mutes, Esc cancels."""

    DEFAULT_CSS = """
    MuteDialog { align: center middle; }
    MuteDialog .form-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="mute.cancel"),
        Binding("enter", "mute", "Mute", priority=True, id="mute.mute"),
    ]

    def __init__(self, user: str) -> None:
        super().__init__()
        self.user = user

    def compose(self) -> ComposeResult:
        """What a mute does, the field, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"Mute {self.user}", classes="form-title")
            yield Static(
                "Their chat reaches nobody meanwhile; they may still play. "
                f"Minutes: {MINUTES_RULE}.",
                classes="form-note",
            )
            with Grid():
                yield Label("Minutes")
                yield Input(DEFAULT_MINUTES, id="minutes", restrict=r"[0-9]*", compact=True)
            yield Static("", id="mute-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Mute (Enter)", id="mute", variant="warning")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The minutes, ready to type."""
        self.query_one("#minutes", Input).focus()

    @on(Button.Pressed, "#mute")
    def action_mute(self) -> None:
        """Mute, if the minutes can go; else say what they may be."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        field = self.query_one("#minutes", Input)
        minutes = minutes_of(field.value)
        if minutes is None:
            status = self.query_one("#mute-status", Static)
            status.update(f"Minutes are {MINUTES_RULE}.")
            status.add_class("-error")
            field.focus()
            return
        self.dismiss(MuteAsked(self.user, minutes))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """No mute."""
        self.dismiss(None)
