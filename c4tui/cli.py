"""The ``c4tui`` command line: one subcommand per front end or service."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from c4tui import __version__
from c4tui.console.game import ConsoleSettings, run_console
from c4tui.engine import MAX_SIZE, MIN_SIZE, Rules, parse_size
from c4tui.match.network import ServerAddress, login_name
from c4tui.match.settings import AI_LEVELS
from c4tui.protocols.common import DEFAULT_IDLE_TIMEOUT
from c4tui.protocols.i32cfsp import valid_username
from c4tui.server.core import ServerConfig, serve


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
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_console_command(commands)
    _add_serve_command(commands)
    return parser


def port_number(text: str) -> int:
    """argparse type for ports: a whole number 0-65535 (0: any free port)."""
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text!r}")
    return int(text)


def positive_number(text: str) -> float:
    """argparse type for counts and durations: a number above zero."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number above zero, not {text!r}")
    return value


def server_address(text: str) -> tuple[str, int]:
    """argparse type for --connect: ``HOST:PORT``."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"must be HOST:PORT (port 1-65535), not {text!r}")
    return host.strip("[]"), int(port)


def username(text: str) -> str:
    """argparse type for --user: what I32CFSP accepts (1-32 characters, no spaces)."""
    if not valid_username(text):
        raise argparse.ArgumentTypeError(
            f"must be 1-32 printable characters without spaces, not {text!r}"
        )
    return text


def _add_serve_command(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser(
        "serve",
        help="run a Connect Four server that players connect to (I32CFSP)",
        description=(
            "Run a Connect Four server: clients play against its AI over I32CFSP "
            "(I32CFSP_HELLO, AI_GAME, DROP/POP ...). Logs one line per connection "
            "to standard error. Stop it with Ctrl-C."
        ),
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; default %(default)s"
    )
    serve.add_argument(
        "--port",
        type=port_number,
        default=4444,
        help="port to listen on (0: any); default %(default)s",
    )
    serve.add_argument(
        "--ai",
        choices=[level.key for level in AI_LEVELS],
        default="random",
        help="the AI level the server plays with; default %(default)s",
    )
    serve.add_argument(
        "--max-connections",
        type=lambda text: int(positive_number(text)),
        default=1000,
        help="clients served at once; more are answered ERROR; default %(default)s",
    )
    serve.add_argument(
        "--idle-timeout",
        type=positive_number,
        default=DEFAULT_IDLE_TIMEOUT,
        help="seconds of client silence before hanging up; default %(default)s",
    )


def _add_console_command(commands: argparse._SubParsersAction) -> None:
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
        help=f"board width, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted)",
    )
    console.add_argument(
        "--rows",
        type=board_size,
        help=f"board height, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted)",
    )
    console.add_argument(
        "--rules",
        choices=[rules.value for rules in Rules],
        default=Rules.POPOUT.value,
        help="classic (drops only) or popout (you may also pop your own bottom disc); "
        "default: %(default)s",
    )
    console.add_argument(
        "--opponent",
        choices=["human", "random"],
        default="human",
        help="human: two players take turns at this keyboard; random: the computer plays "
        "YELLOW with random moves; default: %(default)s",
    )
    console.add_argument(
        "--seed", type=int, help="seed for the computer's random choices (repeatable games)"
    )
    console.add_argument(
        "--connect",
        type=server_address,
        metavar="HOST:PORT",
        help="play against the AI of an I32CFSP server (e.g. one started by `c4tui serve`); "
        "you are RED",
    )
    console.add_argument(
        "--user",
        type=username,
        default=None,
        help="your username on the server (default: your login name)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "console":
        settings = ConsoleSettings(
            columns=args.columns,
            rows=args.rows,
            rules=Rules(args.rules),
            opponent=args.opponent,
            seed=args.seed,
            server=ServerAddress(args.connect[0], args.connect[1], args.user or login_name())
            if args.connect
            else None,
        )
        return run_console(settings)
    if args.command == "serve":
        config = ServerConfig(
            host=args.host,
            port=args.port,
            ai=args.ai,
            max_connections=args.max_connections,
            idle_timeout=args.idle_timeout,
        )
        return serve(config)
    from c4tui.ui.app import C4App  # noqa: PLC0415 (Textual loads only when the app runs)

    C4App(ascii_only=args.ascii).run()
    return 0
