"""The connect dialog: the free-text options of a network opponent (host, port, username).

It only collects and checks them; connecting, with its errors, is the
backend's job and shows on the game screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.match import Backend


class ConnectDialog(ModalScreen[dict[str, str] | None]):
    """Ask for a kind's free-text options; dismiss with their values (None: Escape, back).

    Each field is checked by its option's own rule when Enter is pressed; the
    first problem is explained inline and that field focused.
    """

    DEFAULT_CSS = """
    ConnectDialog { align: center middle; }
    ConnectDialog > Vertical {
        width: 64;
        max-width: 100%;
        height: auto;
        border: round $primary;
        background: $panel;
        padding: 1 2;
    }
    ConnectDialog #connect-title { text-style: bold; margin-bottom: 1; }
    ConnectDialog Grid { grid-size: 2; grid-columns: 10 1fr; grid-rows: 3; height: auto; }
    ConnectDialog Label { padding-top: 1; }
    ConnectDialog #connect-status { height: auto; margin-top: 1; }
    ConnectDialog #connect-status.-error { color: $error; text-style: bold; }
    ConnectDialog Horizontal { height: auto; margin-top: 1; }
    ConnectDialog Button { margin-right: 2; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Back", id="connect.cancel"),
        Binding("enter", "connect", "Connect", priority=True, id="connect.connect"),
    ]

    def __init__(self, kind: type[Backend], values: Mapping[str, str]) -> None:
        super().__init__()
        self._kind = kind
        self._values = kind.option_values(values)
        self._fields = [option for option in kind.options if not option.choices]

    def compose(self) -> ComposeResult:
        """One field per free-text option, a status line and the buttons."""
        with Vertical():
            yield Static(self._kind.summary, id="connect-title")
            with Grid():
                for option in self._fields:
                    yield Label(option.label)
                    yield Input(
                        self._values[option.key], id=option.key, max_length=option.max_length
                    )
            yield Static("", id="connect-status")
            with Horizontal():
                yield Button("Connect", id="connect", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        """Start in the first field."""
        self.query(Input).first().focus()

    def _say(self, text: str) -> None:
        status = self.query_one("#connect-status", Static)
        status.update(text)
        status.set_class(bool(text), "-error")

    @on(Button.Pressed, "#connect")
    def action_connect(self) -> None:
        """Check every field; dismiss with the values, or explain the first problem."""
        values = dict(self._values)
        for option in self._fields:
            text = self.query_one(f"#{option.key}", Input).value.strip()
            problem = option.problem(text)
            if problem is not None:
                self._say(problem)
                self.query_one(f"#{option.key}", Input).focus()
                return
            values[option.key] = text
        self.dismiss(values)

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)
