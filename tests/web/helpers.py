"""A real ``c4tui web`` server in a child process, on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
#: How Chromium runs here: headless, and never reaching out to the internet.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class WebServer:
    url: str
    data: Path
    process: subprocess.Popen[bytes]

    def output(self) -> str:
        """Everything the server printed (after it has stopped)."""
        self.process.terminate()
        out, _ = self.process.communicate(timeout=20)
        return out.decode(errors="replace")

    def saved_games(self) -> list[Path]:
        """The games visitors saved, each in their own folder (gone when they leave)."""
        return sorted((self.data / "c4tui" / "visitors").glob("*/c4tui/games/*.c4g"))


#: Seconds a stopped ``c4tui web`` is given before it is killed (its visitors' apps then
#: end by themselves within 2 s: they look for their server).
STOP_SECONDS = 3


@contextmanager
def web_server(data: Path, *options: str, columns: int = 200) -> Iterator[WebServer]:
    """``c4tui web`` with ``options``, in a terminal ``columns`` wide; its visitors keep their
    data under ``data``."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(data), "COLUMNS": str(columns)}
    process = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "web", "--port", str(port), *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    server = WebServer(f"http://127.0.0.1:{port}", data, process)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(server.output()) from None
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:  # with a visitor still connected, c4tui web takes ~20 s to stop on SIGTERM:
                process.wait(timeout=STOP_SECONDS)  # no test here is about that
            except subprocess.TimeoutExpired:
                process.kill()
