"""The options of the commands that run other people's programs: their bounds and their sandbox.

``c4tui tournament``, ``c4tui bot`` and ``c4tui serve --ai`` run programs a class
wrote: each in the sandbox (``outside/sandbox.py``), or not at all where none can be
had, unless the person running c4tui passes ``--unconfined`` and takes the risk.
Only the options are declared here; ``outside`` loads when a program is run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.types import number_from, usage_error
from c4tui.outside.bounds import CPU_CORES, DEFAULT_MEMORY_MB, DEFAULT_PROCESSES, START_SECONDS

if TYPE_CHECKING:
    from c4tui.outside.program import Limits

#: ``--memory``'s range in megabytes (a JVM or NumPy needs a few hundred to start).
MEMORY_RANGE = (64, 1 << 20)
#: ``--processes``' range (processes and threads together).
PROCESSES_RANGE = (8, 1 << 16)
#: ``--start-seconds``' range: from a script that answers at once to a JVM loading tables.
START_SECONDS_RANGE = (1, 600)
_DEFAULTS = (
    f"{DEFAULT_MEMORY_MB} MB for all its processes together, {DEFAULT_PROCESSES} processes "
    f"and threads, {CPU_CORES} CPU core"
)


def add_confinement_options(parser: argparse.ArgumentParser) -> None:
    """``--memory``, ``--processes``, ``--start-seconds``, ``--python`` and ``--unconfined``."""
    group = parser.add_argument_group(
        "outside programs' bounds",
        "Every outside program runs in a sandbox (bubblewrap: no network, none of your "
        "files but its own and c4tui's Python, read-only) within bounds for the program as a whole "
        f"(default {_DEFAULTS}). A program over a bound loses its game, "
        "the bound named.",
    )
    group.add_argument(
        "--memory",
        type=number_from(*MEMORY_RANGE),
        metavar="MB",
        help=f"megabytes a program may hold, all its processes together "
        f"(default {DEFAULT_MEMORY_MB})",
    )
    group.add_argument(
        "--processes",
        type=number_from(*PROCESSES_RANGE),
        metavar="N",
        help=f"processes and threads a program may have at once (default {DEFAULT_PROCESSES})",
    )
    group.add_argument(
        "--start-seconds",
        type=number_from(*START_SECONDS_RANGE),
        metavar="S",
        help="seconds a program has to start and say it is ready, and an engine to begin "
        f"each game (default {START_SECONDS:g}); one that takes longer loses that game",
    )
    group.add_argument(
        "--python",
        metavar="PATH",
        help="the Python that runs Kaggle agents, as the sandbox sees it (default: c4tui's "
        "own, with the packages installed beside c4tui)",
    )
    group.add_argument(
        "--unconfined",
        action="store_true",
        help="run the programs without the sandbox, even where one can be had, for a machine "
        "without bubblewrap: they can then read and change your files and reach the network "
        "(at your own risk; said again as it starts)",
    )


def limits_from(args: argparse.Namespace, command: str, *, runs_programs: bool) -> Limits:
    """The ``Limits`` the options ask for: sandboxed where a program runs, or a usage error.

    Where a program will run (``runs_programs``), no sandbox can be had and
    ``--unconfined`` was not given, the command stops with one line saying what to
    install and how to accept the risk.
    """
    from c4tui.outside.program import Limits, Sandboxing  # noqa: PLC0415
    from c4tui.outside.sandbox import sandbox_problem  # noqa: PLC0415

    if runs_programs and not args.unconfined:
        problem = sandbox_problem()
        if problem is not None:
            usage_error(
                command,
                f"other people's programs run only in a sandbox, and none can be made here "
                f"({problem}); or pass --unconfined to run them without one, at your own risk",
            )
    if runs_programs and args.unconfined:
        print(
            f"c4tui {command}: warning: --unconfined: the programs run without the sandbox, "
            "able to read and change your files and to reach the network",
            file=sys.stderr,
            flush=True,
        )
    if args.python is not None:
        _check_python(args.python, command, sandboxed=not args.unconfined)
    return Limits(
        memory_mb=args.memory or DEFAULT_MEMORY_MB,
        processes=args.processes or DEFAULT_PROCESSES,
        start_seconds=args.start_seconds or START_SECONDS,
        sandboxing=Sandboxing.OFF if args.unconfined else Sandboxing.REQUIRED,
        python=args.python,
    )


def _check_python(python: str, command: str, *, sandboxed: bool) -> None:
    """``--python`` names an interpreter that runs, and that the sandbox shows (a usage error)."""
    from c4tui.outside.sandbox import visible_in_sandbox  # noqa: PLC0415

    path = Path(python)
    if not path.is_absolute() or not path.is_file() or not os.access(path, os.X_OK):
        usage_error(command, f"--python {python}: not a program (give its absolute path)")
    if sandboxed and not visible_in_sandbox(path):
        usage_error(
            command,
            f"--python {python}: the sandbox does not show it (give one under /usr or in "
            "c4tui's own Python's folders)",
        )
