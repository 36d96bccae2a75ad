"""A moderator's ban (BAN, spec §7): for how many hours (0: until unbanned), and why.

The hours and the reason are checked by the wire's rules here, and explained in
the dialog if they will not do; Enter goes from the hours to the reason, then
dismisses the dialog with the ban asked for, Esc with None (``sanction``'s base).
Whoever opened it sends the ban and says what came of it (``ui.public_actions``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.binding import Binding
from textual.widgets import Input

from c4tui.client.in_public import HOURS_RULE, hours_of, text_refused
from c4tui.ui.screens.sanction import SanctionDialog

#: The hours offered first: a day.
DEFAULT_HOURS = "24"


@dataclass(frozen=True)
class BanAsked:
    """A ban to send: ``user``, for ``hours`` (0: until unbanned), because of ``reason``."""

    user: str
    hours: int
    reason: str


class BanDialog(SanctionDialog[BanAsked]):
    """Ban ``user``: the hours and the reason; Enter bans, Esc cancels.

    Args:
        user: whom to ban.
        reason: the reason offered at first (a report's, when banning from one).
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="ban.cancel"),
        Binding("enter", "go", "Ban", priority=True, id="ban.ban"),
    ]
    VERB = "Ban"
    FIELD = "Hours"
    DEFAULT = DEFAULT_HOURS
    NOTE = (
        "Their connections close at once, a game they play is lost, and they "
        f"cannot log in until the ban ends. Hours: {HOURS_RULE}."
    )

    def __init__(self, user: str, reason: str = "") -> None:
        super().__init__(user)
        self._reason = reason

    def more_fields(self) -> Iterable[tuple[str, Input]]:
        """Why (a report's reason offered)."""
        yield "Reason", Input(self._reason, id="reason", compact=True)

    def asked(self) -> BanAsked | None:
        """The ban, if the hours and the reason can go."""
        hours = hours_of(self.query_one("#hours", Input).value)
        reason = self.query_one("#reason", Input).value.strip()
        if hours is None:
            self.problem(f"Hours are {HOURS_RULE}.", "hours")
        elif (refusal := text_refused(reason)) is not None:
            self.problem(refusal, "reason")
        else:
            return BanAsked(self.user, hours, reason)
        return None
