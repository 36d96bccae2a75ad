"""The connect dialog: where the server is and who you are; it connects before closing."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.engine import GameState
from c4tui.match.network import I32CFSPBackend, NetworkError, ServerAddress
from c4tui.protocols.i32cfsp import valid_username


def address_problem(host: str, port: str, username: str) -> tuple[str, str] | None:
    """(field id, what is wrong) for the first bad field, or None when all are fine."""
    if not host.strip() or any(char.isspace() for char in host.strip()):
        return "host", "Host: a name or address without spaces, e.g. localhost."
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return "port", "Port: a whole number from 1 to 65535."
    if not username:
        return "username", "Username: required."
    if not valid_username(username):
        return "username", "Username: 1-32 printable characters, no spaces."
    return None


class ConnectDialog(ModalScreen[I32CFSPBackend | None]):
    """Ask for host, port and username, then connect; dismisses with a connected backend.

    Every failure (refused, unknown host, timeout, a server that answers wrongly)
    is shown inline and the dialog stays open; Escape goes back to the menu.
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
    ConnectDialog #connect-status.-busy { color: $text-muted; text-style: italic; }
    ConnectDialog Horizontal { height: auto; margin-top: 1; }
    ConnectDialog Button { margin-right: 2; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Back", id="connect.cancel"),
        Binding("enter", "connect", "Connect", priority=True, id="connect.connect"),
    ]

    def __init__(self, address: ServerAddress, game: GameState, timeout: float = 10.0) -> None:
        super().__init__()
        self._address = address
        self._game = game
        self._timeout = timeout

    def compose(self) -> ComposeResult:
        """Three fields, a status line and the buttons."""
        address = self._address
        with Vertical():
            yield Static("Play against a network server (you are RED)", id="connect-title")
            with Grid():
                yield Label("Host")
                yield Input(address.host, id="host")
                yield Label("Port")
                yield Input(str(address.port), id="port", restrict=r"[0-9]{0,5}", max_length=5)
                yield Label("Username")
                yield Input(address.username, id="username", max_length=32)
            yield Static("", id="connect-status")
            with Horizontal():
                yield Button("Connect", id="connect", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        """Start in the host field (no blinking cursor under test, for stable screenshots)."""
        self.query_one("#host", Input).focus()
        if self.app.is_headless:
            for field in self.query(Input):
                field.cursor_blink = False

    def _say(self, text: str, kind: str = "") -> None:
        status = self.query_one("#connect-status", Static)
        status.update(text)
        status.set_class(kind == "error", "-error")
        status.set_class(kind == "busy", "-busy")

    @on(Button.Pressed, "#connect")
    def action_connect(self) -> None:
        """Check the fields, then connect in the background."""
        host = self.query_one("#host", Input).value.strip()
        port = self.query_one("#port", Input).value.strip()
        username = self.query_one("#username", Input).value
        problem = address_problem(host, port, username)
        if problem is not None:
            field, text = problem
            self._say(text, "error")
            self.query_one(f"#{field}", Input).focus()
            return
        address = ServerAddress(host, int(port), username)
        self._say(f"Connecting to {address}…", "busy")
        self._connect(address)

    @work(group="connect", exclusive=True, exit_on_error=False)
    async def _connect(self, address: ServerAddress) -> None:
        backend = I32CFSPBackend(address, connect_timeout=self._timeout)
        try:
            await backend.start(self._game)
        except NetworkError as error:
            self._say(f"{error}\nCheck the fields and press Enter to try again.", "error")
            return
        self.dismiss(backend)

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu, abandoning any attempt under way."""
        self.workers.cancel_group(self, "connect")
        self.dismiss(None)
