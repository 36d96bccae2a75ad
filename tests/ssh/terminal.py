"""The real OpenSSH client (Debian's openssh-client) on a pseudo-terminal, its screen read by pyte.

A visitor's terminal as a person has it: ``ssh -tt`` runs on a pseudo-terminal of
its own, with a size; what the server's app draws is fed to pyte, a terminal
emulator, so a test reads the screen a person would see, and types keys as bytes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from c4tui.server.core import C4Server
from tests.needs import missing

#: Seconds a screen has to show what a test waits for (generous: the machine is shared).
SCREEN_SECONDS = 60.0

KEYS = {
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
    "left": b"\x1b[D",
    "right": b"\x1b[C",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
}


def ssh_client() -> str:
    """The OpenSSH client's path (the test skips, or fails on CI, without it)."""
    path = shutil.which("ssh")
    if path is None:
        missing("The OpenSSH client", "openssh-client")
    return path


def make_key(path: Path) -> Path:
    """A new ed25519 key pair at ``path`` (and ``path``.pub), as ssh-keygen would leave it."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    path.with_suffix(".pub").write_bytes(key.export_public_key())
    return path


def door_port(server: C4Server) -> int:
    """The port ``server``'s ssh door listens on."""
    assert server.ssh is not None and server.ssh.port is not None
    return server.ssh.port


def ssh_options(port: int, key: Path | None) -> list[str]:
    """What every test's ssh is told: this server, this key only, no questions, no config."""
    options = ["-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no"]
    options += ["-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes"]
    if key is not None:
        options += ["-o", "IdentitiesOnly=yes", "-i", str(key)]
    return options


class PtyTerminal:
    """A program on a pseudo-terminal of ``columns`` × ``rows`` of its own, its screen in pyte.

    ``heard``, if given, is told each chunk of output the moment it is read (in the reader
    thread, before pyte sees it): ``bench/ssh.py`` times keypresses by it.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        columns: int = 80,
        rows: int = 24,
        env: Mapping[str, str] | None = None,
        heard: Callable[[bytes], None] | None = None,
    ) -> None:
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self._heard = heard
        self._master, slave = os.openpty()
        _set_size(self._master, columns, rows)
        self.process = subprocess.Popen(
            list(command),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(os.environ if env is None else env),
            start_new_session=True,
        )
        os.close(slave)
        self.written = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except OSError:
                return
            if not data:
                return
            if self._heard is not None:
                self._heard(data)
            with self._lock:
                self.written += data
                self._stream.feed(data)

    def text(self) -> str:
        """The screen now, one line per row."""
        with self._lock:
            return "\n".join(self.screen.display)

    def wait_for(self, *words: str, seconds: float = SCREEN_SECONDS) -> str:
        """Wait until the screen shows all of ``words``; the screen (AssertionError: never)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.text()
            if all(word in shown for word in words):
                return shown
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        shown = self.text()
        raise AssertionError(f"never saw {words!r}; the screen:\n{shown}")

    def press(self, *keys: str) -> None:
        """Press each key: a name of ``KEYS``, or characters typed as they are."""
        for key in keys:
            os.write(self._master, KEYS.get(key, key.encode()))
            time.sleep(0.02)

    def type_at_once(self, *keys: str) -> None:
        """Send the keys in one write, as a paste (or a fast typist over ssh) does."""
        os.write(self._master, b"".join(KEYS.get(key, key.encode()) for key in keys))

    def resize(self, columns: int, rows: int) -> None:
        """The visitor's window changes size (ssh hears it as a terminal would tell it)."""
        with self._lock:
            self.screen.resize(rows, columns)
        _set_size(self._master, columns, rows)
        self.process.send_signal(signal.SIGWINCH)

    def kill(self) -> None:
        """The visitor's ssh dies (kill -9): no goodbye reaches the server."""
        self.process.kill()
        self.process.wait(10)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait(10)
        with contextlib.suppress(OSError):
            os.close(self._master)
        self._reader.join(5)


class SshTerminal(PtyTerminal):
    """One visitor: ``ssh -tt`` in a pseudo-terminal of ``columns`` × ``rows``."""

    def __init__(
        self,
        port: int,
        key: Path,
        *,
        user: str = "visitor",
        columns: int = 80,
        rows: int = 24,
        term: str = "xterm-256color",
        options: Sequence[str] = (),
        heard: Callable[[bytes], None] | None = None,
    ) -> None:
        command = [ssh_client(), "-tt", *ssh_options(port, key), *options, f"{user}@127.0.0.1"]
        env = {**os.environ, "TERM": term}
        super().__init__(command, columns=columns, rows=rows, env=env, heard=heard)


@contextlib.contextmanager
def visitor(port: int, key: Path, **how: Any) -> Iterator[SshTerminal]:
    """A visitor for the length of a ``with``, gone after it (``how``: SshTerminal's options)."""
    terminal = SshTerminal(port, key, **how)
    try:
        yield terminal
    finally:
        terminal.close()


def run_ssh(
    port: int, key: Path | None, *arguments: str, seconds: float = 30
) -> subprocess.CompletedProcess[str]:
    """Run the ssh client to the end; what it printed, and its exit status."""
    return subprocess.run(
        [ssh_client(), *ssh_options(port, key), *arguments],
        capture_output=True,
        text=True,
        timeout=seconds,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _set_size(terminal: int, columns: int, rows: int) -> None:
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def alive(pid: int) -> bool:
    """True while process ``pid`` exists (and is not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


__all__: Sequence[str] = (
    "PtyTerminal",
    "SshTerminal",
    "alive",
    "door_port",
    "make_key",
    "run_ssh",
    "visitor",
)
