"""Running ``python -m c4tui`` as a real process, the way a user's shell would."""

from __future__ import annotations

import subprocess
import sys


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
