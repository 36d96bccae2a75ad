"""A moderator's mute (MUTE, spec §7): for how many minutes a player's chat reaches nobody.

The minutes are checked by the wire's rule here (1 to 10080, a week), and
explained in the dialog if they will not do; Enter dismisses it with the mute
asked for, Esc with None (``sanction``'s base). Whoever opened it sends the mute
and says what came of it (``ui.public_actions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.widgets import Input

from c4tui.client.in_public import MINUTES_RULE, minutes_of
from c4tui.ui.screens.sanction import SanctionDialog

#: The minutes offered first: an hour.
DEFAULT_MINUTES = "60"


@dataclass(frozen=True)
class MuteAsked:
    """A mute to send: ``user``'s chat reaches nobody for ``minutes``."""

    user: str
    minutes: int


class MuteDialog(SanctionDialog[MuteAsked]):
    """Mute ``user``: for how many minutes; Enter mutes, Esc cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="mute.cancel"),
        Binding("enter", "go", "Mute", priority=True, id="mute.mute"),
    ]
    VERB = "Mute"
    FIELD = "Minutes"
    DEFAULT = DEFAULT_MINUTES
    NOTE = f"Their chat reaches nobody meanwhile; they may still play. Minutes: {MINUTES_RULE}."
    VARIANT = "warning"

    def asked(self) -> MuteAsked | None:
        """The mute, if the minutes can go."""
        minutes = minutes_of(self.query_one("#minutes", Input).value)
        if minutes is None:
            self.problem(f"Minutes are {MINUTES_RULE}.", "minutes")
            return None
        return MuteAsked(self.user, minutes)
