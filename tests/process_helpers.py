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
