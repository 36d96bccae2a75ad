"""A yes-or-no question before something that cannot be taken back (forfeiting a game)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmDialog(ModalScreen[bool]):
    """``question``, then Enter or y confirms, Esc or n keeps things as they are."""

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical {
        width: 50; max-width: 100%; height: auto;
        border: round $warning; background: $panel; padding: 1 2;
    }
    ConfirmDialog Horizontal { height: auto; margin-top: 1; }
    ConfirmDialog Button { margin-right: 2; }
    """

    BINDINGS = [
        Binding("y,enter", "confirm", "Yes", priority=True),
        Binding("n,escape", "cancel", "No"),
    ]

    def __init__(
        self,
        question: str,
        confirm_label: str,
        cancel_label: str = "Cancel",
        keys: tuple[str, str] = ("y", "n"),
    ) -> None:
        """``keys``: the confirming and the cancelling key, as the buttons name them."""
        super().__init__()
        self._question = question
        self._confirm_label = confirm_label
        self._cancel_label = cancel_label
        self._keys = keys

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        confirm, cancel = self._keys
        with Vertical():
            yield Static(self._question)
            with Horizontal():
                yield Button(f"{self._confirm_label} ({confirm})", id="confirm", variant="error")
                yield Button(f"{self._cancel_label} ({cancel})", id="cancel")

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        """Yes."""
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """No."""
        self.dismiss(False)


def confirm_forfeit() -> ConfirmDialog:
    """The question before giving up a game against a person."""
    return ConfirmDialog("Forfeit this game? Your opponent wins.", "Forfeit")


def confirm_leaving() -> ConfirmDialog:
    """The question before leaving a game against a person (which forfeits it)."""
    return ConfirmDialog("Leave this game? Leaving forfeits it.", "Leave")


def confirm_quitting(remote: bool, visitor: bool) -> ConfirmDialog:
    """The question before quitting mid-game: what becomes of the game.

    A local game is kept for next time, except a browser visitor's (whose folder goes
    with the visit); a game on a server is the server's.
    """
    kept = "It is kept: Resume offers it next time."
    if remote:
        kept = ""
    elif visitor:
        kept = "In a browser it is not kept after you quit."
    return ConfirmDialog(f"Quit c4tui? Your game is not finished. {kept}".strip(), "Quit")


def confirm_quitting_columns() -> ConfirmDialog:
    """The question before quitting a Columns game under way, as for Connect Four's."""
    return ConfirmDialog("Quit c4tui? Your Columns game is not finished. It is not kept.", "Quit")
