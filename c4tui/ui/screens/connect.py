"""The connect dialog: a network opponent's options (host, port, protocol, username).

It only collects and checks them, and says what the chosen protocol can play;
connecting, with its errors, is the backend's job and shows on the game screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.engine import Rules
from c4tui.match.backends import Backend
from c4tui.match.backends.base import Option
from c4tui.match.settings import describe_game
from c4tui.ui.servers import Servers, server_refusal
from c4tui.ui.widgets.choice import ChoiceSet


def option_widget(option: Option, value: str, *, ascii_only: bool = False) -> Input | ChoiceSet:
    """A form's widget for ``option``: a field for free text, radio choices for a list."""
    if not option.choices:
        return Input(value, id=option.key, max_length=option.max_length, compact=True)
    choices = [(choice.label, choice.value) for choice in option.choices]
    return ChoiceSet.picking(choices, value, ascii_only=ascii_only, id=option.key)


def chosen_value(screen: DOMNode, option: Option) -> str:
    """What the form's widget for ``option`` (``option_widget``'s) holds now."""
    if not option.choices:
        return screen.query_one(f"#{option.key}", Input).value.strip()
    return option.choices[screen.query_one(f"#{option.key}", ChoiceSet).pressed_index].value


class ConnectDialog(ModalScreen[dict[str, str] | None]):
    """Ask for a kind's options; dismiss with their values (None: Escape, back).

    Free-text options are fields, checked by the option's own rule when Enter is
    pressed (the first problem is explained inline and that field focused);
    options with choices are radio rows. A field that does not apply to the
    choices made (a username the protocol never sends) is greyed out. Below, a
    note says what the choices mean for the game asked for.
    """

    DEFAULT_CSS = """
    ConnectDialog { align: center middle; }
    ConnectDialog ChoiceSet {
        width: auto;
        background: transparent;
    }
    ConnectDialog #connect-note { height: auto; margin-top: 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Back", id="connect.cancel"),
        Binding("enter", "connect", "Connect", priority=True, id="connect.connect"),
    ]

    def __init__(
        self,
        kind: type[Backend],
        values: Mapping[str, str],
        game: tuple[int, int, Rules] | None = None,
        allowed: Servers | None = None,
        *,
        ascii_only: bool = False,
    ) -> None:
        super().__init__()
        self._allowed = allowed
        self._ascii_only = ascii_only
        self._kind = kind
        self._values = kind.option_values(values)
        self._options = kind.asked_in_dialog()  # the menu picked the rest
        self._fields = [option for option in self._options if not option.choices]
        self._choices = [option for option in self._options if option.choices]
        self._game = game

    def compose(self) -> ComposeResult:
        """One row per option, a note, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(self._kind.summary, id="connect-title", classes="form-title")
            with Grid():
                for option in self._options:
                    yield Label(option.label)
                    value = self._values[option.key]
                    yield option_widget(option, value, ascii_only=self._ascii_only)
            yield Static("", id="connect-note")
            yield Static("", id="connect-status", classes="form-status")
            with Horizontal():
                yield Button(self._kind.dialog_button, id="connect", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        """Start in the first field."""
        self.query(Input).first().focus()
        self._choices_changed()

    def _chosen(self) -> dict[str, str]:
        """Every option's value as the form shows it now."""
        values = dict(self._values)
        for option in self._options:
            values[option.key] = chosen_value(self, option)
        return values

    @on(ChoiceSet.Changed)
    @on(Input.Changed)
    def _choices_changed(self) -> None:
        """Grey out what no longer applies; say what the choices mean for the game."""
        values = self._chosen()
        for option in self._fields:
            self.query_one(f"#{option.key}", Input).disabled = not option.applies(values)
        self.query_one("#connect-note", Static).update(self._note(values))

    def _note(self, values: Mapping[str, str]) -> str:
        """The chosen choices' descriptions, and the game that will be played if it differs."""
        lines = []
        for option in self._choices:
            choice = next(c for c in option.choices if c.value == values[option.key])
            if choice.description:
                lines.append(f"{choice.label}: {choice.description}")
        if self._game is not None:
            played = self._kind.game_for(values, *self._game)
            if played != self._game:
                lines.append(
                    f"You chose {describe_game(*self._game)}: "
                    f"the game will be {describe_game(*played)}."
                )
                lines.append(self._kind.game_note(values))
        return "\n".join(line for line in lines if line)

    def _say(self, text: str) -> None:
        status = self.query_one("#connect-status", Static)
        status.update(text)
        status.set_class(bool(text), "-error")

    def action_connect(self) -> None:
        """Enter: press the button that has the focus (Back), else connect."""
        if isinstance(self.focused, Button):
            self.focused.press()
            return
        self._connect_pressed()

    @on(Button.Pressed, "#connect")
    def _connect_pressed(self) -> None:
        """Check every field that applies; dismiss with the values, or explain the first problem."""
        if not self.query("#connect-status"):  # Enter came before the form exists, or after
            return
        values = self._chosen()
        for option in self._fields:
            if not option.applies(values):
                values[option.key] = self._values[option.key]  # kept for next time, unchecked
                continue
            problem = option.problem(values[option.key])
            if problem is not None:
                self._say(problem)
                self.query_one(f"#{option.key}", Input).focus()
                return
        refusal = server_refusal(values, self._allowed)
        if refusal is not None:
            self._say(refusal)
            self.query_one("#host", Input).focus()
            return
        self.dismiss(values)

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)
