"""``c4tui`` with no command: the full-screen app, at its menu or straight in a game.

Its options are the top-level parser's own. ``open_app`` is where Textual loads (and
the only place): ``replay`` opens the app through it too.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import functools
import gc
import os
import shutil
import signal
import termios
from collections.abc import Iterator
from typing import TYPE_CHECKING

from c4tui.cli.choices import (
    RULES,
    add_opponent_options,
    colour_refusal,
    opponent_choice,
    person_colour,
    seconds_refusal,
)
from c4tui.cli.types import board_size, server_address, usage_error
from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, MAX_SIZE, MIN_SIZE, Rules
from c4tui.match.settings import MatchSettings
from c4tui.storage import new_visitor_folder

if TYPE_CHECKING:
    from c4tui.protocols.past import KeptGame
    from c4tui.protocols.ssh_visit import KeyVisit
    from c4tui.records import GameRecord

#: Textual draws at most this many frames a second (its own default is 60). A key that
#: comes just after a frame, during the drop animation or while news is drawn, waits for
#: the next one: at 60 that alone could take 17 ms, more than the frame we allow a key.
FRAMES_PER_SECOND = 120


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The app's options, on the top-level parser (``c4tui --ascii``, ``c4tui --columns 9``)."""
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw the full-screen app with plain ASCII characters (for limited fonts)",
    )
    # How `c4tui web` starts each visitor's app (not for people: hidden from --help).
    parser.add_argument("--web-visitor", action="store_true", help=argparse.SUPPRESS)
    # How `c4tui serve --ssh-port` starts each visitor's app (its door's environment says the rest).
    parser.add_argument("--ssh-visitor", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--allow-server",
        type=server_address,
        action="append",
        default=[],
        dest="visitor_servers",
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--puzzles",
        action="store_true",
        help="open the full-screen app at its puzzles (find the winning move; Esc: the menu)",
    )
    parser.add_argument(
        "--no-animation",
        action="store_true",
        help="no falling discs or smooth scrolling in the full-screen app",
    )
    _add_game_options(parser)
    parser.set_defaults(run=run)


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    """The menu's choices, to open the app straight into a game (the menu is Esc away)."""
    game = parser.add_argument_group(
        "straight into a game", "any of these opens the app in a game with those choices"
    )
    game.add_argument(
        "--columns", type=board_size, help=f"board width, {MIN_SIZE}-{MAX_SIZE} (default 7)"
    )
    game.add_argument(
        "--rows", type=board_size, help=f"board height, {MIN_SIZE}-{MAX_SIZE} (default 6)"
    )
    game.add_argument("--rules", choices=RULES, help="classic (default) or popout")
    add_opponent_options(game, default_opponent=None, default_colour=None)


def run(args: argparse.Namespace) -> int:
    """``c4tui [options]``: the app, at the menu or in the game the options chose."""
    return open_app(args)


def app_settings(args: argparse.Namespace) -> tuple[MatchSettings, bool]:
    """The menu's first choices from the command line, and whether to open the game at once."""
    refusal = seconds_refusal(args.opponent, args.seconds) or colour_refusal(
        args.colour, args.opponent
    )
    if refusal is not None:
        usage_error("", refusal)
    given = [args.columns, args.rows, args.rules, args.opponent, args.colour, args.clock]
    opponent, options = opponent_choice(args.opponent, args.seconds)
    settings = MatchSettings(
        opponent=opponent,
        options=options,
        columns=args.columns or DEFAULT_COLUMNS,
        rows=args.rows or DEFAULT_ROWS,
        rules=Rules(args.rules or Rules.CLASSIC.value),
        person_colour=person_colour(args.colour),
        clock=args.clock,
    )
    return settings, any(value is not None for value in given)


def open_app(
    args: argparse.Namespace,
    *,
    review: GameRecord | None = None,
    past_game: tuple[KeptGame, str] | None = None,
    start_columns: bool = False,
) -> int:
    """Run the full-screen app as the top-level options ask.

    ``review`` opens a game record, ``past_game`` a game a lobby kept (seen by a player),
    ``start_columns`` the Columns game (``c4tui columns``).

    A web visitor's app runs in a data folder of its own from the start. Textual loads
    here, and only here, after its frame rate is set (it reads it once, on import).
    """
    visit = ssh_visit() if args.ssh_visitor else None
    visiting = args.web_visitor or visit is not None
    with visitor_data_folder() if visiting else contextlib.nullcontext():
        # No garbage collection until the first frame: a start only allocates, and its
        # collections cost 90 M of the 1,420 M instructions to the menu's first frame
        # (callgrind, bench/startup.py's menu, 2026-11-26: ~60 ms at the minimal app's
        # pace). The app turns collection back on when ready, freezing what the start made.
        gc.disable()
        use_frame_rate()
        from c4tui.ui.app import C4App  # noqa: PLC0415 (Textual loads only when the app runs)

        first_choice, straight_in = app_settings(args)
        C4App(
            first_choice,
            ascii_only=args.ascii,
            start_at_once=straight_in,
            review=review,
            past_game=past_game,
            start_columns=start_columns,
            start_puzzles=args.puzzles,
            animate=not args.no_animation,
            visitor_servers=tuple(args.visitor_servers) if args.web_visitor else None,
            key_visit=visit,
        ).run()
    return 0


def ssh_visit() -> KeyVisit:
    """An ssh visitor's app: its terminal made its own, the visit its door described.

    The door starts the app in a session of its own on a new pseudo-terminal; making
    that terminal the session's controlling one is what lets the kernel tell the app
    of a resize (SIGWINCH), and end it when the visit hangs up (SIGHUP).
    """
    from c4tui.protocols.ssh_visit import KeyVisit  # noqa: PLC0415 (no Textual: plain values)

    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    return KeyVisit.from_env(os.environ)


def use_frame_rate() -> None:
    """Set Textual's frame cap (unless the environment sets it), before Textual loads."""
    os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))


@contextlib.contextmanager
def visitor_data_folder() -> Iterator[None]:
    """A web or ssh visitor's own data and settings folder, gone when the visit ends.

    Visitors never see each other's saved or unfinished games, screenshots or theme, nor
    the host's. An ssh visit ends with a hang-up (SIGHUP: the door's, or the terminal's
    when the server dies): the folder goes then too.
    """
    folder = str(new_visitor_folder())
    os.environ["XDG_DATA_HOME"] = folder
    os.environ["XDG_CONFIG_HOME"] = folder
    hung_up = signal.signal(signal.SIGHUP, functools.partial(_hang_up, folder))
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, hung_up)
        shutil.rmtree(folder, ignore_errors=True)


def _hang_up(folder: str, signum: int, frame: object) -> None:
    """The visit's terminal is gone: its folder goes, and so does the app, at once."""
    shutil.rmtree(folder, ignore_errors=True)
    os._exit(128 + signum)
