"""``c4tui columns``: Columns, the falling-jewels game; ``--shell``, the ICS 32 handout's shell."""

from __future__ import annotations

import argparse
import sys

from c4tui.cli.types import USAGE_ERROR


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``columns``, its option and its ``run``."""
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
    columns.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The test shell with ``--shell``; without it, the game in the app (still to be wired)."""
    from c4tui.columns.shell import run_shell  # noqa: PLC0415 (the shell loads only to run)

    if args.shell:
        return run_shell()
    return only_the_shell_yet()


def only_the_shell_yet() -> int:
    """Say that the game in the app is not reachable from here yet (status 2, as before)."""
    print("c4tui columns: only --shell (the handout's test shell) exists yet", file=sys.stderr)
    return USAGE_ERROR
