"""Running ``python -m c4tui`` as a real process, the way a user's shell would."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys

#: How long an ended test process's pipes may take to reach their end.
DRAIN_SECONDS = 10


def run_c4tui(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run c4tui with ``args``; ``stdin`` is typed in (None: no input at all)."""
    return subprocess.run(
        [sys.executable, "-m", "c4tui", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
    )


def started_c4tui(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """c4tui with ``args`` started in a process group of its own (as a shell starts it),
    no input, its output piped: for a test that watches it run or interrupts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "c4tui", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


async def ended(process: asyncio.subprocess.Process) -> None:
    """Kill ``process`` if it still runs, and read its pipes to their end.

    Only then does asyncio close the process's transport: one left open is closed by
    its finalizer after the test's loop is gone, which fails ("Event loop is closed"),
    and on CPython 3.11.7 the formatting of that failure, when the collection falls
    inside another ``ast.parse``, broke a later test with ``SystemError: AST
    constructor recursion depth mismatch``.
    """
    if process.returncode is None:
        process.kill()
    with contextlib.suppress(TimeoutError, ProcessLookupError):
        await asyncio.wait_for(process.communicate(), DRAIN_SECONDS)
