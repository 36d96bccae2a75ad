"""The Textual application: a menu, then games, with help one key away.

Only the menu loads with the app: each other screen is imported when first shown
(the game screen brings the board, records and the AI's hints; the lobby brings
the network protocols), so the menu's first frame comes sooner.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter

from c4tui.engine import C4Error, Move
from c4tui.match import Backend, MatchSettings
from c4tui.ui.ascii import AsciiFilter, ascii_key_display
from c4tui.ui.assets import asset_path
from c4tui.ui.preferences import Preferences, load_preferences, save_preferences
from c4tui.ui.screens.menu import KINDS, MenuScreen, picked_in_menu
from c4tui.ui.servers import Servers
from c4tui.ui.themes import DEFAULT_THEME, TERMINAL_THEMES, THEMES

if TYPE_CHECKING:
    from c4tui.match import MatchDriver
    from c4tui.match.pool import SearchPool
    from c4tui.records import GameRecord
    from c4tui.ui.screens.game import GameScreen
    from c4tui.ui.screens.login import LoggedIn

# The other screens load when first shown (the imports marked PLC0415 below).

#: Allocations between the garbage collector's young collections in the app (Python: 700).
YOUNG_COLLECTION_ALLOCATIONS = 10_000
#: How often a browser visitor's app looks whether its web server is still there.
SERVER_CHECK_SECONDS = 2.0

DriverFactory = Callable[[MatchSettings, Sequence[Move]], "MatchDriver"]

#: The name under which a game left for the menu waits (installed screens stay alive).
SUSPENDED = "suspended-game"


class C4App(App[None]):
    """c4tui's full-screen app.

    Args:
        settings: what the menu shows first (and the AI's seed and pace).
        start_at_once: open a game with ``settings`` at once (the command line asked for one).
        review: open this saved game to step through it (``c4tui replay``).
        animate: let dropped discs fall into place (off: ``--no-animation``).
        visitor_servers: served to a browser (``c4tui web``): the only network servers
            this app may reach; without any, no network modes are offered. None: any.
        ascii_only: draw with ASCII characters only (for limited terminals and fonts).
        make_driver: builds the driver of a match (settings, moves already played); tests
            pass their own seats this way.
        pool: where the AI thinks (the process's shared pool by default).
    """

    TITLE = "c4tui"
    SUB_TITLE = "Connect Four"
    CSS_PATH = str(asset_path("c4tui.tcss"))
    #: Classes the screens get by terminal height (the stylesheet closes up short panels).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall"), (40, "-roomy")]
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
        review: GameRecord | None = None,
        animate: bool = True,
        visitor_servers: Servers | None = None,
    ) -> None:
        super().__init__()
        if not animate:
            self.animation_level = "none"  # no falling discs, no smooth scrolling
        self._visitor_servers = visitor_servers
        self._initial_settings = self._visitor_settings(settings or MatchSettings())
        self._start_at_once = start_at_once
        self._ascii_only = ascii_only
        self._ascii_filter = AsciiFilter()
        self._use_saved_theme()
        # None: the process's shared pool, made when a game first needs it (not at the start).
        self._pool = pool
        self._make_driver = make_driver or (
            lambda settings, history: settings.driver(self._pool, history)
        )
        #: What was typed in each kind's connect dialog, offered again next time.
        self._typed: dict[str, dict[str, str]] = {}
        self._review = review
        #: A game left for the menu, waiting under Resume.
        self._suspended: GameScreen | None = None
        #: The unfinished game of the last run, offered under Resume (read on mount).
        self.kept: GameRecord | None = None
        #: A browser visitor's web server (the parent process, from the start), watched.
        self._server_pid = os.getppid()

    # ----- looks ---------------------------------------------------------------------

    @property
    def ascii_only(self) -> bool:
        """True when everything is drawn with ASCII characters (``--ascii``)."""
        return self._ascii_only

    def _use_saved_theme(self) -> None:
        """Offer c4tui's themes, and start with the one chosen last time (if it still exists).

        Of Textual's own themes only the two that use the terminal's colours stay on
        offer: the others were not made for discs and do not meet the contrast bar.
        """
        for name in list(self.available_themes):
            if name not in TERMINAL_THEMES:
                self.unregister_theme(name)
        for theme in THEMES:
            self.register_theme(theme)
        self._preferences: Preferences = load_preferences()
        saved = self._preferences.theme
        self._start_with_theme(saved if self.get_theme(saved) is not None else DEFAULT_THEME)

    def _start_with_theme(self, name: str) -> None:
        """Set the first theme before any CSS is read: setting ``theme`` would read it twice.

        Speed: Textual's theme watcher reparses every stylesheet, ~6 ms of the start,
        for CSS not yet read. This does the rest of what the watcher does.
        """
        self.set_reactive(App.theme, name)
        dark = self.current_theme.dark
        classes = {old: False for old in self.classes if old.startswith("-theme-")}
        classes.update({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark})
        self.update_classes(classes, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())  # read with these, once

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen in the command palette for the next start."""
        if theme == self._preferences.theme:
            return
        self._preferences = replace(self._preferences, theme=theme)
        try:
            save_preferences(self._preferences)
        except OSError as error:
            self.notify(f"The theme could not be saved: {error}", severity="warning", markup=False)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (NO_COLOR), and with ``--ascii`` the one that makes it all ASCII."""
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self._ascii_only else filters

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer: with ``--ascii``, "enter" rather than "⏎"."""
        display = super().get_key_display(binding)
        return ascii_key_display(binding, display) if self._ascii_only else display

    # ----- screens -------------------------------------------------------------------

    def _visitor_settings(self, settings: MatchSettings) -> MatchSettings:
        """A browser visitor's defaults: the first allowed server, no name taken from this host."""
        servers = self._visitor_servers
        if servers is None:
            return settings
        options = {**settings.options, "user": settings.options.get("user", "player")}
        if servers:
            options.update(host=servers[0][0], port=str(servers[0][1]))
        return replace(settings, options=options)

    @property
    def is_visitor(self) -> bool:
        """True when served to a browser by ``c4tui web`` (files and servers are off limits)."""
        return self._visitor_servers is not None

    def offered_kinds(self) -> tuple[type[Backend], ...]:
        """The opponents the menu offers: to a browser visitor, network ones only if allowed."""
        if self._visitor_servers is None or self._visitor_servers:
            return KINDS
        return tuple(kind for kind in KINDS if not kind.remote)

    def on_mount(self) -> None:
        """Open on the menu, or straight into a game (over the menu: Esc goes back to it)."""
        from c4tui.records.store import unfinished_game  # noqa: PLC0415

        self.kept = unfinished_game()
        self.push_screen(MenuScreen(self._initial_settings, self.offered_kinds()))
        if self._review is not None:
            self.open_record(self._review, review=True)
        elif self._start_at_once:
            self.start_match(self._initial_settings)
        if self.is_visitor:
            self.set_interval(SERVER_CHECK_SECONDS, self._leave_if_server_gone)

    def _leave_if_server_gone(self) -> None:
        """A visitor's app ends with its ``c4tui web`` server, however that ended.

        Textual's web driver goes on running when the server stops talking to it, so a
        server killed without goodbyes would leave its visitors' apps running for ever.
        Once the server is gone this process has another parent.
        """
        if os.getppid() != self._server_pid:
            self.exit(return_code=1)

    def on_ready(self) -> None:
        """The first frame is drawn: collect garbage again (``run_app`` held it off to start).

        A full collection walks every object the program has made, ~30 ms after
        Textual's start: two frames lost at random. What exists once the first screen
        is drawn (modules, classes, styles) lives as long as the app, so it is frozen
        and later collections skip it. (Only when ``run_app`` held collections off: an
        app made by tests, many in one process, freezes nothing.)
        """
        if not gc.isenabled():
            gc.freeze()
            # Young collections every 10,000 allocations, not 700: a move allocates a few
            # thousand short-lived objects (events, strips), and each collection is a pause.
            _, middle, old = gc.get_threshold()
            gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, middle, old)
            gc.enable()

    def make_driver(self, settings: MatchSettings, history: Sequence[Move] = ()) -> MatchDriver:
        """The driver of a match with ``settings``, ``history`` already played."""
        return self._make_driver(settings, history)

    # ----- a game left for the menu --------------------------------------------------

    def on_game_screen_suspended(self, message: GameScreen.Suspended) -> None:
        """Keep the game left for the menu going behind it, to come back to with Resume."""
        screen = message.screen
        self.install_screen(screen, SUSPENDED)
        self._suspended = screen
        screen.dismiss(None)

    def resumable(self) -> str | None:
        """What Resume would bring back, in words (None: nothing)."""
        if self._suspended is not None:
            return f"Your game: {self._suspended.settings.describe()}".replace("\n", ", ")
        if self.kept is not None:
            moves = len(self.kept.moves)
            return f"Your unfinished game from last time ({moves} moves)"
        return None

    def resume(self) -> None:
        """Back to the game left for the menu, or the unfinished game of the last run."""
        screen = self._suspended
        if screen is not None:
            self._suspended = None
            self.uninstall_screen(SUSPENDED)
            self.push_screen(screen)
        elif self.kept is not None:
            record, self.kept = self.kept, None
            self.open_record(record, review=False)

    async def _abandon_suspended(self) -> None:
        """The game behind the menu is given up: stop it, and do not offer it again."""
        screen, self._suspended = self._suspended, None
        if screen is not None:
            self.uninstall_screen(SUSPENDED)
            screen.forget()
            await screen.remove()

    def _unfinished_game(self) -> GameScreen | None:
        """The game that quitting would end: the one on screen or the one behind the menu."""
        if "c4tui.ui.screens.game" not in sys.modules:
            return None  # no game was shown yet (and quitting should not load its screen)
        from c4tui.ui.screens.game import GameScreen  # noqa: PLC0415

        screens = [self._suspended, *self.screen_stack]
        return next((s for s in screens if isinstance(s, GameScreen) and s.unfinished), None)

    async def action_quit(self) -> None:
        """Quit; mid-game, once the person says so (a local game is kept for next time)."""
        game = self._unfinished_game()
        if game is None:
            self.exit()
            return
        from c4tui.ui.screens.confirm import ConfirmDialog  # noqa: PLC0415

        if isinstance(self.screen, ConfirmDialog):
            self.exit()
            return
        kept = "It is kept: Resume offers it next time."
        if game.remote:
            kept = ""
        elif self.is_visitor:  # a visitor's folder goes with the visit
            kept = "In a browser it is not kept after you quit."
        question = f"Quit c4tui? Your game is not finished. {kept}".strip()

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmDialog(question, "Quit"), answered)

    # ----- games from records --------------------------------------------------------

    def open_record(
        self, record: GameRecord, review: bool, base: MatchSettings | None = None
    ) -> None:
        """Open a saved game: to step through (``review``), or to play on at its end."""
        self._after_giving_up(
            lambda: self._open_record(record, review, base), "Open this game", "Open"
        )

    def _open_record(self, record: GameRecord, review: bool, base: MatchSettings | None) -> None:
        from c4tui.match.record import settings_to_continue  # noqa: PLC0415
        from c4tui.ui.screens.game import GameScreen  # noqa: PLC0415

        settings = settings_to_continue(record, base or self._initial_settings)
        try:
            driver = self.make_driver(settings, record.moves)
        except (C4Error, KeyError) as error:
            self.notify(
                str(error), title="This game cannot be opened", severity="error", markup=False
            )
            return
        screen = GameScreen(
            driver,
            settings,
            ascii_only=self._ascii_only,
            review=record if review else None,
            make_driver=self.make_driver,
            saves_last_until_quit=self.is_visitor,
        )
        self.push_screen(screen)

    def start_match(self, settings: MatchSettings) -> None:
        """Start a game with ``settings``; a game waiting behind the menu is given up first."""
        self._after_giving_up(lambda: self._start_match(settings), "Start a new game", "New game")

    def _after_giving_up(self, then: Callable[[], None], doing: str, verb: str) -> None:
        """Run ``then`` once the unfinished game, if any, is given up (after asking).

        That is the game behind the menu, or the one kept from the last run (which the
        new game would replace as the one offered next time).
        """
        from c4tui.ui.screens.confirm import ConfirmDialog  # noqa: PLC0415

        if self._suspended is not None:
            question = f"{doing}? The game you left is not finished."
        elif self.kept is not None:
            question = f"{doing}? Your unfinished game from last time will be gone."
        else:
            then()
            return

        async def answered(yes: bool | None) -> None:
            if yes:
                await self._abandon_suspended()
                self._forget_kept()
                then()

        self.push_screen(ConfirmDialog(question, verb), answered)

    def _forget_kept(self) -> None:
        """The unfinished game of the last run is not wanted: it is not offered again."""
        if self.kept is not None:
            from c4tui.records.store import keep_unfinished_soon  # noqa: PLC0415

            self.kept = None
            keep_unfinished_soon(None)

    def _start_match(self, settings: MatchSettings) -> None:
        """Opponents with free-text options ask for them first."""
        kind = settings.kind
        if kind.lobby:
            self._open_lobby(settings)
            return
        if picked_in_menu(kind):
            self._open_game(settings)
            return
        from c4tui.ui.screens.connect import ConnectDialog  # noqa: PLC0415

        values = {**settings.options, **self._typed.get(kind.key, {})}
        self.push_screen(
            ConnectDialog(
                kind,
                values,
                (settings.columns, settings.rows, settings.rules),
                allowed=self._visitor_servers,
            ),
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
        from c4tui.ui.screens.lobby import LobbyScreen  # noqa: PLC0415
        from c4tui.ui.screens.login import LoginDialog  # noqa: PLC0415

        values = {**settings.options, **self._typed.get(settings.opponent, {})}

        def logged_in(outcome: LoggedIn | None) -> None:
            if outcome is not None:
                self._typed[settings.opponent] = outcome.values
                self.push_screen(LobbyScreen(outcome, settings))

        self.push_screen(LoginDialog(values, allowed=self._visitor_servers), logged_in)

    def _open_game(self, settings: MatchSettings) -> None:
        from c4tui.ui.screens.game import GameScreen  # noqa: PLC0415

        driver = self.make_driver(settings)
        self.push_screen(
            GameScreen(
                driver,
                settings,
                ascii_only=self._ascii_only,
                make_driver=self.make_driver,
                saves_last_until_quit=self.is_visitor,
            )
        )
