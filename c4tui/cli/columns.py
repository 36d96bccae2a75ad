"""``c4tui columns``: Columns, the falling-jewels game; ``--shell``, the ICS 32 handout's shell."""

from __future__ import annotations

import argparse

from c4tui.cli.app import open_app
from c4tui.cli.types import CommandTable


def add_parser(commands: CommandTable) -> None:
    """Register ``columns``, its option and its ``run``."""
    columns = commands.add_parser(
        "columns",
        description="Columns, in the full-screen app. With --shell, the handout's test shell, "
        "character for character: reads rows, columns, EMPTY or CONTENTS, then commands "
        "(a blank line, F c A B C, R, <, >, Q) and prints the field after each, with no prompts.",
    )
    columns.add_argument(
        "--shell", action="store_true", help="run the test shell on standard input and output"
    )
    columns.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The test shell with ``--shell``; without it, the game in the full-screen app."""
    if args.shell:
        from c4tui.columns.shell import run_shell  # noqa: PLC0415 (the shell loads only to run)

        return run_shell()
    return open_app(args, start_columns=True)
