"""What a moderator's ban and mute dialogs share (spec §7): a number, maybe a text, one base.

Each asks of a player for how long (hours, minutes: checked by the wire's rules,
and explained in the dialog if they will not do) and what else it needs (a ban's
reason); Enter goes from field to field, then dismisses the dialog with what was
asked, Esc with None. Whoever opened it sends the request and says what came of it
(``ui.public_actions``). ``BanDialog`` and ``MuteDialog`` are built on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static
from textual.widgets.button import ButtonVariant

#: What a dialog dismisses with (``BanAsked``, ``MuteAsked``).
Asked = TypeVar("Asked")


class SanctionDialog(ModalScreen[Asked | None], Generic[Asked]):
    """``VERB`` ``user``: for how long (``FIELD``), and more; Enter does it, Esc cancels.

    Its bindings are each dialog's own (their ids): Enter runs ``go``, Esc ``cancel``.

    Args:
        user: whom the moderator acts on.
    """

    DEFAULT_CSS = """
    SanctionDialog { align: center middle; }
    SanctionDialog .form-note { color: $text-muted; height: auto; margin-bottom: 1; }
    """

    #: What is done (the title's and the button's word, the ids' stem: ``#ban-status``).
    VERB = ""
    #: The number's label (and the field's id, folded), what it starts at, the note.
    FIELD = ""
    DEFAULT = ""
    NOTE = ""
    #: The button's colour.
    VARIANT: ButtonVariant = "error"

    def __init__(self, user: str) -> None:
        super().__init__()
        self.user = user

    @property
    def _stem(self) -> str:
        return self.VERB.casefold()

    def compose(self) -> ComposeResult:
        """What it does, the fields, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"{self.VERB} {self.user}", classes="form-title")
            yield Static(self.NOTE, classes="form-note")
            with Grid():
                yield Label(self.FIELD)
                yield Input(
                    self.DEFAULT, id=self.FIELD.casefold(), restrict=r"[0-9]*", compact=True
                )
                for label, field in self.more_fields():
                    yield Label(label)
                    yield field
            yield Static("", id=f"{self._stem}-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button(f"{self.VERB} (Enter)", id=self._stem, variant=self.VARIANT)
                yield Button("Cancel (Esc)", id="cancel")

    def more_fields(self) -> Iterable[tuple[str, Input]]:
        """Fields after the number, each with its label (none here)."""
        return ()

    def asked(self) -> Asked | None:
        """What the fields ask for, if it can go; else None, a problem said (``problem``)."""
        raise NotImplementedError

    def on_mount(self) -> None:
        """The number first, ready to type."""
        self.query(Input).first().focus()

    def problem(self, text: str, field: str) -> None:
        """Say why what was asked cannot go, and put the cursor in ``field`` (an id)."""
        status = self.query_one(f"#{self._stem}-status", Static)
        status.update(text)
        status.add_class("-error")
        self.query_one(f"#{field}", Input).focus()

    def action_go(self) -> None:
        """Enter: from a field on to the next; from the last (or the button), do it."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        fields = list(self.query(Input))
        if self.focused in fields[:-1]:
            fields[fields.index(self.focused) + 1].focus()
            return
        asked = self.asked()
        if asked is not None:
            self.dismiss(asked)

    def on_button_pressed(self, pressed: Button.Pressed) -> None:
        """The dialog's button does it (Cancel cancels: ``action_cancel``)."""
        if pressed.button.id == self._stem:
            self.action_go()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Nothing done."""
        self.dismiss(None)
