"""A moderator's ban (BAN, spec §7): for how many hours (0: until unbanned), and why.

The hours and the reason are checked by the wire's rules here, and explained in
the dialog if they will not do; Enter dismisses it with the ban asked for, Esc
with None. Whoever opened it sends the ban and says what came of it
(``ui.public_actions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.client.in_public import HOURS_RULE, hours_of, text_refused

#: The hours offered first: a day.
DEFAULT_HOURS = "24"


@dataclass(frozen=True)
class BanAsked:
    """A ban to send: ``user``, for ``hours`` (0: until unbanned), because of ``reason``."""

    user: str
    hours: int
    reason: str


class BanDialog(ModalScreen[BanAsked | None]):
    """Ban ``user``: the hours and the reason; Enter bans, Esc cancels.

    Args:
        user: whom to ban.
        reason: the reason offered at first (a report's, when banning from one).
    """

    DEFAULT_CSS = """
    BanDialog { align: center middle; }
    BanDialog .form-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="ban.cancel"),
        Binding("enter", "ban", "Ban", priority=True, id="ban.ban"),
    ]

    def __init__(self, user: str, reason: str = "") -> None:
        super().__init__()
        self.user = user
        self._reason = reason

    def compose(self) -> ComposeResult:
        """What a ban does, the two fields, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"Ban {self.user}", classes="form-title")
            yield Static(
                "Their connections close at once, a game they play is lost, and they "
                f"cannot log in until the ban ends. Hours: {HOURS_RULE}.",
                classes="form-note",
            )
            with Grid():
                yield Label("Hours")
                yield Input(DEFAULT_HOURS, id="hours", restrict=r"[0-9]*", compact=True)
                yield Label("Reason")
                yield Input(self._reason, id="reason", compact=True)
            yield Static("", id="ban-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Ban (Enter)", id="ban", variant="error")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The hours first."""
        self.query_one("#hours", Input).focus()

    def _problem(self, text: str, field: str) -> None:
        status = self.query_one("#ban-status", Static)
        status.update(text)
        status.add_class("-error")
        self.query_one(f"#{field}", Input).focus()

    @on(Button.Pressed, "#ban")
    def action_ban(self) -> None:
        """Enter: from the hours, on to the reason; else ban, if both can go."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        if self.focused is self.query_one("#hours", Input):
            self.query_one("#reason", Input).focus()
            return
        hours = hours_of(self.query_one("#hours", Input).value)
        reason = self.query_one("#reason", Input).value.strip()
        if hours is None:
            self._problem(f"Hours are {HOURS_RULE}.", "hours")
        elif (refusal := text_refused(reason)) is not None:
            self._problem(refusal, "reason")
        else:
            self.dismiss(BanAsked(self.user, hours, reason))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """No ban."""
        self.dismiss(None)
