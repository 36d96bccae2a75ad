"""No orphans (issue 38): the AI's worker processes and multiprocessing's resource tracker
end with the app, however it ends — kill -9 too, which no atexit or finally sees."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
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


def test_killing_the_full_screen_app_with_kill_9_leaves_no_worker(tmp_path: Path) -> None:
    """Issue 40 #13: the app's workers (the solver: 250 MB) lived on under PID 1 after kill -9.

    The app runs in a pseudo-terminal, as in a real one, against Hard playing red on
    20 × 20, and is killed while the worker searches its first move.
    """
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "30",
    }
    game = ["--opponent", "hard", "--color", "yellow", "--columns", "20", "--rows", "20"]
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the app, with the pty as its terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "c4tui", *game], environment)
    try:
        children = _pool_of(pid, terminal)
        thinking = time.monotonic() + 0.5
        while time.monotonic() < thinking:  # the worker busy with Hard's first move
            _drain(terminal)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        deadline = time.monotonic() + GONE_WITHIN
        while any(alive(child) for child in children) and time.monotonic() < deadline:
            _drain(terminal)
        assert [child for child in children if alive(child)] == []
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)


def _pool_of(pid: int, terminal: int) -> list[int]:
    """The app's descendants once its pool is up (a worker and the resource tracker)."""
    deadline = time.monotonic() + GONE_WITHIN
    while len(children := descendants(pid)) < 2:
        assert time.monotonic() < deadline, f"no pool started: {children}"
        _drain(terminal)
    return children


def _drain(terminal: int) -> None:
    """Read what the app drew (so it never blocks on a full terminal), for a tenth of a second."""
    ready, _, _ = select.select([terminal], [], [], 0.1)
    if ready:
        with contextlib.suppress(OSError):
            os.read(terminal, 65536)
