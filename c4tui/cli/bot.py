"""``c4tui bot``: a bot account that sits in a lobby and plays whoever asks (§5.5)."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.choices import LEVELS
from c4tui.cli.confine import add_confinement_options, limits_from
from c4tui.cli.tls import add_tls_options, client_tls
from c4tui.cli.types import CommandTable, positive_count, server_address, usage_error, username
from c4tui.engine import Rules
from c4tui.match.backends.program import KAGGLE_SUBMISSIONS
from c4tui.net.address import DEFAULT_PORT
from c4tui.protocols.names import PASSWORD_RULE, valid_password
from c4tui.protocols.terms import Game, Terms, parse_game, parse_terms

if TYPE_CHECKING:
    from c4tui.outside.chooser import Chooser

#: Where the password comes from (never the command line, where `ps` shows it).
PASSWORD_VARIABLE = "C4TUI_PASSWORD"
#: The level when none is given.
DEFAULT_LEVEL = "hard"


def add_parser(commands: CommandTable) -> None:
    """Register ``bot``, its options and its ``run``."""
    bot = commands.add_parser(
        "bot",
        description=(
            "Log in to a lobby (c4tui serve) as a bot and play games one after another: "
            "accept every challenge it can play, and join anyone waiting in quick play "
            "with its --quick settings. It never takes a rated game against another bot "
            "unless --rated-against-bots. It logs in again by itself when the connection "
            "drops or the server restarts, and logs one line per game to standard error. "
            f"The password comes from the environment ({PASSWORD_VARIABLE}) or "
            "--password-file, never the command line. Ctrl-C or SIGTERM stops it "
            "(a game under way is forfeited)."
        ),
        epilog="Exit status: 0 stopped or done; 1 a refused login, an unreachable server or "
        "an outside program that cannot play; 2 a usage error.",
        allow_abbrev=False,  # --password must not pass for --password-file
    )
    bot.add_argument(
        "--lobby",
        type=server_address,
        metavar="HOST:PORT",
        required=True,
        help=f"the lobby server to sit in (c4tui serve's address, e.g. 127.0.0.1:{DEFAULT_PORT})",
    )
    bot.add_argument("--user", type=username, required=True, help="the bot's account")
    bot.add_argument(
        "--password-file",
        type=Path,
        metavar="FILE",
        help=f"read the password from FILE's first line (default: ${PASSWORD_VARIABLE})",
    )
    bot.add_argument(
        "--register",
        action="store_true",
        help="register the account as a bot (REGISTERBOT) if it does not exist yet",
    )
    choosers = bot.add_argument_group(
        "what chooses the moves (one of)",
        "An outside program runs in a sandbox of its own (see its bounds below; 15 s to "
        "start) and is asked for a first move before the bot logs in. If it later crashes, "
        "takes too long, answers an illegal move or garbage, the bot forfeits that game only, logs "
        "why, and starts the program afresh for the next.",
    ).add_mutually_exclusive_group()
    choosers.add_argument(
        "--level",
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help="c4tui's own AI at this level; default %(default)s",
    )
    choosers.add_argument(
        "--engine",
        metavar="CMD",
        help="a program speaking c4tui's engine protocol (c4e, position, go movetime, "
        "bestmove) on standard input and output, started by the shell command CMD, "
        "e.g. 'python3 my_engine.py'; it plays every board and both rules",
    )
    choosers.add_argument(
        "--kaggle",
        metavar="AGENT",
        help=f"a Kaggle ConnectX agent ({KAGGLE_SUBMISSIONS}; the last function of its file "
        "is the agent); it plays classic rules only, so the bot declines Pop Out challenges",
    )
    _add_game_options(bot)
    add_confinement_options(bot)
    add_tls_options(bot)
    bot.set_defaults(run=run)


def _add_game_options(bot: argparse.ArgumentParser) -> None:
    """What the bot plays: quick play's settings, rated games against bots, how many."""
    bot.add_argument(
        "--quick",
        nargs="+",
        metavar="SETTING",
        help="quick play's settings: COLS ROWS RULES [rated|casual] [M+I], "
        "e.g. 7 6 classic rated 3+2; default 7 6 classic casual",
    )
    bot.add_argument(
        "--rated-against-bots",
        action="store_true",
        help="also take rated games against other bots",
    )
    bot.add_argument("--games", type=positive_count, metavar="N", help="stop after N games")


def quick_settings(words: list[str] | None) -> tuple[Game, Terms]:
    """``--quick``'s words as a game and terms. Raises ValueError saying what is wrong."""
    if words is None:
        return (7, 6, Rules.CLASSIC), Terms()
    game = parse_game(words[:3])
    terms = parse_terms(words[3:])
    if game is None or terms is None:
        raise ValueError(
            "--quick takes COLS ROWS RULES [rated|casual] [M+I]: sizes 4-20, classic or "
            "popout, a clock of 1-60 minutes + 0-60 seconds (e.g. 7 6 classic rated 3+2)"
        )
    return game, terms


def password(args: argparse.Namespace) -> str:
    """The password, from ``--password-file`` or the environment (a usage error if neither)."""
    if args.password_file is not None:
        try:
            text = args.password_file.read_text(encoding="ascii").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            usage_error("bot", f"cannot read the password from {args.password_file}: {error}")
        found = text[0] if text else ""
    else:
        found = os.environ.get(PASSWORD_VARIABLE, "")
        if not found:
            usage_error(
                "bot",
                f"no password: set {PASSWORD_VARIABLE} or pass --password-file FILE "
                "(never on the command line)",
            )
    if not valid_password(found):
        usage_error("bot", f"the password must be {PASSWORD_RULE}")
    return found


def run(args: argparse.Namespace) -> int:
    """Check the options, then run the bot; the bot and its AI load only now."""
    import asyncio  # noqa: PLC0415
    import logging  # noqa: PLC0415

    from c4tui.bot.sitting import BotSettings, run_bot  # noqa: PLC0415

    try:
        game, terms = quick_settings(args.quick)
    except ValueError as error:
        usage_error("bot", str(error))
    chooser = _chooser(args)
    cannot = chooser.refusal(*game)
    if cannot is not None:
        usage_error("bot", f"--quick {' '.join(args.quick)}: {cannot}")
    host, port = args.lobby
    settings = BotSettings(
        host,
        port,
        args.user,
        password(args),
        register=args.register,
        quick=game,
        quick_terms=terms,
        rated_against_bots=args.rated_against_bots,
        games=args.games,
        tls=client_tls("bot", args),
    )
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s c4tui-bot %(message)s", datefmt="%H:%M:%S"
    )
    outside = args.engine is not None or args.kaggle is not None
    return asyncio.run(run_bot(settings, chooser, try_first=outside))


def _chooser(args: argparse.Namespace) -> Chooser:
    """The chooser ``--engine``, ``--kaggle`` or ``--level`` names (a usage error if unusable).

    A level thinks in the process's shared search pool (its workers end with the bot).
    """
    from c4tui.outside.chooser import ChooserError  # noqa: PLC0415
    from c4tui.outside.engine_chooser import EngineChooser  # noqa: PLC0415
    from c4tui.outside.kaggle import KaggleChooser  # noqa: PLC0415
    from c4tui.outside.levels import LevelChooser  # noqa: PLC0415

    outside = args.engine is not None or args.kaggle is not None
    # A person waits on the other side, often on a clock: no Kaggle overage.
    limits = replace(limits_from(args, "bot", runs_programs=outside), overage=0.0)
    try:
        if args.engine is not None:
            return EngineChooser(args.engine, limits=limits)
        if args.kaggle is not None:
            return KaggleChooser(Path(args.kaggle), limits=limits)
        return LevelChooser(args.level)
    except ChooserError as error:
        usage_error("bot", f"{'--engine' if args.engine is not None else '--kaggle'}: {error}")
