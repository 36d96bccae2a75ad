"""The Textual application: a menu, then games, with help one key away."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter

from c4tui.match import MatchDriver, MatchSettings
from c4tui.match.pool import SearchPool
from c4tui.ui.ascii import AsciiFilter, ascii_key_display
from c4tui.ui.assets import asset_path
from c4tui.ui.preferences import Preferences, load_preferences, save_preferences
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.login import LoggedIn, LoginDialog
from c4tui.ui.screens.menu import MenuScreen, picked_in_menu
from c4tui.ui.themes import DEFAULT_THEME, THEMES

DriverFactory = Callable[[MatchSettings], MatchDriver]


class C4App(App[None]):
    """c4tui's full-screen app.

    Args:
        settings: what the menu shows first (and the AI's seed and pace).
        start_at_once: open a game with ``settings`` at once (the command line asked for one).
        ascii_only: draw with ASCII characters only (for limited terminals and fonts).
        make_driver: builds the driver of a match; tests pass their own seats this way.
        pool: where the AI thinks (the process's shared pool by default).
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
        make_driver: DriverFactory | None = None,
        pool: SearchPool | None = None,
        start_at_once: bool = False,
    ) -> None:
        super().__init__()
        self._initial_settings = settings or MatchSettings()
        self._start_at_once = start_at_once
        self._ascii_only = ascii_only
        self._ascii_filter = AsciiFilter()
        self._use_saved_theme()
        # Made now, before Textual takes over the terminal: its worker processes start later.
        self._pool = pool or SearchPool.shared()
        self._make_driver = make_driver or (lambda settings: settings.driver(self._pool))
        #: What was typed in each kind's connect dialog, offered again next time.
        self._typed: dict[str, dict[str, str]] = {}

    # ----- looks ---------------------------------------------------------------------

    @property
    def ascii_only(self) -> bool:
        """True when everything is drawn with ASCII characters (``--ascii``)."""
        return self._ascii_only

    def _use_saved_theme(self) -> None:
        """Offer c4tui's themes, and start with the one chosen last time (if it still exists)."""
        for theme in THEMES:
            self.register_theme(theme)
        self._preferences: Preferences = load_preferences()
        saved = self._preferences.theme
        self.theme = saved if self.get_theme(saved) is not None else DEFAULT_THEME

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen in the command palette for the next start."""
        if theme == self._preferences.theme:
            return
        self._preferences = replace(self._preferences, theme=theme)
        try:
            save_preferences(self._preferences)
        except OSError as error:
            self.notify(f"The theme could not be saved: {error}", severity="warning")

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (NO_COLOR), and with ``--ascii`` the one that makes it all ASCII."""
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self._ascii_only else filters

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer: with ``--ascii``, "enter" rather than "⏎"."""
        display = super().get_key_display(binding)
        return ascii_key_display(binding, display) if self._ascii_only else display

    # ----- screens -------------------------------------------------------------------

    def on_mount(self) -> None:
        """Open on the menu, or straight into a game (over the menu: Esc goes back to it)."""
        self.push_screen(MenuScreen(self._initial_settings))
        if self._start_at_once:
            self.start_match(self._initial_settings)

    def start_match(self, settings: MatchSettings) -> None:
        """Start a game with ``settings``; opponents with free-text options ask for them first."""
        kind = settings.kind
        if kind.lobby:
            self._open_lobby(settings)
            return
        if picked_in_menu(kind):
            self._open_game(settings)
            return
        values = {**settings.options, **self._typed.get(kind.key, {})}
        self.push_screen(
            ConnectDialog(kind, values, (settings.columns, settings.rows, settings.rules)),
            lambda typed: self._connect_dialog_closed(settings, typed),
        )

    def _connect_dialog_closed(self, settings: MatchSettings, typed: dict[str, str] | None) -> None:
        """The dialog closed: play with what was typed (or stay in the menu)."""
        if typed is None:
            return
        self._typed[settings.opponent] = typed
        options = {**settings.options, **typed}
        columns, rows, rules = settings.kind.game_for(
            options, settings.columns, settings.rows, settings.rules
        )
        self._open_game(replace(settings, options=options, columns=columns, rows=rows, rules=rules))

    def _open_lobby(self, settings: MatchSettings) -> None:
        """Online: log in first, then the lobby's rooms."""
        values = {**settings.options, **self._typed.get(settings.opponent, {})}

        def logged_in(outcome: LoggedIn | None) -> None:
            if outcome is not None:
                self._typed[settings.opponent] = outcome.values
                self.push_screen(LobbyScreen(outcome, settings))

        self.push_screen(LoginDialog(values), logged_in)

    def _open_game(self, settings: MatchSettings) -> None:
        driver = self._make_driver(settings)
        self.push_screen(GameScreen(driver, settings, ascii_only=self._ascii_only))
