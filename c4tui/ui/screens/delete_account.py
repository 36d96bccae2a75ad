"""Deleting the account logged in (DELETEACCOUNT, spec §7): its password, then a question.

What goes and what stays is said first; the password is asked (not shown), then
whether to go on (``ConfirmDialog``), and only then is the server asked. A wrong
password is said in the dialog and asked again. Once the server has erased the
account the dialog dismisses with True (the server sends BYE:deleted and closes
the connection); Esc, or no to the question, leaves the account as it was.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.client import in_public, public_words
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import DeleteOutcome
from c4tui.client.words import Voice
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.names import valid_password
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.password import MAX_PASSWORD


class DeleteAccountDialog(ModalScreen[bool]):
    """Delete the account: the password, then yes; True once it is gone.

    Args:
        link: the lobby connection (logged in as the account to delete).
        current: the password to send, not asked (an ssh visit's token: a key-made account's
            password was never told to anyone).
    """

    DEFAULT_CSS = """
    DeleteAccountDialog { align: center middle; }
    DeleteAccountDialog .form-dialog { border: round $error; }
    DeleteAccountDialog .form-note { height: auto; margin-bottom: 1; }
    DeleteAccountDialog Grid.-hidden { display: none; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="delete.cancel"),
        Binding("enter", "delete", "Delete", priority=True, id="delete.delete"),
    ]

    def __init__(self, link: LobbyLink, current: str | None = None) -> None:
        super().__init__()
        self.link = link
        self._current = current

    def compose(self) -> ComposeResult:
        """What deleting does, the password, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"Delete the account {self.link.user}", classes="form-title")
            yield Static(
                "For good: your password and your blocks are erased, your finished games "
                "stay under another name, and nobody can register this name again.",
                classes="form-note",
            )
            with Grid(classes="-hidden" if self._current is not None else ""):
                yield Label("Password")
                yield Input(
                    self._current or "",
                    id="password",
                    password=True,
                    max_length=MAX_PASSWORD,
                    compact=True,
                )
            yield Static("", id="delete-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Delete… (Enter)", id="delete", variant="error")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The password, ready to type."""
        self.query_one(Input).focus()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#delete-status", Static)
        status.update(text)
        status.set_class(error, "-error")
        if error:
            self.query_one(Input).focus()

    @on(Button.Pressed, "#delete")
    def action_delete(self) -> None:
        """Enter: ask whether to go on, once a password is typed."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        password = self.query_one(Input).value
        if not valid_password(password):  # no account has it (and the wire cannot carry it)
            wrong = public_words.DELETE_ACCOUNT.said(DeleteOutcome.WRONG_PASSWORD, Voice.APP)
            self._say(wrong, error=True)
            return
        question = ConfirmDialog(in_public.deletion_question(self.link.user), "Delete")
        self.app.push_screen(question, self._answered)

    def _answered(self, yes: bool | None) -> None:
        if yes:
            self._say("Deleting the account…")
            self._delete(self.query_one(Input).value)
        else:
            self._say("Not deleted: the account is kept.")

    @work(exclusive=True, exit_on_error=False)
    async def _delete(self, password: str) -> None:
        try:
            said = await in_public.delete_account(self.link, password)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            gone = f"The connection went before the server answered ({error})"
            self._say(f"{gone}: log in again to see whether the account is kept.", error=True)
            return
        if said.refused:
            self._say(said.text, error=True)
            return
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Keep the account."""
        self.dismiss(False)
