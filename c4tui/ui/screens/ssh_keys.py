"""The ssh keys of the account logged in (KEYS, KEYADD, KEYREMOVE: PROTOCOL.md §9, issue 42).

One row a key, by its fingerprint (as ``ssh-keygen -lf`` prints it), oldest first:
the server keeps no comment, so the fingerprint is how a person tells their keys
apart. Any of them logs the account in at the server's ssh door, whichever way the
account was made. ``a`` adds one (a pasted public key: ``AddKeyDialog``), ``d`` or
Delete removes the chosen one after a question, r fetches the list again, Esc goes
back to the profile it was opened from.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.widgets import DataTable

from c4tui.client import key_words
from c4tui.client.link import LobbyLink
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.screens.add_key import AddKeyDialog
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.listing import ListingScreen

#: What a key is for, and the keys.
WHAT_A_KEY_DOES = (
    "ssh -p PORT HOST logs you in with any of these keys (PORT: the server's ssh door). "
    "a adds a key, d removes the chosen one; Esc goes back."
)

#: Said before the last key goes: an account a key made has a password no one knows.
LAST_KEY = (
    "It is your last key: unless you know your password (P in the lobby sets one), "
    "you could not log in again."
)


def keys_line(fingerprints: list[str]) -> str:
    """How many keys log the account in, in words."""
    if not fingerprints:
        return "No ssh keys: a adds one (a line of your .pub file)."
    return "1 ssh key." if len(fingerprints) == 1 else f"{len(fingerprints)} ssh keys."


def key_removed(fingerprint: str) -> str:
    """What a key removed means, in words."""
    return f"Key {fingerprint} removed: it no longer logs you in."


class KeysScreen(ListingScreen):
    """The account's ssh keys; a adds one, d removes one, Esc goes back.

    Args:
        link: the lobby connection (logged in).
    """

    BINDINGS = [
        Binding("a", "add", "Add a key", id="keys.add"),
        Binding("d,delete", "remove", "Remove", id="keys.remove"),
        Binding("r", "refresh", "Refresh", id="keys.refresh"),
        Binding("escape", "leave", "Back", id="keys.leave"),
    ]
    NAME = "keys"
    TITLE = "Your ssh keys"
    HELP = WHAT_A_KEY_DOES
    FETCHING = "Fetching your keys…"

    def __init__(self, link: LobbyLink) -> None:
        super().__init__(link)
        #: The keys' fingerprints, as last fetched, oldest first.
        self.fingerprints: list[str] = []

    def add_columns(self, table: DataTable[object]) -> None:
        """The fingerprint, the one column."""
        table.add_columns("Fingerprint")

    @work(group="keys", exclusive=True, exit_on_error=False)
    async def fetch(self, said: str | None = None) -> None:
        """The keys; ``said``: what was just done, said instead of how many there are."""
        try:
            fingerprints = await self.link.keys()
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}", error=True)
            return
        self.fingerprints = fingerprints
        table = self.query_one(DataTable)
        table.clear()
        for fingerprint in fingerprints:
            table.add_row(Text(fingerprint), key=fingerprint)  # not markup
        self._say(said if said is not None else keys_line(fingerprints))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Remove only with a key to remove."""
        return bool(self.fingerprints) if action == "remove" else True

    def action_add(self) -> None:
        """Paste a public key (the dialog says why one will not do, and asks again)."""
        self.app.push_screen(AddKeyDialog(self.link), self._added)

    def _added(self, fingerprint: str | None) -> None:
        if fingerprint is not None:
            self.fetch(key_words.key_added(fingerprint))

    def action_remove(self) -> None:
        """Remove the chosen key, once asked."""
        chosen = self.chosen_key
        if chosen is None:
            return
        question = f"Remove the key {chosen}? ssh with it will no longer log you in."
        if len(self.fingerprints) == 1:
            question += f" {LAST_KEY}"
        self.app.push_screen(
            ConfirmDialog(question, "Remove"), lambda yes: self._confirmed(chosen, yes)
        )

    def _confirmed(self, fingerprint: str, yes: bool | None) -> None:
        if yes:
            self._remove(fingerprint)

    @work(group="remove", exit_on_error=False)
    async def _remove(self, fingerprint: str) -> None:
        try:
            removed = await self.link.key_remove(fingerprint)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}", error=True)
            return
        self.fetch(key_removed(fingerprint) if removed else key_words.NO_SUCH_KEY)
