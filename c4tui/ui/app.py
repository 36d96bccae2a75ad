"""The Textual application: a menu, then games, with help one key away."""

from __future__ import annotations

import sys
from collections.abc import Callable

from textual.app import App
from textual.binding import Binding

from c4tui.engine import Player
from c4tui.match import Backend, HumanBackend, MatchController, MatchSettings, Mode
from c4tui.match.controller import default_backends
from c4tui.match.network import I32CFSPBackend, ServerAddress, login_name
from c4tui.ui.assets import asset_path
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen

BackendFactory = Callable[[MatchSettings], dict[Player, Backend]]


class C4App(App[None]):
    """c4tui's full-screen app.

    Args:
        settings: what the menu shows first (and the AI's seed and pace).
        ascii_only: draw with ASCII characters only (for limited terminals and fonts).
        backend_factory: builds the players of a match; tests pass their own.
    """

    TITLE = "c4tui"
    SUB_TITLE = "Connect Four"
    CSS_PATH = str(asset_path("c4tui.tcss"))
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        settings: MatchSettings | None = None,
        *,
        ascii_only: bool = False,
        backend_factory: BackendFactory = default_backends,
    ) -> None:
        super().__init__()
        self._initial_settings = settings or MatchSettings()
        self._ascii_only = ascii_only
        self._backend_factory = backend_factory
        self.server_address = ServerAddress(username=login_name())
        self.connect_timeout = 10.0

    def on_mount(self) -> None:
        """Open on the menu."""
        # The AI searches in a thread; handing the interpreter lock over more often
        # (default: every 5 ms) keeps keys snappy while it thinks.
        sys.setswitchinterval(0.001)
        self.push_screen(MenuScreen(self._initial_settings))

    def start_match(self, settings: MatchSettings) -> None:
        """Start a game with ``settings``: network games ask where the server is first."""
        if settings.mode is Mode.NETWORK:
            dialog = ConnectDialog(self.server_address, settings.new_game(), self.connect_timeout)
            self.push_screen(dialog, lambda backend: self._start_network_match(settings, backend))
            return
        self._open_game(settings, self._backend_factory(settings))

    def _start_network_match(self, settings: MatchSettings, backend: I32CFSPBackend | None) -> None:
        """The dialog closed: play against the connected server (or stay in the menu)."""
        if backend is None:
            return
        self.server_address = backend.address  # the dialog offers it again next time
        self._open_game(settings, {Player.RED: HumanBackend("You"), Player.YELLOW: backend})

    def _open_game(self, settings: MatchSettings, backends: dict[Player, Backend]) -> None:
        controller = MatchController(settings, backends)
        self.push_screen(GameScreen(controller, ascii_only=self._ascii_only))
