"""``c4tui replay FILE|DIGITS``: a saved game (or a solver's digit string) in the app's review.

With ``--server HOST:PORT --user NAME GAME_ID`` the game is one a lobby server kept
(spec/protocols.md §5.2): fetched after logging in (the password asked without echo
at a terminal, else read from the first line of input, as ``console --lobby`` does),
then reviewed, or with ``--save FILE`` only saved as a record ``replay FILE`` opens.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.app import open_app
from c4tui.cli.tls import add_tls_options, client_tls
from c4tui.cli.types import CommandTable, server_address, usage_error, username
from c4tui.numbers import ascii_digits

if TYPE_CHECKING:
    from c4tui.protocols.past import KeptGame
    from c4tui.records import GameRecord

#: Exit status when the server cannot be reached or goes (a usage error is 2).
SERVER_PROBLEM = 1


def add_parser(commands: CommandTable) -> None:
    """Register ``replay``, its arguments and its ``run``."""
    replay = commands.add_parser(
        "replay",
        description="Open a game record (saved with s in the app) or a solver's digit string "
        "(4453...: 1-based columns, 7 x 6 classic) in the app's review mode: left and right "
        "step through the moves, Home and End jump, c plays on from the move shown. "
        "With --server, GAME_ID is a finished game a lobby server kept (c4tui console "
        "--lobby's history lists them): c4tui logs in as --user (the password is asked "
        "without echo; a script gives it as the first line of input), fetches the game and "
        "opens it, or with --save FILE only saves it as a record that c4tui replay FILE opens.",
    )
    replay.add_argument(
        "game", metavar="FILE|DIGITS|GAME_ID", help="a .c4g record, digits, or with --server a game"
    )
    replay.add_argument(
        "--server",
        type=server_address,
        metavar="HOST:PORT",
        help="fetch game GAME_ID from this lobby server (c4tui serve)",
    )
    replay.add_argument(
        "--user", type=username, help="with --server: your username on the server (required)"
    )
    replay.add_argument(
        "--save",
        metavar="FILE",
        type=Path,
        help="with --server: save the game as a record in FILE instead of opening it",
    )
    add_tls_options(replay, "the --server")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the game, then open the app on it; a game that cannot be read is a usage error.

    The records load only now (and Textual with the app, in ``open_app``).
    """
    if args.server is not None:
        return replay_kept(args)
    if args.user is not None or args.save is not None:
        usage_error("replay", "--user and --save go with --server HOST:PORT")
    return open_app(args, review=game_given("replay", args.game))


def game_given(command: str, game: str) -> GameRecord:
    """The game named on ``command``'s line: a record's file, or a solver's digit string.

    A game that cannot be read (no such file, bad digits, an illegal move) is a usage
    error: its reason on standard error, exit status 2. The records load only now.
    """
    from c4tui.records import RecordError, parse_record, store  # noqa: PLC0415

    path = Path(game).expanduser()
    try:
        if path.is_file():
            return store.read_record(path)
        if ascii_digits(game.strip()):
            return parse_record(game)
        raise RecordError(f"no such file: {game}")
    except RecordError as error:
        usage_error(command, str(error))


def replay_kept(args: argparse.Namespace) -> int:
    """Fetch the server's game ``args.game``; review it in the app, or save it (``--save``).

    The review is My games' (the solver's verdicts where it proves every position), seen
    by ``--user``.
    Refusals (the login, no such game) are usage errors; a server out of reach exits 1.
    """
    from c4tui.client.kept import record_of  # noqa: PLC0415
    from c4tui.records import format_record  # noqa: PLC0415
    from c4tui.storage import write_atomically  # noqa: PLC0415

    if args.user is None:
        usage_error("replay", "--server needs --user NAME")
    number = args.game.strip()
    if not ascii_digits(number):
        usage_error("replay", f"with --server, GAME_ID is a game's number, not {args.game!r}")
    kept = asyncio.run(_fetched(args, int(number)))
    if args.save is None:
        return open_app(args, past_game=(kept, args.user))
    record = record_of(kept, args.user)
    path: Path = args.save.expanduser()
    try:
        write_atomically(path, format_record(record))
    except OSError as error:
        sys.stderr.write(f"c4tui replay: cannot save {path}: {error}\n")
        return SERVER_PROBLEM
    print(f"Saved game {int(number)} as {path} (c4tui replay {path} opens it).")
    return 0


async def _fetched(args: argparse.Namespace, number: int) -> KeptGame:
    """The game kept as ``number``; exits with the reason if it cannot be had."""
    from c4tui.client.kept import NotKept, fetch_game  # noqa: PLC0415
    from c4tui.console.lines import EndOfInput, read_secret  # noqa: PLC0415
    from c4tui.net.errors import NetworkError, ProtocolError  # noqa: PLC0415

    host, port = args.server
    tls = client_tls("replay", args)
    try:
        if sys.stdin.isatty():
            password = await read_secret(f"Password for {args.user}: ")
        else:
            password = _first_line()
        return await fetch_game(
            host, port, args.user, password, number, took_over=_took_over, tls=tls
        )
    except EndOfInput:
        usage_error("replay", f"no password for {args.user} (the first line of input)")
    except NotKept as error:
        usage_error("replay", str(error))
    except (NetworkError, ProtocolError, TimeoutError) as error:
        sys.stderr.write(f"c4tui replay: {error or 'the server did not answer in time'}\n")
        sys.exit(SERVER_PROBLEM)


def _took_over(room: str) -> None:
    """Logging in here moved a game under way to us (the newest login wins): say so."""
    sys.stderr.write(
        f"c4tui replay: note: you have a game under way in {room}; logging in here took it "
        f"from where you play it, and it now waits for you: log in there again (r in the "
        f"app's lobby) within the server's grace to go on.\n"
    )


def _first_line() -> str:
    """The first line of standard input, without its end (a script's password).

    Raises EndOfInput if there is none.
    """
    from c4tui.console.lines import EndOfInput  # noqa: PLC0415

    line = sys.stdin.readline()
    if not line:
        raise EndOfInput
    return line.removesuffix("\n")
