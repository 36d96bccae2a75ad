"""The ``c4tui`` command line: one subcommand per front end or service.

Only what the parser needs loads here: each command imports its own front end or
service when it runs, so ``c4tui --help`` and ``c4tui console`` never load Textual,
and the app's menu never loads the server or the protocols.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui import __version__
from c4tui.cli.solve import add_solve_command, run_solve
from c4tui.engine import (
    DEFAULT_COLUMNS,
    DEFAULT_ROWS,
    MAX_SIZE,
    MIN_SIZE,
    Player,
    Rules,
    parse_size,
)
from c4tui.match import ComputerBackend, MatchSettings, NetworkBackend, PersonBackend
from c4tui.match.backends.computer import LEVEL_OPTION
from c4tui.match.backends.network import CLIENT_PROTOCOLS
from c4tui.net.address import DEFAULT_PORT, parse_host_port, parse_port
from c4tui.numbers import ascii_digits, number_in_range
from c4tui.protocols.limits import DEFAULT_IDLE_TIMEOUT, MAX_ROOMS
from c4tui.server.limits import DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_PER_ADDRESS, DEFAULT_ROUNDS
from c4tui.storage import data_folder
from c4tui.web.limits import (
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MAX_SESSIONS,
    DEFAULT_WEB_PORT,
)

if TYPE_CHECKING:
    from c4tui.console.game import ConsoleSettings
    from c4tui.records import GameRecord

#: ``--opponent`` values: another person here, or the computer at each level.
LEVELS = [choice.value for choice in LEVEL_OPTION.choices]


def board_size(text: str) -> int:
    """argparse type for --columns/--rows: a whole number in the allowed range."""
    size = parse_size(text)
    if size is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {text!r}"
        )
    return size


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand (kept separate so tests can inspect it)."""
    parser = argparse.ArgumentParser(
        prog="c4tui",
        description="Connect Four (classic and Pop Out) for the terminal. Without a command, "
        "opens the full-screen app.",
    )
    parser.add_argument("--version", action="version", version=f"c4tui {__version__}")
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw the full-screen app with plain ASCII characters (for limited fonts)",
    )
    # How `c4tui web` starts each visitor's app (not for people: hidden from --help).
    parser.add_argument("--web-visitor", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--allow-server",
        type=server_address,
        action="append",
        default=[],
        dest="visitor_servers",
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--no-animation",
        action="store_true",
        help="no falling discs or smooth scrolling in the full-screen app",
    )
    _add_game_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_console_command(commands)
    _add_serve_command(commands)
    add_solve_command(commands)
    _add_replay_command(commands)
    _add_web_command(commands)
    _add_columns_command(commands)
    _add_tictactoe_command(commands)
    return parser


def _add_tictactoe_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tictactoe = commands.add_parser(
        "tictactoe",
        help="play tic-tac-toe in the rooms of an INFO1112 server (c4tui serve --tictactoe-port)",
        description="A plain-text client for tic-tac-toe servers of the INFO1112 assignment "
        "(and `c4tui serve --tictactoe-port`): log in or register, list, create and join rooms "
        "as a player or a viewer, play (a cell as column and row, 0-2, or as 1-9), forfeit. "
        "Type help once connected. Ctrl-D or Ctrl-C ends it.",
    )
    tictactoe.add_argument(
        "--connect",
        type=server_address,
        metavar="HOST:PORT",
        required=True,
        help="the tic-tac-toe server",
    )


def run_tictactoe(args: argparse.Namespace) -> int:
    """``c4tui tictactoe --connect HOST:PORT``: the console client."""
    from c4tui.console.tictactoe import run_tictactoe_client  # noqa: PLC0415 (only it needs it)

    host, port = args.connect
    return run_tictactoe_client(host, port)


def _add_columns_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    columns = commands.add_parser(
        "columns",
        help="Columns, the falling-jewels game (--shell: the ICS 32 handout's test shell)",
        description="Columns. With --shell, the handout's test shell, character for character: "
        "reads rows, columns, EMPTY or CONTENTS, then commands (a blank line, F c A B C, R, "
        "<, >, Q) and prints the field after each, with no prompts.",
    )
    columns.add_argument(
        "--shell", action="store_true", help="run the test shell on standard input and output"
    )


def run_columns(args: argparse.Namespace) -> int:
    """``c4tui columns``: the test shell (the game in the app is still to come)."""
    if not args.shell:
        print("c4tui columns: only --shell (the handout's test shell) exists yet", file=sys.stderr)
        return 2
    from c4tui.columns.shell import run_shell  # noqa: PLC0415 (only this command needs it)

    return run_shell()


def _add_web_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    web = commands.add_parser(
        "web",
        help="serve the app to web browsers (needs the web extra: pip install 'c4tui[web]')",
        description="Serve the full app to web browsers, one app process per visitor. Safe to "
        "expose: visitors reach no network server unless --allow-server names it, the number "
        "of visitors is capped, idle sessions end, and each session is logged in one line.",
    )
    web.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    web.add_argument(
        "--port", type=listening_port, default=DEFAULT_WEB_PORT, help="port (default: %(default)s)"
    )
    web.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, behind a proxy (default: http://HOST:PORT)",
    )
    web.add_argument(
        "--allow-server",
        metavar="HOST:PORT",
        type=server_address,
        action="append",
        default=[],
        help="a c4tui/I32CFSP/CFSP/C4N server visitors may play against (repeatable; "
        "without it the network modes are off)",
    )
    web.add_argument(
        "--max-sessions",
        type=whole_number,
        default=DEFAULT_MAX_SESSIONS,
        help="visitors at once; more get a 'full' page (default: %(default)s)",
    )
    web.add_argument(
        "--idle-minutes",
        type=seconds,
        default=DEFAULT_IDLE_SECONDS / 60,
        help="minutes without a key or click before a session ends (default: %(default)g)",
    )


def run_web(args: argparse.Namespace) -> int:
    """``c4tui web``: serve the app, if textual-serve is installed."""
    try:
        from c4tui.web.server import serve_web  # noqa: PLC0415 (an optional extra)
    except ImportError as error:
        print(
            f"c4tui web needs the web extra ({error.name} is missing): "
            "python3 -m pip install 'c4tui[web]'",
            file=sys.stderr,
        )
        return 2
    from c4tui.web.config import WebConfig  # noqa: PLC0415 (only this command needs it)

    config = WebConfig(
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        allowed_servers=tuple(args.allow_server),
        max_sessions=args.max_sessions,
        idle_seconds=args.idle_minutes * 60,
    )
    return serve_web(config)


def _add_replay_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser(
        "replay",
        help="step through a saved game in the app (and play on from any move)",
        description="Open a game record (saved with s in the app) or a solver's digit string "
        "(4453...: 1-based columns, 7 x 6 classic) in the app's review mode: left and right "
        "step through the moves, Home and End jump, c plays on from the move shown.",
    )
    replay.add_argument("game", metavar="FILE|DIGITS", help="a .c4g record, or digits")


@contextlib.contextmanager
def visitor_data_folder() -> Iterator[None]:
    """A web visitor's own data folder, gone when the visit ends.

    Visitors never see each other's saved or unfinished games, nor the host's.
    """
    visitors = data_folder() / "web-visitors"
    visitors.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(dir=visitors)
    os.environ["XDG_DATA_HOME"] = folder
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def read_game(text: str) -> GameRecord:
    """The record in file ``text``, or the game its digits spell; RecordError if neither."""
    from c4tui.records import RecordError, parse_record  # noqa: PLC0415 (only replay needs it)
    from c4tui.records.store import read_record  # noqa: PLC0415

    path = Path(text).expanduser()
    if path.is_file():
        return read_record(path)
    if ascii_digits(text.strip()):
        return parse_record(text)
    raise RecordError(f"no such file: {text}")


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
    game.add_argument(
        "--rules", choices=[rules.value for rules in Rules], help="classic (default) or popout"
    )
    add_opponent_options(game, default_opponent=None, default_colour=None)


def add_opponent_options(
    parser: argparse._ActionsContainer, default_opponent: str | None, default_colour: str | None
) -> None:
    """``--opponent`` and ``--color``, for the app and the console alike."""
    parser.add_argument(
        "--opponent",
        choices=[PersonBackend.key, *LEVELS],
        default=default_opponent,
        help=f"{PersonBackend.key}: two players take turns at this keyboard (the default); "
        f"{', '.join(LEVELS)}: the computer at that level",
    )
    parser.add_argument(
        "--color",
        "--colour",
        dest="colour",
        choices=["red", "yellow"],
        default=default_colour,
        help="your colour against the computer (red, the default, moves first)",
    )


def opponent_choice(name: str | None) -> tuple[str, dict[str, str]]:
    """``--opponent``'s value as a registry key and its options."""
    if name is None or name == PersonBackend.key:
        return PersonBackend.key, {}
    return ComputerBackend.key, {LEVEL_OPTION.key: name}


def app_settings(args: argparse.Namespace) -> tuple[MatchSettings, bool]:
    """The menu's first choices from the command line, and whether to open the game at once."""
    given = [args.columns, args.rows, args.rules, args.opponent, args.colour]
    opponent, options = opponent_choice(args.opponent)
    settings = MatchSettings(
        opponent=opponent,
        options=options,
        columns=args.columns or DEFAULT_COLUMNS,
        rows=args.rows or DEFAULT_ROWS,
        rules=Rules(args.rules or Rules.CLASSIC.value),
        person_colour=Player.YELLOW if args.colour == "yellow" else Player.RED,
    )
    return settings, any(value is not None for value in given)


def listening_port(text: str) -> int:
    """argparse type for ``serve --port``: 0-65535 (0: any free port)."""
    try:
        return parse_port(text, allow_any=True)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a port number from 0 to 65535 (0: any free port), not {text!r}"
        ) from None


def whole_number(text: str) -> int:
    """argparse type for counts: a whole number of at least 1 (not 0.5, not inf)."""
    number = number_in_range(text.strip(), 1, 10**9 - 1)
    if number is None:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return number


def seconds(text: str) -> float:
    """argparse type for durations: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above zero, not {text!r}")
    return value


def seed_number(text: str) -> int:
    """argparse type for --seed: any whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def server_address(text: str) -> tuple[str, int]:
    """argparse type for --connect: ``HOST:PORT``."""
    try:
        return parse_host_port(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be HOST:PORT with a port from 1 to 65535, not {text!r}"
        ) from None


def username(text: str) -> str:
    """argparse type for --user: what I32CFSP accepts."""
    from c4tui.protocols.i32cfsp import USERNAME_RULE, valid_username  # noqa: PLC0415

    if not valid_username(text):
        raise argparse.ArgumentTypeError(f"must be {USERNAME_RULE}, not {text!r}")
    return text


def _add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve",
        help="run a Connect Four server that players connect to (I32CFSP, CFSP, C4N)",
        description=(
            "Run a Connect Four server: clients play against its AI in any of three "
            "protocols on the same port, told apart by their first bytes: I32CFSP "
            "(I32CFSP_HELLO ...), CFSP (GAME rows columns ...) and C4N (C4N 1.0 START); and a "
            "lobby where people play each other in rooms, with viewers (LOGIN:/REGISTER:); "
            "with --tictactoe-port, tic-tac-toe rooms for INFO1112 clients on a second port. "
            "Logs one line per connection to standard error. Stop it with Ctrl-C."
        ),
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; default %(default)s"
    )
    serve.add_argument(
        "--port",
        type=listening_port,
        default=DEFAULT_PORT,
        help="port to listen on (0: any); default %(default)s",
    )
    serve.add_argument(
        "--tictactoe-port",
        type=listening_port,
        metavar="PORT",
        help="also serve tic-tac-toe rooms on PORT (0: any), in the INFO1112 assignment's "
        "protocol, for its clients and `c4tui tictactoe`; accounts are the lobby's",
    )
    serve.add_argument(
        "--ai",
        choices=LEVELS,
        default=LEVEL_OPTION.default_value(),
        help="the AI level the server plays with; default %(default)s",
    )
    serve.add_argument(
        "--max-connections",
        type=whole_number,
        default=DEFAULT_MAX_CONNECTIONS,
        help="clients served at once; more are refused (ERROR); default %(default)s",
    )
    serve.add_argument(
        "--max-per-address",
        type=whole_number,
        default=DEFAULT_MAX_PER_ADDRESS,
        help="clients served at once from one address (IPv6: one /64), so one machine "
        "cannot take every slot; default %(default)s",
    )
    serve.add_argument(
        "--idle-timeout",
        type=seconds,
        default=DEFAULT_IDLE_TIMEOUT,
        help="seconds of client silence before hanging up; default %(default)s",
    )
    serve.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="the lobby's account database (SQLite; created if missing); "
        "default: accounts.sqlite3 in your user data directory",
    )
    serve.add_argument(
        "--max-rooms",
        type=whole_number,
        default=MAX_ROOMS,
        metavar="N",
        help="rooms the lobby holds at once; default %(default)s (the protocol's limit: "
        "raise it only for clients that allow more)",
    )
    serve.add_argument(
        "--bcrypt-rounds",
        type=int,
        choices=range(4, 16),
        default=DEFAULT_ROUNDS,
        metavar="4-15",
        help="the cost of hashing passwords (log2); default %(default)s. Lower it only for "
        "tests and benchmarks: it is what makes stolen hashes slow to crack",
    )
    serve.add_argument(
        "--ai-first",
        action="store_true",
        help="in C4N the AI drops the first disc, as the reference C4N server does "
        "(I32CFSP and CFSP clients always move first)",
    )


def _add_console_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    console = commands.add_parser(
        "console",
        help="play in plain text, line by line (scripts, screen readers, dumb terminals)",
        description=(
            "Play Connect Four in plain text. Each turn the board and whose turn it is are "
            "printed; type a column number (3 or d 3) to drop a disc, p 3 to pop your own "
            "disc out of the bottom of column 3 (Pop Out rules). Ctrl-D ends the game."
        ),
    )
    console.add_argument(
        "--columns",
        type=board_size,
        help=f"board width, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted; 7 with --connect)",
    )
    console.add_argument(
        "--rows",
        type=board_size,
        help=f"board height, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted; 6 with --connect)",
    )
    console.add_argument(
        "--rules",
        choices=[rules.value for rules in Rules],
        help="classic (drops only) or popout (you may also pop your own bottom disc); "
        f"default: {Rules.POPOUT.value} (with --connect: what the protocol plays)",
    )
    add_opponent_options(console, default_opponent=PersonBackend.key, default_colour="red")
    console.add_argument(
        "--seed", type=seed_number, help="seed for the computer's random choices (repeatable games)"
    )
    console.add_argument(
        "--connect",
        type=server_address,
        metavar="HOST:PORT",
        help="play against the AI of a server (e.g. one started by `c4tui serve`); you are RED",
    )
    console.add_argument(
        "--protocol",
        choices=list(CLIENT_PROTOCOLS),
        default=next(iter(CLIENT_PROTOCOLS)),
        help="what the --connect server speaks: "
        + "; ".join(f"{key}: {game.summary}" for key, game in CLIENT_PROTOCOLS.items())
        + " Default: %(default)s",
    )
    console.add_argument(
        "--lobby",
        type=server_address,
        metavar="HOST:PORT",
        help="play and watch people in the rooms of a lobby server (c4tui serve); "
        "needs --user; the password is asked without echo (a script gives it as the first line)",
    )
    console.add_argument(
        "--register",
        action="store_true",
        help="with --lobby: create the account first",
    )
    console.add_argument(
        "--user",
        type=username,
        default=None,
        help="your username on the server (default: your login name)",
    )


def console_settings(args: argparse.Namespace) -> ConsoleSettings:
    """What ``c4tui console``'s options ask for, as registry names and option values.

    Raises ValueError when the options ask for a game the chosen protocol cannot play.
    """
    from c4tui.console.game import ConsoleSettings  # noqa: PLC0415 (only the console needs it)

    opponent, options = opponent_choice(args.opponent)
    columns, rows = args.columns, args.rows
    rules = Rules(args.rules or Rules.POPOUT.value)
    if args.connect is not None:
        host, port = args.connect
        user = args.user or NetworkBackend.option_values({})["user"]
        opponent = NetworkBackend.key
        options = {"host": host, "port": str(port), "user": user, "protocol": args.protocol}
        columns, rows, rules = network_game(options, columns, rows, args.rules)
    return ConsoleSettings(
        columns=columns,
        rows=rows,
        rules=rules,
        opponent=opponent,
        options=options,
        person_colour=Player.YELLOW if args.colour == "yellow" else Player.RED,
        seed=args.seed,
    )


def network_game(
    options: dict[str, str], columns: int | None, rows: int | None, rules: str | None
) -> tuple[int, int, Rules]:
    """The game to ask a server for: what was asked, within what its protocol plays.

    Unset values take the protocol's (or the usual) defaults; a value set on the
    command line that the protocol cannot play is a ValueError saying so.
    """
    wanted = (columns or 7, rows or 6, Rules(rules or Rules.POPOUT.value))
    game = NetworkBackend.game_for(options, *wanted)
    asked = (columns, rows, Rules(rules) if rules else None)
    if any(value is not None and value != got for value, got in zip(asked, game, strict=True)):
        raise ValueError(NetworkBackend.game_note(options))
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "console":
        return run_console_command(parser, args)
    simple = {
        "solve": run_solve,
        "web": run_web,
        "columns": run_columns,
        "tictactoe": run_tictactoe,
    }
    if args.command in simple:
        return simple[args.command](args)
    if args.command == "serve":
        from c4tui.server.core import ServerConfig, serve  # noqa: PLC0415 (only serve needs it)

        config = ServerConfig(
            host=args.host,
            port=args.port,
            ai=args.ai,
            max_connections=args.max_connections,
            max_per_address=args.max_per_address,
            idle_timeout=args.idle_timeout,
            ai_first=args.ai_first,
            db=args.db,
            bcrypt_rounds=args.bcrypt_rounds,
            max_rooms=args.max_rooms,
            tictactoe_port=args.tictactoe_port,
        )
        return serve(config)
    review = None
    if args.command == "replay":
        from c4tui.records import RecordError  # noqa: PLC0415 (only replay needs it)

        try:
            review = read_game(args.game)
        except RecordError as error:
            parser.exit(2, f"c4tui replay: error: {error}\n")
    with visitor_data_folder() if args.web_visitor else contextlib.nullcontext():
        return run_app(args, review)


def run_console_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``c4tui console``: a game in plain text, or a lobby's rooms with ``--lobby``."""
    if args.lobby is not None:
        from c4tui.console.lobby import LobbySettings, run_lobby  # noqa: PLC0415
        from c4tui.protocols.lobby import USER_RULE, valid_user  # noqa: PLC0415

        if args.user is None or not valid_user(args.user):
            parser.exit(2, f"c4tui console: error: --lobby needs --user NAME ({USER_RULE})\n")
        host, port = args.lobby
        return run_lobby(LobbySettings(host, port, args.user, args.register))
    from c4tui.console.game import run_console  # noqa: PLC0415

    try:
        settings = console_settings(args)
    except ValueError as error:
        parser.exit(2, f"c4tui console: error: {error}\n")
    return run_console(settings)


#: Textual draws at most this many frames a second (its own default is 60). A key that
#: comes just after a frame, during the drop animation or while news is drawn, waits for
#: the next one: at 60 that alone could take 17 ms, more than the frame we allow a key.
FRAMES_PER_SECOND = 120


def use_frame_rate() -> None:
    """Set Textual's frame cap (unless the environment sets it), before Textual loads."""
    os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))


def run_app(args: argparse.Namespace, review: GameRecord | None) -> int:
    """The full-screen app, as the command line asked."""
    # No garbage collection until the first frame (the app turns it back on then): the
    # collections of a start that only allocates take ~10% of the time to the menu.
    gc.disable()
    use_frame_rate()
    from c4tui.ui.app import C4App  # noqa: PLC0415 (Textual loads only when the app runs)

    first_choice, straight_in = app_settings(args)
    C4App(
        first_choice,
        ascii_only=args.ascii,
        start_at_once=straight_in,
        review=review,
        animate=not args.no_animation,
        visitor_servers=tuple(args.visitor_servers) if args.web_visitor else None,
    ).run()
    return 0
