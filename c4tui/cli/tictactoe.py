"""``c4tui tictactoe``: the plain-text client for tic-tac-toe rooms (INFO1112 servers)."""

from __future__ import annotations

import argparse

from c4tui.cli.console import EXIT_STATUSES
from c4tui.cli.types import CommandTable, server_address


def add_parser(commands: CommandTable) -> None:
    """Register ``tictactoe``, its option and its ``run``."""
    tictactoe = commands.add_parser(
        "tictactoe",
        description="A plain-text client for tic-tac-toe servers of the INFO1112 assignment "
        "(and `c4tui serve --tictactoe-port`): log in or register, list, create and join rooms "
        "as a player or a viewer, play (a cell as column and row, 0-2, or as 1-9), forfeit. "
        "Type help once connected. Ctrl-D or Ctrl-C ends it.",
        epilog=EXIT_STATUSES,
    )
    tictactoe.add_argument(
        "--connect",
        type=server_address,
        metavar="HOST:PORT",
        required=True,
        help="the tic-tac-toe server",
    )
    tictactoe.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Connect and play until the input ends; the client loads only now."""
    from c4tui.console.tictactoe import run_tictactoe_client  # noqa: PLC0415

    host, port = args.connect
    return run_tictactoe_client(host, port)
