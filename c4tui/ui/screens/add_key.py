"""Adding an ssh key to the account logged in (KEYADD, PROTOCOL.md §9, issue 42): one paste.

The person pastes a line of their ``.pub`` file (``ssh-ed25519 AAAA… me@home``) and
presses Enter; the dialog asks the server itself, so a paste it refuses (not a key,
another account's, one key too many) is said in ``key_words.KEYADD``'s words and
asked for again, the field still holding it to fix. A key added dismisses the dialog
with its fingerprint (as ``ssh-keygen -lf`` shows it); Esc adds nothing.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from c4tui.client.key_words import KEYADD
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import KeyAddOutcome
from c4tui.client.words import Voice
from c4tui.net.errors import NetworkError, ProtocolError

#: What to paste, under the title.
WHAT_TO_PASTE = (
    "Paste your public key: one line of your .pub file (ssh-ed25519 AAAA…). "
    "Never paste the private key (the file without .pub)."
)


class AddKeyDialog(ModalScreen[str | None]):
    """A public key pasted, then Enter adds it; Esc cancels. Dismissed with its fingerprint.

    Args:
        link: the lobby connection (logged in as the account the key is for).
    """

    DEFAULT_CSS = """
    AddKeyDialog { align: center middle; }
    AddKeyDialog .form-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="add_key.cancel"),
        Binding("enter", "add", "Add", priority=True, id="add_key.add"),
    ]

    def __init__(self, link: LobbyLink) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        """What to paste, the field, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"Add an ssh key to {self.link.user}", classes="form-title")
            yield Static(WHAT_TO_PASTE, classes="form-note")
            yield Input(id="key", placeholder="ssh-ed25519 AAAA… you@home", compact=True)
            yield Static("", id="add-key-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Add (Enter)", id="add", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The field, ready for the paste."""
        self.query_one("#key", Input).focus()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#add-key-status", Static)
        status.update(text)
        status.set_class(error, "-error")
        if error:
            self.query_one("#key", Input).focus()

    @on(Button.Pressed, "#add")
    def action_add(self) -> None:
        """Enter: ask the server to add the key pasted (Cancel focused: cancel)."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        self._say("Adding the key…")
        self._add(self.query_one("#key", Input).value)

    @work(exclusive=True, exit_on_error=False)
    async def _add(self, line: str) -> None:
        try:
            outcome, fingerprint = await self.link.key_add(line)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}. No key was added.", error=True)
            return
        if outcome is KeyAddOutcome.ADDED and fingerprint is not None:
            self.dismiss(fingerprint)
            return
        self._say(KEYADD.said(outcome, Voice.APP), error=True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """No key added."""
        self.dismiss(None)
