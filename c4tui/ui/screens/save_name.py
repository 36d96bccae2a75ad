"""The save dialog: the name a game is saved under, when it was saved offered first.

Enter keeps the name offered, so a save is one more key than it used to be and
named as saves always were. A name no file can have is explained here and asked
again; a name already saved asks before that save is replaced (so one key never
loses an older game, and a study saved under one name can still be brought up to date).
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from c4tui.records.store import FORBIDDEN_IN_NAMES, name_problem, plain_name
from c4tui.ui.screens.confirm import ConfirmDialog


class SaveNameDialog(ModalScreen[str | None]):
    """Ask the name to save a game as; dismissed with it (plain), or None (Esc: not saved).

    Args:
        offered: the name in the field at first (selected: typing replaces it).
        taken: whether a save of that (plain) name exists already.
    """

    DEFAULT_CSS = """
    SaveNameDialog { align: center middle; }
    SaveNameDialog #save-rule { color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="save.cancel"),
        # Also before the field has the focus (a quick "s" then Enter keeps the name).
        Binding("enter", "save", "Save", id="save.save"),
    ]

    def __init__(self, offered: str, taken: Callable[[str], bool]) -> None:
        super().__init__()
        self._offered = offered
        self._taken = taken

    def compose(self) -> ComposeResult:
        """The field, what a name may not have, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static("Save the game as", classes="form-title")
            yield Input(self._offered, id="save-name")
            rule = f"Not in a name: {' '.join(FORBIDDEN_IN_NAMES)}"
            yield Static(rule, id="save-rule", markup=False)
            yield Static("", id="save-status", classes="form-status", markup=False)  # names typed
            with Horizontal():
                yield Button("Save (Enter)", id="save", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The field first, its name selected."""
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Save under the name typed, once it can be a file's (and a save it replaces is agreed)."""
        name = plain_name(self.query_one(Input).value)
        problem = name_problem(name)
        if problem is not None:
            self._problem(problem)
        elif self._taken(name):
            # The question is read as markup: a name's brackets are escaped.
            question = f"A game is saved as “{escape(name)}” already. Replace it?"
            self.app.push_screen(ConfirmDialog(question, "Replace"), self._replace_answered)
        else:
            self.dismiss(name)

    def _replace_answered(self, yes: bool | None) -> None:
        name = plain_name(self.query_one(Input).value)
        if yes:
            self.dismiss(name)
        else:
            self._problem(f"“{name}” is kept: choose another name.")

    def _problem(self, text: str) -> None:
        status = self.query_one("#save-status", Static)
        status.update(text)
        status.add_class("-error")
        self.query_one(Input).focus()
        self.app.bell()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Not saved."""
        self.dismiss(None)
