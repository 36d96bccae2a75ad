"""No orphans (issue 38): the AI's worker processes and multiprocessing's resource tracker
end with the app, however it ends — kill -9 too, which no atexit or finally sees."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.outside.sandboxes import descendants

#: Generous: a loaded machine, and the workers look for their parent twice a second.
GONE_WITHIN = 60.0


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[0] != "Z"


def started_with_its_pool(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """``c4tui console`` against Hard, playing second, once the AI's first move is made:
    the process and its descendants (the pool's worker and the resource tracker)."""
    game = ["--columns", "7", "--rows", "6", "--opponent", "hard", "--color", "yellow"]
    console = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "console", *game, "--seed", "1"],
        stdin=subprocess.PIPE,  # held open: the console waits for our move
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        cwd=tmp_path,
    )
    assert console.stdout is not None
    seen = b""
    while b"Move: " not in seen:  # the prompt for our move, after the AI's first
        chunk = os.read(console.stdout.fileno(), 4096)
        if not chunk:
            raise AssertionError(f"the console ended ({console.wait()}): {seen!r}")
        seen += chunk
    return console, descendants(console.pid)


def test_killing_the_app_with_kill_9_leaves_no_worker_and_no_resource_tracker(
    tmp_path: Path,
) -> None:
    console, children = started_with_its_pool(tmp_path)
    try:
        assert len(children) >= 2, children  # a worker and the resource tracker at least
        os.kill(console.pid, signal.SIGKILL)
        console.wait(timeout=30)
        deadline = time.monotonic() + GONE_WITHIN
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in children if alive(pid)] == []
    finally:
        for pid in children:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
