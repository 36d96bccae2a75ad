"""The Textual application: a menu, then games, with help one key away.

The app answers the menu's messages; its parts live beside it: its games (started,
opened from records, the one left for the menu) in ``games.py``, the themes in
``theming.py``, a browser visitor's limits in ``servers.py``, and every screen but
the menu (loaded when first shown) in ``screen_factory.py``.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.screen import Screen

from c4tui.engine.setup import SetUp
from c4tui.match.backends import KINDS
from c4tui.match.backends.online import RoomSeat
from c4tui.match.settings import MatchSettings
from c4tui.storage import asset_path
from c4tui.ui import screen_factory as screens
from c4tui.ui.ascii import AsciiFilter, ascii_key_display
from c4tui.ui.commands import ShowsAGame, offered_on
from c4tui.ui.games import Games
from c4tui.ui.preferences import load_preferences
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screenshots import Screenshots
from c4tui.ui.servers import SERVER_CHECK_SECONDS, Servers, Visit
from c4tui.ui.theming import ThemeMemory, offer_themes

if TYPE_CHECKING:
    from c4tui.match.pool import SearchPool
    from c4tui.match.settings import DriverFactory
    from c4tui.protocols.past import KeptGame
    from c4tui.protocols.ssh_visit import KeyVisit
    from c4tui.records import GameRecord
    from c4tui.ui.screens.game import GameScreen
    from c4tui.ui.screens.position_editor import PositionEditor
    from c4tui.ui.screens.profile import ProfileScreen

#: Allocations between the garbage collector's young collections in the app (Python: 700).
YOUNG_COLLECTION_ALLOCATIONS = 10_000


class C4App(App[None]):
    """c4tui's full-screen app.

    Args:
        settings: what the menu shows first (and the AI's seed and pace).
        start_at_once: open a game with ``settings`` at once (the command line asked for one).
        start_columns: open the Columns game's setup at once, over the menu (``c4tui columns``).
        start_puzzles: open the puzzles at once, over the menu (``c4tui --puzzles``).
        review: open this saved game to step through it (``c4tui replay``).
        past_game: open this game a lobby kept, seen by this player, to step through it
            with the solver's verdicts (``c4tui replay --server``).
        animate: let dropped discs fall into place (off: ``--no-animation``).
        visitor_servers: served to a browser (``c4tui web``): the only network servers
            this app may reach; without any, no network modes are offered. None: any.
        key_visit: served over ssh (``c4tui serve --ssh-port``): opens in that server's
            lobby, the visitor's key its account; no other server, no program.
        ascii_only: draw with ASCII characters only (for limited terminals and fonts).
        make_driver: builds the driver of a match (settings, moves already played); tests
            pass their own seats this way.
        pool: where the AI thinks (the process's shared pool by default).
        reconnect_delays: seconds before each try to come back to a lost lobby (None:
            the client's backoff, about a minute in all; tests make them short).
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
        start_columns: bool = False,
        start_puzzles: bool = False,
        review: GameRecord | None = None,
        past_game: tuple[KeptGame, str] | None = None,
        animate: bool = True,
        visitor_servers: Servers | None = None,
        key_visit: KeyVisit | None = None,
        reconnect_delays: Sequence[float] | None = None,
    ) -> None:
        super().__init__()
        if not animate:
            self.animation_level = "none"  # no falling discs, no smooth scrolling
        self._visit = None if visitor_servers is None else Visit(visitor_servers)
        if key_visit is not None:
            self._visit = Visit.over_ssh(key_visit)
            start_at_once = True  # in the lobby at once: the key logs in, or makes an account
            settings = replace(settings or MatchSettings(), opponent=RoomSeat.key)
        self._last_input = time.monotonic()
        settings = settings or MatchSettings()
        if self._visit is not None:
            settings = self._visit.defaults(settings)
        elif not start_at_once:
            settings = last_game_or(settings)
        self._initial_settings = settings
        self._start_at_once = start_at_once
        self._start_columns = start_columns
        self._start_puzzles = start_puzzles
        self._ascii_only = ascii_only
        self._ascii_filter = AsciiFilter()
        self._themes = ThemeMemory()
        offer_themes(self, self._themes.saved)
        # None: the process's shared pool, made when a game first needs it (not at the start).
        self._pool = pool
        self.games = Games(
            self,
            self._initial_settings,
            make_driver or (lambda settings, history: settings.driver(self._pool, history)),
            ascii_only=ascii_only,
            visit=self._visit,
            reconnect_delays=reconnect_delays,
        )
        self._review = review
        self._past_game = past_game
        self._screenshots = Screenshots(self)

    # ----- looks ---------------------------------------------------------------------

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen in the command palette for the next start."""
        try:
            self._themes.remember(theme)
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

    # ----- the palette's commands ----------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands, less those that would hide a game; Screenshot saves ours."""
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":  # once the palette has closed, as Textual's
                yield command._replace(callback=lambda: self.set_timer(0.1, self.action_screenshot))
            elif offered_on(screen, command.title):
                yield command

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """An SVG of the screen in c4tui's screenshots folder (``path``: another folder)."""
        self._screenshots.take(filename, Path(path) if path else None)

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        """A screenshot was saved: where."""
        self._screenshots.delivered(event)

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        """A screenshot could not be saved: where, and why."""
        self._screenshots.failed(event)

    # ----- screens -------------------------------------------------------------------

    def on_mount(self) -> None:
        """Open on the menu, or straight in a game, Columns or puzzles (over it: Esc goes back)."""
        self.games.kept = screens.kept_game()
        kinds = self._visit.offered(KINDS) if self._visit else KINDS
        menu = MenuScreen(
            self._initial_settings,
            kinds,
            resume_offer=self.games.resumable,
            current_game=lambda: self.games.current,
            ascii_only=self._ascii_only,
            notes=self._visit.menu_notes() if self._visit is not None else None,
        )
        self.push_screen(menu)
        if self._review is not None:
            self.games.open_record(self._review, review=True)
        elif self._past_game is not None:
            kept, viewer = self._past_game
            self.push_screen(screens.past_game_review(kept, viewer, ascii_only=self._ascii_only))
        elif self._start_columns:
            self._set_up_columns()
        elif self._start_puzzles:
            self.on_menu_screen_puzzles_requested()
        elif self._start_at_once:
            self.games.start_match(self._initial_settings, ask=False)
        if self._visit is not None:
            self.set_interval(SERVER_CHECK_SECONDS, self._leave_if_server_gone)

    def _leave_if_server_gone(self) -> None:
        """A visitor's app ends with its server, however that ended; or when left idle.

        An ssh visitor with no key pressed for its door's idle time, and no game in
        progress, is gone: its app ends (and the visit with it). A game holds the visit
        open: the person may be thinking, or waiting for the other player.
        """
        if self._visit is None:
            return
        if self._visit.server_gone():
            self.exit(return_code=1)
            return
        idle = self._visit.key.idle_seconds if self._visit.key is not None else None
        if idle is None:
            return
        if self.game_in_progress():  # the idle time counts from the game's end
            self._last_input = time.monotonic()
        elif time.monotonic() - self._last_input > idle:
            self.exit(return_code=0, message=f"Nothing pressed for {idle:g} s: goodbye.")

    def game_in_progress(self) -> bool:
        """True while a game on a screen of the stack is not over (local or online)."""
        return any(
            isinstance(screen, ShowsAGame) and screen.game_in_progress
            for screen in self.screen_stack
        )

    def _print_error_renderables(self) -> None:
        """An ssh visitor is told only that the app failed; the traceback goes to the server.

        Textual would print it, locals and all, on the visitor's terminal: the server's
        paths and the visit's token are nobody's business there.
        """
        key = self._visit.key if self._visit is not None else None
        if key is None or self.return_code != 1 or not self._exit_renderables:  # not a crash
            super()._print_error_renderables()
            return
        report = keep_crash_report(key.errors, self._exit_renderables)
        self._exit_renderables.clear()
        self.error_console.print(f"c4tui stopped on an error of its own ({report}). Sorry!")

    async def on_event(self, event: events.Event) -> None:
        """Note when a key, a click or a resize last came (an ssh visitor's idle time)."""
        if isinstance(event, (events.Key, events.MouseDown, events.Resize)):
            self._last_input = time.monotonic()
        await super().on_event(event)

    def on_ready(self) -> None:
        """The first frame is drawn: collect garbage again (``c4tui.cli.app.open_app`` held it off).

        A full collection walks every object the program has made, ~30 ms after
        Textual's start: two frames lost at random. What exists once the first screen
        is drawn (modules, classes, styles) lives as long as the app, so it is frozen
        and later collections skip it. (Only when ``open_app`` held collections off: an
        app made by tests, many in one process, freezes nothing.)

        Measured (2026-11-26, this 2-core machine under load): bench/tui.py's game-key
        rounds (6 rounds, 20 x 20 Pop Out at 80 x 24) with every collection timed by
        ``gc.callbacks``. Tuned: 7 young collections, 80-129 ms in all, the longest
        24-31 ms. Python's defaults, nothing frozen: ~110 collections and a full one,
        367-422 ms in all, the longest 139-189 ms (over several frames).
        """
        if not gc.isenabled():
            gc.freeze()
            # Young collections every 10,000 allocations, not 700: a move allocates a few
            # thousand short-lived objects (events, strips), and each collection is a pause.
            _, middle, old = gc.get_threshold()
            gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, middle, old)
            gc.enable()

    # ----- what the menu asks for ----------------------------------------------------

    def on_menu_screen_start_requested(self, event: MenuScreen.StartRequested) -> None:
        """Start the game the menu's form describes."""
        self.games.start_match(event.settings)

    def on_menu_screen_resume_requested(self) -> None:
        """Back to the game left unfinished."""
        self.games.resume()

    def on_menu_screen_open_requested(self, event: MenuScreen.OpenRequested) -> None:
        """Choose a saved game (a visitor only pastes digits: the host's files are off limits).

        A board picture opens the position editor on it.
        """

        def opened(chosen: GameRecord | SetUp | None) -> None:
            if isinstance(chosen, SetUp):
                self._set_up(event.settings, chosen)
            elif chosen is not None:
                self.games.open_record(chosen, review=True, base=event.settings)  # all: review

        self.push_screen(screens.open_dialog(allow_files=self._visit is None), opened)

    def on_menu_screen_set_up_requested(self, event: MenuScreen.SetUpRequested) -> None:
        """The position editor, on an empty board of the menu's size and rules."""
        self._set_up(event.settings)

    def _set_up(self, settings: MatchSettings, setup: SetUp | None = None) -> None:
        """The position editor on ``setup`` (None: empty), for a game with ``settings``."""
        self.push_screen(screens.position_editor(settings, setup, ascii_only=self._ascii_only))

    def on_menu_screen_columns_requested(self) -> None:
        """The second game: Columns (its size and starting level first)."""
        self._set_up_columns()

    def on_menu_screen_puzzles_requested(self) -> None:
        """Puzzles: find the move that wins, proven by the solver (Esc comes back here)."""
        try:
            puzzles = screens.puzzle_screen(self._pool, ascii_only=self._ascii_only)
        except (OSError, ValueError) as error:
            self.notify(f"The puzzles could not be read: {error}", severity="error", markup=False)
            return
        self.push_screen(puzzles)

    def on_menu_screen_help_requested(self) -> None:
        """The rules and keys."""
        self.push_screen(screens.help_screen())

    def _set_up_columns(self) -> None:
        """Columns' setup, then its game (Esc in the setup goes back to the menu)."""

        def chosen(size_and_level: tuple[int, int, int] | None) -> None:
            if size_and_level is not None:
                self.push_screen(screens.columns_screen(*size_and_level))

        self.push_screen(screens.columns_setup(), chosen)

    # ----- games ---------------------------------------------------------------------

    def on_game_screen_suspended(self, message: GameScreen.Suspended) -> None:
        """Keep the game left for the menu going behind it, to come back to with Resume."""
        self.games.suspend_game(message.screen)

    def on_game_screen_open_requested(self, message: GameScreen.OpenRequested) -> None:
        """Open a saved game from a game: the dialog over it (Esc: back to the game).

        A game chosen opens as from the menu; the one played is left as Esc leaves it:
        waiting under Resume when unfinished, else ended.
        """
        game = message.screen

        def opened(chosen: GameRecord | SetUp | None) -> None:
            if chosen is None:
                return
            if game.unfinished:
                self.games.suspend_game(game)
            else:
                game.dismiss(None)
            if isinstance(chosen, SetUp):
                self._set_up(game.settings, chosen)
            else:
                self.games.open_record(chosen, review=True, base=game.settings)

        self.push_screen(screens.open_dialog(allow_files=self._visit is None), opened)

    # ----- the position editor -------------------------------------------------------

    def on_position_editor_play_requested(self, message: PositionEditor.PlayRequested) -> None:
        """Play on from the position set up (over the editor: the game's end goes back to it)."""
        self.games.open_record(message.record, review=False, base=message.settings)

    def on_position_editor_analyse_requested(
        self, message: PositionEditor.AnalyseRequested
    ) -> None:
        """Review the position set up at its last move (Esc there plays on from it)."""
        record = message.record
        self.games.open_record(record, review=True, base=message.settings, at=len(record.moves))

    # ----- the lobby -----------------------------------------------------------------

    def on_profile_screen_account_deleted(self, message: ProfileScreen.AccountDeleted) -> None:
        """The account was deleted from its profile: back to the menu, saying so.

        The lobby has nothing left to log in as (and does not try: BYE:deleted).
        """
        menu = next((s for s in self.screen_stack if isinstance(s, MenuScreen)), None)
        if menu is not None:
            menu.pop_until_active()
        self.notify(message.said, title="Account deleted", timeout=15, markup=False)

    async def action_quit(self) -> None:
        """Quit; mid-game, once the person says so (a local game is kept for next time).

        A Columns game under way asks too, as Connect Four's does (it is not kept).
        """
        game = self.games.unfinished_game()
        columns = screens.columns_under_way(self.screen_stack)
        if (game is None and not columns) or screens.is_confirm_dialog(self.screen):
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        if game is None:
            dialog = screens.quit_columns_dialog()
        else:
            dialog = screens.quit_dialog(remote=game.remote, visitor=self._visit is not None)
        self.push_screen(dialog, answered)


def keep_crash_report(folder: str, renderables: Sequence[object]) -> str:
    """Write what Textual would have printed into a file of ``folder``; how it went, in words."""
    try:
        path = Path(folder) / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as report:
            console = Console(file=report, width=100, color_system=None)
            for renderable in renderables:
                console.print(renderable)
    except OSError:
        return "the server could not keep its report"
    return "the server keeps a report of it"


def last_game_or(settings: MatchSettings) -> MatchSettings:
    """The choices of the game started last time (kept in the preferences), else ``settings``.

    Only the menu's choices come from the file: the AI's seed and pace stay ``settings``'.
    """
    last = load_preferences().last_game
    if last is None:
        return settings
    return replace(last, seed=settings.seed, ai_delay=settings.ai_delay)
