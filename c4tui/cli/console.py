"""``c4tui console``: Connect Four in plain text, line by line.

Against a person, the computer, a server's AI (``--connect``) or the people in a
lobby's rooms (``--lobby``).
"""

from __future__ import annotations

import argparse
import sys

from c4tui.cli.choices import (
    RULES,
    add_opponent_options,
    clock_refusal,
    colour_refusal,
    opponent_choice,
    person_colour,
    seconds_refusal,
)
from c4tui.cli.tls import add_tls_options, client_tls
from c4tui.cli.types import (
    CommandTable,
    board_size,
    number_from,
    server_address,
    signed_number,
    usage_error,
    username,
)
from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, MAX_SIZE, MIN_SIZE, Rules
from c4tui.match.backends import NetworkBackend, PersonBackend
from c4tui.match.backends.network import CLIENT_PROTOCOLS
from c4tui.protocols.names import USER_RULE, valid_user

#: The exit statuses, for ``--help`` (3 is ``console.game.SERVER_LOST``; a test holds them equal).
EXIT_STATUSES = (
    "Exit status: 0 the game or the session ended; 1 a problem (a refused login, a server "
    "that broke its protocol); 2 a usage error; 3 the server closed the connection (or went "
    "away) during the game, with the reason said; 130 Ctrl-C."
)

#: The rules when ``--rules`` is not given: the app's, so both start the same game.
DEFAULT_RULES = Rules.CLASSIC


def add_parser(commands: CommandTable) -> None:
    """Register ``console``, its options and its ``run``."""
    console = commands.add_parser(
        "console",
        description=(
            "Play Connect Four in plain text. Each turn the board and whose turn it is are "
            "printed; type a column number (3 or d 3) to drop a disc, p 3 to pop your own "
            "disc out of the bottom of column 3 (Pop Out rules). Ctrl-D ends the game. "
            "With --puzzles: solve puzzles instead, typed the same way (help lists the commands)."
        ),
        epilog=EXIT_STATUSES,
    )
    _add_game_options(console)
    _add_network_options(console)
    _add_puzzle_options(console)
    console.set_defaults(run=run)


def _add_game_options(console: argparse.ArgumentParser) -> None:
    """The game to play: its size, rules, opponent, colour and the computer's seed."""
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
        choices=RULES,
        help="classic (drops only) or popout (you may also pop your own bottom disc); "
        f"default: {DEFAULT_RULES.value}, as in the app (with --connect: what the protocol plays)",
    )
    add_opponent_options(console, default_opponent=PersonBackend.key, default_colour=None)
    console.add_argument(
        "--seed",
        type=signed_number,
        help="seed for the computer's random choices (repeatable games)",
    )


def _add_network_options(console: argparse.ArgumentParser) -> None:
    """Playing over the network: a server's AI, or a lobby's rooms."""
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
        help="what the --connect server speaks. "
        + " ".join(f"{key}: {game.summary}" for key, game in CLIENT_PROTOCOLS.items())
        + " Default: %(default)s.",
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
    add_tls_options(console, "the --lobby server")
    console.add_argument(
        "--reconnect-tries",
        type=number_from(0, 1000),
        metavar="N",
        help="with --lobby: when the connection drops or the server restarts, log in again by "
        "itself up to N times and go on where you were (default: tries spread over about a "
        "minute, the server's default grace; with a game in progress the tries go on, 8 s "
        "apart, until quit; 0: never, exit with status 3 at once)",
    )
    console.add_argument(
        "--user",
        type=username,
        default=None,
        help="your username on the server (default: your login name)",
    )


def _add_puzzle_options(console: argparse.ArgumentParser) -> None:
    """The puzzle trainer instead of a game."""
    console.add_argument(
        "--puzzles",
        action="store_true",
        help="solve puzzles: positions with one winning move, a rating that follows "
        "how you solve, a daily puzzle and your history; no game options go with it",
    )
    console.add_argument(
        "--puzzle",
        metavar="ID",
        help="start the puzzle trainer at the puzzle with this id (implies --puzzles)",
    )


#: The options of a game or a server (with their flags), which no puzzle goes with.
GAME_OPTIONS = {
    "columns": "--columns",
    "rows": "--rows",
    "rules": "--rules",
    "colour": "--color",
    "seconds": "--seconds",
    "clock": "--clock",
    "seed": "--seed",
    "connect": "--connect",
    "lobby": "--lobby",
    "register": "--register",
    "reconnect_tries": "--reconnect-tries",
    "user": "--user",
    "tls": "--tls",
    "tls_ca": "--tls-ca",
}


def puzzle_refusal(args: argparse.Namespace) -> str | None:
    """Why the options given do not go with the puzzle trainer, or None.

    A puzzle is a 7 x 6 classic position solved alone here: a size, an opponent or a
    server asked for with it would be ignored, so it is refused instead (as the app
    refuses ``--color yellow`` without an opponent).
    """
    given = [
        flag for dest, flag in GAME_OPTIONS.items() if getattr(args, dest) not in (None, False)
    ]
    if args.opponent != PersonBackend.key:
        given.insert(0, "--opponent")
    if args.protocol != next(iter(CLIENT_PROTOCOLS)):
        given.append("--protocol")
    if not given:
        return None
    return f"{given[0]} does not go with --puzzles: a puzzle is 7 x 6 classic, solved alone here"


def _given(value: object) -> bool:
    """True for an option's value that is not its unset default (None, or False for a flag)."""
    return value is not None and value is not False


def run(args: argparse.Namespace) -> int:
    """The puzzle trainer with ``--puzzles``; a lobby's rooms with ``--lobby``; else a game."""
    if args.puzzles or args.puzzle is not None:
        return train_puzzles(args)
    refusal = clock_refusal(args.clock, args.connect or args.lobby)
    if refusal is not None:
        usage_error("console", refusal)
    if args.lobby is not None:
        return play_in_lobby(args)
    return play_game(args)


def train_puzzles(args: argparse.Namespace) -> int:
    """The puzzle trainer, with the shipped set, which load only now."""
    from c4tui.console.puzzles import run_puzzles  # noqa: PLC0415
    from c4tui.puzzles.collection import puzzle_by_id, shipped_puzzles  # noqa: PLC0415

    refusal = puzzle_refusal(args)
    if refusal is not None:
        usage_error("console", refusal)
    try:
        puzzles = shipped_puzzles()
    except (OSError, ValueError) as error:
        print(f"c4tui console: the shipped puzzles cannot be read: {error}", file=sys.stderr)
        return 1
    first = None if args.puzzle is None else puzzle_by_id(puzzles, args.puzzle)
    if args.puzzle is not None and first is None:
        usage_error("console", f"--puzzle {args.puzzle}: no puzzle has this id")
    return run_puzzles(puzzles, first)


def play_in_lobby(args: argparse.Namespace) -> int:
    """The lobby's console client, which loads only now (with its protocol, for the name rule)."""
    from c4tui.console.lobby import LobbySettings, run_lobby  # noqa: PLC0415

    if args.user is None or not valid_user(args.user):
        usage_error("console", f"--lobby needs --user NAME ({USER_RULE})")
    host, port = args.lobby
    tls = client_tls("console", args)
    settings = LobbySettings(host, port, args.user, args.register, args.reconnect_tries, tls)
    return run_lobby(settings)


def play_game(args: argparse.Namespace) -> int:
    """A game in plain text, whose front end loads only now."""
    from c4tui.console.game import ConsoleSettings, run_console  # noqa: PLC0415

    if (
        refusal := colour_refusal(args.colour, args.opponent, args.connect is not None)
    ) is not None:
        usage_error("console", refusal)
    refusal = seconds_refusal(None if args.connect else args.opponent, args.seconds)
    if refusal is not None:
        usage_error("console", refusal)
    opponent, options = chosen_opponent(args)
    try:
        columns, rows, rules = chosen_game(args, options)
    except ValueError as error:
        usage_error("console", str(error))
    settings = ConsoleSettings(
        columns=columns,
        rows=rows,
        rules=rules,
        opponent=opponent,
        options=options,
        person_colour=person_colour(args.colour),
        seed=args.seed,
        clock=args.clock,
    )
    return run_console(settings)


def chosen_opponent(args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """The opponent as a registry key and its options: ``--connect``'s server, or ``--opponent``."""
    if args.connect is None:
        return opponent_choice(args.opponent, args.seconds)
    host, port = args.connect
    user = args.user or NetworkBackend.option_values({})["user"]
    return NetworkBackend.key, {
        "host": host,
        "port": str(port),
        "user": user,
        "protocol": args.protocol,
    }


def chosen_game(
    args: argparse.Namespace, options: dict[str, str]
) -> tuple[int | None, int | None, Rules]:
    """The size (None: asked for) and rules; with ``--connect``, within what its protocol plays.

    Raises ValueError when the options ask for a game the chosen protocol cannot play.
    """
    if args.connect is None:
        return args.columns, args.rows, Rules(args.rules or DEFAULT_RULES.value)
    return network_game(options, args.columns, args.rows, args.rules)


def network_game(
    options: dict[str, str], columns: int | None, rows: int | None, rules: str | None
) -> tuple[int, int, Rules]:
    """The game to ask a server for: what was asked, within what its protocol plays.

    Unset values take the protocol's (or the usual) defaults; a value set on the
    command line that the protocol cannot play is a ValueError saying so.
    """
    wanted = (columns or DEFAULT_COLUMNS, rows or DEFAULT_ROWS, Rules(rules or DEFAULT_RULES.value))
    game = NetworkBackend.game_for(options, *wanted)
    asked = (columns, rows, Rules(rules) if rules else None)
    if any(value is not None and value != got for value, got in zip(asked, game, strict=True)):
        raise ValueError(NetworkBackend.game_note(options))
    return game
