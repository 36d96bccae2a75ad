"""Changing the password of the account logged in (PASSWORD, then NEWPASSWORD: §5.3).

The current password, the new one and the new one again, none shown. The two new
ones must agree and keep the password rule before the server is asked; its
answer is said in words (``client.standing.PASSWORD_CHANGE``). A change dismisses
the dialog with ``PasswordChange.CHANGED`` (and says so); Esc leaves it unchanged.

An ssh visitor's key logged it in (§9): its account may have been made by the key,
with a random password the player never knew. Its session's password (the visit's
token, which the server takes as the current password) is given as ``current``,
and only the new one is asked for, twice.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.client import key_words
from c4tui.client import standing as words
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import PasswordChange
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.names import valid_password
from c4tui.ui.screens.login import after_typing

#: The longest password (§4: 1-128 printable characters).
MAX_PASSWORD = 128
#: The fields: their ids and labels.
FIELDS = (("old", "Current"), ("new", "New"), ("again", "New again"))


class PasswordDialog(ModalScreen[PasswordChange | None]):
    """Change the password: the current one, the new one twice; Enter changes, Esc cancels.

    Args:
        link: the lobby connection (logged in as the account to change).
        current: the current password, known already (an ssh visit's session's:
            not asked for); None: asked for.
    """

    DEFAULT_CSS = """
    PasswordDialog { align: center middle; }
    PasswordDialog .form-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="password.cancel"),
        Binding("enter", "change", "Change", priority=True, id="password.change"),
    ]

    def __init__(self, link: LobbyLink, current: str | None = None) -> None:
        super().__init__()
        self.link = link
        self._current = current
        #: The fields asked for (the current password only when not known).
        self._fields = FIELDS if current is None else FIELDS[1:]
        #: The new password, once the server has taken it (whoever logs in again needs it).
        self.new_password: str | None = None

    def compose(self) -> ComposeResult:
        """The three fields, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            if self._current is None:
                yield Static(f"Change the password of {self.link.user}", classes="form-title")
            else:
                yield Static(f"A password for {self.link.user}", classes="form-title")
                yield Static(key_words.KEY_VISIT_PASSWORD, classes="form-note")
            with Grid():
                for key, label in self._fields:
                    yield Label(label)
                    yield Input(id=key, password=True, max_length=MAX_PASSWORD, compact=True)
            yield Static("", id="password-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Change (Enter)", id="change", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The first field asked for (the current password, unless it is known)."""
        self.query_one(f"#{self._fields[0][0]}", Input).focus()

    def _value(self, key: str) -> str:
        return self.query_one(f"#{key}", Input).value

    def _say(self, text: str, wrong: str | None = None) -> None:
        """Say ``text``; a problem (``wrong``: the field to fix) is marked, and focused."""
        status = self.query_one("#password-status", Static)
        status.update(text)
        status.set_class(wrong is not None, "-error")
        if wrong is not None:
            self.query_one(f"#{wrong}", Input).focus()

    def _problem(self) -> tuple[str, str] | None:
        """What is wrong with the fields before asking the server, and which to fix."""
        if self._current is None and not valid_password(self._value("old")):
            return words.PASSWORD_CHANGE[PasswordChange.WRONG_PASSWORD], "old"
        if not valid_password(self._value("new")):
            return words.PASSWORD_CHANGE[PasswordChange.AGAINST_THE_RULES], "new"
        if self._value("again") != self._value("new"):
            return words.NEW_PASSWORDS_DIFFER, "again"
        return None

    @on(Button.Pressed, "#change")
    def action_change(self) -> None:
        """Enter: from a field, the next empty one; else ask the server for the change.

        Once the keys typed before it are in their field (``after_typing``).
        """
        after_typing(self, self._enter)

    def _enter(self) -> None:
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        empty = next((key for key, _ in self._fields if not self._value(key)), None)
        if empty is not None and isinstance(self.focused, Input):
            self.query_one(f"#{empty}", Input).focus()
            return
        problem = self._problem()
        if problem is not None:
            self._say(*problem)
            return
        self._say("Changing the password…")
        current = self._value("old") if self._current is None else self._current
        self._change(current, self._value("new"))

    @work(exclusive=True, exit_on_error=False)
    async def _change(self, old: str, new: str) -> None:
        try:
            outcome = await self.link.change_password(old, new)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}. Nothing changed.", wrong=self._fields[0][0])
            return
        if outcome is PasswordChange.CHANGED:
            self.new_password = new
            known = self._current is not None
            self.notify(key_words.PASSWORD_SET if known else words.PASSWORD_CHANGE[outcome])
            self.dismiss(outcome)
            return
        wrong = "new" if outcome is PasswordChange.AGAINST_THE_RULES else self._fields[0][0]
        self._say(words.PASSWORD_CHANGE[outcome], wrong=wrong)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Leave the password as it was."""
        self.dismiss(None)
