"""The app's games: started from the menu or a record, and one left for the menu under Resume.

A game left for the menu keeps going behind it (its screen installed under a name),
and the unfinished game of the last run waits under Resume too; starting another
game gives them up, once the person says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.app import App

from c4tui.engine import C4Error, Move
from c4tui.match.backends import picked_in_menu
from c4tui.match.settings import MatchSettings
from c4tui.ui import screen_factory as screens
from c4tui.ui.preferences import load_preferences, remember_game, remember_login
from c4tui.ui.servers import Visit

if TYPE_CHECKING:
    from c4tui.match.driver import MatchDriver
    from c4tui.match.settings import DriverFactory
    from c4tui.records import GameRecord
    from c4tui.ui.screens.game import GameScreen
    from c4tui.ui.screens.login import LoggedIn


#: The name under which a game left for the menu waits (installed screens stay alive).
SUSPENDED = "suspended-game"


class Games:
    """Opens the app's games on ``app``, and keeps the one left for the menu.

    Args:
        app: the app the game screens and dialogs are shown on.
        initial_settings: what a saved game's settings fall back to.
        make_driver: builds the driver of a match (settings, moves already played).
        ascii_only: draw with ASCII characters only.
        visit: a browser visitor's limits (None: not served to a browser).
        reconnect_delays: seconds before each try to come back to a lost lobby (None:
            the client's own backoff; tests make them short).
    """

    def __init__(
        self,
        app: App[None],
        initial_settings: MatchSettings,
        make_driver: DriverFactory,
        *,
        ascii_only: bool,
        visit: Visit | None,
        reconnect_delays: Sequence[float] | None = None,
    ) -> None:
        self._app = app
        self._reconnect_delays = reconnect_delays
        self._initial_settings = initial_settings
        self._make_driver = make_driver
        self._ascii_only = ascii_only
        self._visit = visit
        self._allowed = visit.servers if visit else None
        #: What was typed in each kind's connect dialog, offered again next time.
        self._typed: dict[str, dict[str, str]] = {}
        #: A game left for the menu, waiting under Resume.
        self._suspended: GameScreen | None = None
        #: The unfinished game of the last run, offered under Resume (read on mount).
        self.kept: GameRecord | None = None
        #: The settings of the game last played here (a rematch's colours too); the menu
        #: shows them when you come back. None: no game yet.
        self.current: MatchSettings | None = None
        #: Whether games started are kept for the next start's menu (not a visitor's).
        self._remembers = visit is None

    # ----- a game left for the menu --------------------------------------------------

    def make_driver(self, settings: MatchSettings, history: Sequence[Move] = ()) -> MatchDriver:
        """The driver of a match with ``settings``, ``history`` already played."""
        return self._make_driver(settings, history)

    def _playing(self, settings: MatchSettings) -> None:
        """A game with ``settings`` starts: the menu follows it, and the next start offers it."""
        self.current = settings
        if self._remembers:
            self._keep(lambda: remember_game(settings), "The game's choices")

    def _keep(self, write: Callable[[], None], what: str) -> None:
        """Write a preference; if it cannot be written, say so (and play on)."""
        try:
            write()
        except OSError as error:
            self._app.notify(f"{what} could not be kept: {error}", severity="warning", markup=False)

    def _follow_up_driver(
        self, settings: MatchSettings, history: Sequence[Move] = ()
    ) -> MatchDriver:
        """The driver of a game that follows another (a rematch, playing on from a review)."""
        self._playing(settings)
        return self.make_driver(settings, history)

    def suspend_game(self, screen: GameScreen) -> None:
        """Keep ``screen``'s game going behind the menu, to come back to with Resume.

        A second Esc pressed before the first's message arrived asks again: once is enough.
        """
        if self._suspended is screen:
            return
        self._app.install_screen(screen, SUSPENDED)
        self._suspended = screen
        screen.dismiss(None)

    def resumable(self) -> str | None:
        """What Resume would bring back, in words (None: nothing)."""
        if self._suspended is not None:
            return f"Your game: {self._suspended.settings.describe()}".replace("\n", ", ")
        if self.kept is not None:
            moves = len(self.kept.moves)
            counted = "1 move" if moves == 1 else f"{moves} moves"
            return f"Your unfinished game from last time ({counted})"
        return None

    def resume(self) -> None:
        """Back to the game left for the menu, or the unfinished game of the last run."""
        screen = self._suspended
        if screen is not None:
            self._suspended = None
            self._app.uninstall_screen(SUSPENDED)
            self._app.push_screen(screen)
        elif self.kept is not None:
            record, self.kept = self.kept, None
            self.open_record(record, review=False)

    def _give_up_unfinished(self) -> None:
        """A new game starts: the game behind the menu and last time's kept one go.

        Only here, when the game that replaces them starts (every way to one asked first,
        in ``_after_giving_up``): a yes followed by Esc in the next dialog gives up nothing.
        The game behind the menu is stopped, and neither is offered again.
        """
        screen, self._suspended = self._suspended, None
        if screen is not None:
            self._app.uninstall_screen(SUSPENDED)
            screen.forget()
            screen.remove()  # its seats close as it unmounts
        if self.kept is not None:
            self.kept = None
            screens.forget_kept_game()

    def unfinished_game(self) -> GameScreen | None:
        """The game that quitting would end: the one on screen or the one behind the menu."""
        return screens.unfinished_game_among([self._suspended, *self._app.screen_stack])

    # ----- games from records --------------------------------------------------------

    def open_record(
        self, record: GameRecord, review: bool, base: MatchSettings | None = None, at: int = 0
    ) -> None:
        """Open a saved game: to step through (``review``, from move ``at``), or to play on.

        Playing on starts at its end. Stepping through touches no other game: only
        playing on from it asks first.
        """
        if review:
            self._open_record(record, review, base, at)
            return
        self._after_giving_up(
            lambda: self._open_record(record, review, base), "Open this game", "Open"
        )

    def _open_record(
        self, record: GameRecord, review: bool, base: MatchSettings | None, at: int = 0
    ) -> None:
        settings = screens.settings_to_continue(record, base or self._initial_settings)
        if self._visit is not None:
            settings = self._visit.playable(settings)
        try:
            driver = self.make_driver(settings, record.moves)
        except (C4Error, KeyError) as error:
            self._app.notify(
                str(error), title="This game cannot be opened", severity="error", markup=False
            )
            return
        if not review:
            self.current = settings
            self._give_up_unfinished()
        screen = self._game_screen(driver, settings, record if review else None, review_at=at)
        self._app.push_screen(screen)

    def start_match(self, settings: MatchSettings, *, ask: bool = True) -> None:
        """Start a game with ``settings``; a game waiting behind the menu is given up first.

        ``ask``: the opponent's typed options are asked in a dialog (not when the
        command line gave them).
        """
        self._after_giving_up(
            lambda: self._start_match(settings, ask), "Start a new game", "New game"
        )

    def _clear_way_to_play_on(self, then: Callable[[], None], declined: Callable[[], None]) -> None:
        """A saved game being reviewed plays on: ``then`` once the others are given up."""

        def play_on() -> None:
            self._give_up_unfinished()
            then()

        self._after_giving_up(play_on, "Play on from this game", "Play on", declined)

    def _after_giving_up(
        self,
        then: Callable[[], None],
        doing: str,
        verb: str,
        declined: Callable[[], None] | None = None,
    ) -> None:
        """Run ``then`` once the person agrees to give up the unfinished game, if any.

        That is the game behind the menu, or the one kept from the last run (which the
        new game would replace as the one offered next time); it goes when ``then``'s
        game starts (``_give_up_unfinished``), not before. ``declined`` runs if the
        person keeps them.
        """
        if self._suspended is not None:
            question = f"{doing}? The game you left is not finished."
        elif self.kept is not None:
            question = f"{doing}? Your unfinished game from last time will be gone."
        else:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()  # which gives them up if and when its game starts
            elif declined is not None:
                declined()

        self._app.push_screen(screens.confirm_dialog(question, verb), answered)

    def _start_match(self, settings: MatchSettings, ask: bool = True) -> None:
        """Opponents with free-text options ask for them first (unless ``ask`` is False)."""
        self._playing(settings)
        kind = settings.kind
        if kind.lobby:
            self._open_lobby(settings)
            return
        if picked_in_menu(kind):
            self._open_game(settings)
            return
        if not ask:  # the command line gave its options: no dialog
            fitted = settings.fitted()
            if fitted != settings:
                self._app.notify(kind.game_note(settings.options), markup=False)
            self._connect_dialog_closed(settings, {})
            return
        values = {**settings.options, **self._typed.get(kind.key, {})}
        dialog = screens.connect_dialog(
            kind, values, settings, self._allowed, ascii_only=self._ascii_only
        )
        self._app.push_screen(dialog, lambda typed: self._connect_dialog_closed(settings, typed))

    def _connect_dialog_closed(self, settings: MatchSettings, typed: dict[str, str] | None) -> None:
        """The dialog closed: play with what was typed (or stay in the menu)."""
        if typed is None:
            return
        self._typed[settings.opponent] = typed
        kept = {
            option.key for option in settings.kind.options if option.remembered or option.choices
        }
        self._playing(replace(settings, options={**settings.options, **_only(typed, kept)}))
        self._open_game(replace(settings, options={**settings.options, **typed}).fitted())

    def _open_lobby(self, settings: MatchSettings) -> None:
        """Online: log in first, then the lobby's rooms.

        The dialog offers what was typed last (this run's, else the last run's that logged
        in, kept without its password), under what the command line gave.
        """
        remembered = load_preferences().login if self._remembers else {}
        values = {**remembered, **settings.options, **self._typed.get(settings.opponent, {})}

        def logged_in(outcome: LoggedIn | None) -> None:
            if outcome is not None:
                self._give_up_unfinished()  # the lobby's games replace them
                self._typed[settings.opponent] = outcome.values
                if self._remembers:
                    self._keep(lambda: remember_login(outcome.values), "Where you logged in")
                self._app.push_screen(
                    screens.lobby_screen(
                        outcome,
                        settings,
                        ascii_only=self._ascii_only,
                        saves_last_until_quit=self._allowed is not None,
                        reconnect_delays=self._reconnect_delays,
                        key_visit=self._visit is not None and self._visit.key is not None,
                    )
                )

        if self._visit is not None and self._visit.key is not None:  # ssh: the key logs in
            self._app.push_screen(screens.key_welcome(self._visit.key, values), logged_in)
            return
        self._app.push_screen(
            screens.login_dialog(values, self._allowed, ascii_only=self._ascii_only), logged_in
        )

    def _open_game(self, settings: MatchSettings) -> None:
        self.current = settings  # with what the connect dialog decided
        self._give_up_unfinished()
        caution = settings.kind.caution(settings.options)
        if caution:
            self._app.notify(caution, severity="warning", markup=False, timeout=10)
        self._app.push_screen(self._game_screen(self.make_driver(settings), settings))

    def _game_screen(
        self,
        driver: MatchDriver,
        settings: MatchSettings,
        review: GameRecord | None = None,
        review_at: int = 0,
    ) -> GameScreen:
        """The screen of ``driver``'s game, with what it needs from here given, not fetched."""
        return screens.game_screen(
            driver,
            settings,
            ascii_only=self._ascii_only,
            review=review,
            review_at=review_at,
            make_driver=self._follow_up_driver,
            saves_last_until_quit=self._allowed is not None,
            clear_way=self._clear_way_to_play_on,
        )


def _only(values: dict[str, str], keys: set[str]) -> dict[str, str]:
    """The entries of ``values`` under ``keys``."""
    return {key: value for key, value in values.items() if key in keys}
