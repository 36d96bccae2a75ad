"""Every screen but the menu, built here: the one place the app loads modules late.

The menu loads with the app; each other screen is imported the first time it is
built (the game screen brings the board, records and the AI's hints; the lobby the
network protocols; help brings Markdown), so the menu's first frame comes sooner.
The saved games' store (which brings the match driver) waits here too.
tests/test_lazy_imports.py checks that the menu loads none of it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from c4tui.engine import Rules
from c4tui.match.backends import Backend
from c4tui.match.settings import MatchSettings
from c4tui.ui.servers import Servers

if TYPE_CHECKING:
    from c4tui.engine.setup import SetUp
    from c4tui.match.driver import MatchDriver
    from c4tui.match.pool import SearchPool
    from c4tui.match.settings import DriverFactory
    from c4tui.protocols.past import KeptGame
    from c4tui.protocols.ssh_visit import KeyVisit
    from c4tui.records import GameRecord
    from c4tui.ui.screens.columns import ColumnsScreen, ColumnsSetup
    from c4tui.ui.screens.confirm import ConfirmDialog
    from c4tui.ui.screens.connect import ConnectDialog
    from c4tui.ui.screens.game import ClearWay, GameScreen
    from c4tui.ui.screens.help import HelpScreen
    from c4tui.ui.screens.key_welcome import KeyWelcome
    from c4tui.ui.screens.lobby import LobbyScreen
    from c4tui.ui.screens.login import LoggedIn, LoginDialog
    from c4tui.ui.screens.open import OpenDialog
    from c4tui.ui.screens.past_review import PastGameReview
    from c4tui.ui.screens.position_editor import PositionEditor
    from c4tui.ui.screens.puzzles import PuzzleScreen

# ----- screens ---------------------------------------------------------------------------


def game_screen(
    driver: MatchDriver,
    settings: MatchSettings,
    *,
    ascii_only: bool,
    make_driver: DriverFactory,
    saves_last_until_quit: bool,
    review: GameRecord | None = None,
    review_at: int = 0,
    clear_way: ClearWay,
) -> GameScreen:
    """The game screen of ``driver``'s match (stepping through ``review``, if given).

    The review shows move ``review_at`` first.
    """
    from c4tui.ui.screens.game import GameScreen  # noqa: PLC0415

    return GameScreen(
        driver,
        settings,
        ascii_only=ascii_only,
        review=review,
        review_at=review_at,
        make_driver=make_driver,
        saves_last_until_quit=saves_last_until_quit,
        clear_way=clear_way,
    )


def confirm_dialog(question: str, verb: str) -> ConfirmDialog:
    """``question``, answered yes (``verb``) or no."""
    from c4tui.ui.screens.confirm import ConfirmDialog  # noqa: PLC0415

    return ConfirmDialog(question, verb)


def quit_dialog(*, remote: bool, visitor: bool) -> ConfirmDialog:
    """The question before quitting mid-game (what becomes of the game in it)."""
    from c4tui.ui.screens.confirm import confirm_quitting  # noqa: PLC0415

    return confirm_quitting(remote, visitor)


def quit_columns_dialog() -> ConfirmDialog:
    """The question before quitting a Columns game under way (which is not kept)."""
    from c4tui.ui.screens.confirm import confirm_quitting_columns  # noqa: PLC0415

    return confirm_quitting_columns()


def columns_under_way(screens: Iterable[object]) -> bool:
    """Whether a Columns game is being played among ``screens`` (without loading its screen)."""
    if "c4tui.ui.screens.columns" not in sys.modules:
        return False
    from c4tui.ui.screens.columns import ColumnsScreen  # noqa: PLC0415

    return any(isinstance(s, ColumnsScreen) and not s.session.over for s in screens)


def is_confirm_dialog(screen: object) -> bool:
    """True when ``screen`` is a yes-or-no question (without loading the dialog to see)."""
    if "c4tui.ui.screens.confirm" not in sys.modules:
        return False
    from c4tui.ui.screens.confirm import ConfirmDialog  # noqa: PLC0415

    return isinstance(screen, ConfirmDialog)


def connect_dialog(
    kind: type[Backend],
    values: Mapping[str, str],
    settings: MatchSettings,
    allowed: Servers | None,
    *,
    ascii_only: bool,
) -> ConnectDialog:
    """The dialog asking for ``kind``'s free-text options, for a game like ``settings``'."""
    from c4tui.ui.screens.connect import ConnectDialog  # noqa: PLC0415

    game: tuple[int, int, Rules] = (settings.columns, settings.rows, settings.rules)
    return ConnectDialog(kind, values, game, allowed=allowed, ascii_only=ascii_only)


def login_dialog(
    values: Mapping[str, str], allowed: Servers | None, *, ascii_only: bool
) -> LoginDialog:
    """The online lobby's log-in (or register) dialog."""
    from c4tui.ui.screens.login import LoginDialog  # noqa: PLC0415

    return LoginDialog(values, allowed=allowed, ascii_only=ascii_only)


def key_welcome(visit: KeyVisit, values: Mapping[str, str]) -> KeyWelcome:
    """An ssh visitor's way into the lobby: its key logs in, or makes an account."""
    from c4tui.ui.screens.key_welcome import KeyWelcome  # noqa: PLC0415

    return KeyWelcome(visit, values)


def lobby_screen(
    logged_in: LoggedIn,
    settings: MatchSettings,
    *,
    ascii_only: bool,
    saves_last_until_quit: bool,
    reconnect_delays: Sequence[float] | None = None,
    key_visit: bool = False,
) -> LobbyScreen:
    """The online lobby's rooms, once logged in (``reconnect_delays``: None, the client's).

    ``key_visit``: an ssh visitor's key logged in (``LobbyScreen``'s).
    """
    from c4tui.ui.screens.lobby import LobbyScreen  # noqa: PLC0415

    return LobbyScreen(
        logged_in,
        settings,
        ascii_only=ascii_only,
        saves_last_until_quit=saves_last_until_quit,
        reconnect_delays=reconnect_delays,
        key_visit=key_visit,
    )


def past_game_review(kept: KeptGame, viewer: str, *, ascii_only: bool) -> PastGameReview:
    """A game a lobby kept, reviewed from ``viewer``'s side (with the solver's verdicts)."""
    from c4tui.ui.screens.past_review import PastGameReview  # noqa: PLC0415

    return PastGameReview(kept, viewer, ascii_only=ascii_only)


def open_dialog(*, allow_files: bool) -> OpenDialog:
    """Choose a saved game, or paste a position as digits (files: not for a web visitor)."""
    from c4tui.ui.screens.open import OpenDialog  # noqa: PLC0415

    return OpenDialog(allow_files=allow_files)


def position_editor(
    settings: MatchSettings, setup: SetUp | None = None, *, ascii_only: bool
) -> PositionEditor:
    """The position editor on ``setup``'s board under ``settings``' rules.

    None: an empty board of ``settings``' size.
    """
    from c4tui.engine.setup import SetUp  # noqa: PLC0415
    from c4tui.ui.screens.position_editor import PositionEditor  # noqa: PLC0415

    if setup is None:
        setup = SetUp.empty(settings.columns, settings.rows, settings.rules)
    setup = replace(setup, rules=settings.rules)  # a picture shows no rules: the menu's
    return PositionEditor(setup, settings, ascii_only=ascii_only)


def help_screen() -> HelpScreen:
    """The rules and keys."""
    from c4tui.ui.screens.help import HelpScreen  # noqa: PLC0415

    return HelpScreen()


def puzzle_screen(pool: SearchPool | None, *, ascii_only: bool) -> PuzzleScreen:
    """Puzzles from the shipped set, with the player's record from the data folder.

    Raises OSError or ValueError when the shipped set is missing or broken (a broken
    record is no error: it is set aside, and the screen says so once).
    """
    from datetime import date  # noqa: PLC0415

    from c4tui.puzzles.collection import shipped_puzzles  # noqa: PLC0415
    from c4tui.puzzles.keeping import load_progress, save_progress  # noqa: PLC0415
    from c4tui.puzzles.session import PuzzleSession  # noqa: PLC0415
    from c4tui.ui.screens.puzzles import PuzzleScreen  # noqa: PLC0415

    progress, notice = load_progress()
    trainer = PuzzleSession(shipped_puzzles(), progress, date.today(), save_progress)
    return PuzzleScreen(trainer, pool=pool, notice=notice, ascii_only=ascii_only)


def columns_setup() -> ColumnsSetup:
    """The Columns game's setup: field size and starting level."""
    from c4tui.ui.screens.columns import ColumnsSetup  # noqa: PLC0415

    return ColumnsSetup()


def columns_screen(rows: int, columns: int, level: int) -> ColumnsScreen:
    """A game of Columns on a field of ``rows`` × ``columns``, from ``level``."""
    from c4tui.columns.play import ColumnsSession  # noqa: PLC0415
    from c4tui.ui.screens.columns import ColumnsScreen  # noqa: PLC0415

    return ColumnsScreen(ColumnsSession(rows, columns, level))


def unfinished_game_among(screens: Iterable[object]) -> GameScreen | None:
    """The first unfinished game among ``screens`` (none if no game screen was ever built)."""
    if "c4tui.ui.screens.game" not in sys.modules:
        return None  # no game was shown yet (and quitting should not load its screen)
    from c4tui.ui.screens.game import GameScreen  # noqa: PLC0415

    return next((s for s in screens if isinstance(s, GameScreen) and s.unfinished), None)


# ----- saved games -----------------------------------------------------------------------


def kept_game() -> GameRecord | None:
    """The unfinished game of the last run (None: there is none)."""
    from c4tui.records.store import unfinished_game  # noqa: PLC0415

    return unfinished_game()


def forget_kept_game() -> None:
    """The unfinished game of the last run is not wanted: it is not offered again."""
    from c4tui.records.store import keep_unfinished_soon  # noqa: PLC0415

    keep_unfinished_soon(None)


def settings_to_continue(record: GameRecord, base: MatchSettings) -> MatchSettings:
    """The settings to go on with ``record``'s game (``base`` fills in what it leaves out)."""
    from c4tui.match.record import settings_to_continue as continuing  # noqa: PLC0415

    return continuing(record, base)
