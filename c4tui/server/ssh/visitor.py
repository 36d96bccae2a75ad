"""One visitor's app: its own process on a pseudo-terminal, joined to the ssh channel.

The app is a real terminal program, exactly as if the visitor ran it: ssh carries its
keys in and its screen out, the window's size goes to the pseudo-terminal (the kernel
tells the app with SIGWINCH), and ``TERM`` is the visitor's own. The app's process is a
session of its own, so ending the visit ends it and everything it started: a hang-up
first (as a closed terminal does), a kill if it has not gone within ``HANG_UP_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence

log = logging.getLogger("c4tui.server.ssh")

#: Seconds an app has to end after its visit's hang-up before it is killed.
HANG_UP_SECONDS = 2.0
#: Bytes read from the app's screen at a time.
READ_BYTES = 65536
#: Keys typed ahead of an app that does not read them, kept at most (the rest is dropped).
MAX_PENDING_INPUT = 65536


class VisitorApp:
    """The app's process, its pseudo-terminal, and the bytes between it and the channel.

    ``show`` writes the app's output to the visitor (the ssh channel); ``ended`` hears the
    app's exit status once, when it is gone.
    """

    def __init__(self, show: Callable[[bytes], None], ended: Callable[[int], None]) -> None:
        self._show = show
        self._ended = ended
        self._master = -1
        self._process: asyncio.subprocess.Process | None = None
        self._pending = bytearray()
        self._reading = False
        self._loop = asyncio.get_running_loop()
        self._waiting: asyncio.Future[None] | None = None  # for the app's end

    @property
    def pid(self) -> int | None:
        """The app's process id (None before it started)."""
        return self._process.pid if self._process is not None else None

    async def start(
        self, command: Sequence[str], env: Mapping[str, str], size: tuple[int, int]
    ) -> None:
        """Run ``command`` on a new pseudo-terminal of ``size`` (columns, rows).

        Raises OSError when no pseudo-terminal or process can be had.
        """
        master, slave = os.openpty()
        try:
            _set_size(master, *size)
            self._process = await asyncio.create_subprocess_exec(
                *command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                start_new_session=True,  # the app's own session: the terminal becomes its own
                close_fds=True,
            )
        except OSError:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master = master
        os.set_blocking(master, False)
        self.resume()
        self._waiting = asyncio.ensure_future(self._wait())

    def resize(self, columns: int, rows: int) -> None:
        """The visitor's window changed: so does the app's terminal (it hears SIGWINCH)."""
        if self._master >= 0 and columns > 0 and rows > 0:
            with contextlib.suppress(OSError):
                _set_size(self._master, columns, rows)

    def type(self, data: bytes) -> None:
        """The visitor's keys, to the app; kept a while if it is not reading."""
        if self._master < 0:
            return
        if self._pending:
            self._keep(data)
            return
        try:
            written = os.write(self._master, data)
        except BlockingIOError:
            written = 0
        except OSError:
            return  # the app is gone: its end is on its way
        if written < len(data):
            self._keep(data[written:])

    def pause(self) -> None:
        """The visitor is not reading: stop reading the app's screen (it waits to write)."""
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def resume(self) -> None:
        """The visitor reads again."""
        if not self._reading and self._master >= 0:
            self._loop.add_reader(self._master, self._readable)
            self._reading = True

    async def hang_up(self) -> None:
        """End the app (and what it started), as closing its terminal would; then kill it."""
        process = self._process
        if process is None or self._waiting is None:
            self._close_terminal()
            return
        if process.returncode is None:
            _signal_group(process.pid, signal.SIGHUP)
        try:  # the end is told (``ended``) before this returns: the visitor may hear of it
            await asyncio.wait_for(asyncio.shield(self._waiting), HANG_UP_SECONDS)
        except TimeoutError:
            log.warning("visitor app %d did not end on hang-up: killed", process.pid)
            _signal_group(process.pid, signal.SIGKILL)
            await self._waiting

    # ----- inside ----------------------------------------------------------------

    def _keep(self, data: bytes) -> None:
        room = MAX_PENDING_INPUT - len(self._pending)
        self._pending += data[: max(0, room)]
        self._loop.add_writer(self._master, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self._master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending:
            self._loop.remove_writer(self._master)

    def _readable(self) -> None:
        try:
            data = os.read(self._master, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal (it is ending)
            data = b""
        if data:
            self._show(data)
        else:
            self.pause()

    async def _wait(self) -> None:
        assert self._process is not None
        status = await self._process.wait()
        # What the app wrote last is still in the terminal: pass it on before the end.
        if self._master >= 0:
            with contextlib.suppress(OSError):
                while data := os.read(self._master, READ_BYTES):
                    self._show(data)
        self._close_terminal()
        self._ended(status if status >= 0 else 128 - status)

    def _close_terminal(self) -> None:
        if self._master < 0:
            return
        self.pause()
        if self._pending:
            self._loop.remove_writer(self._master)
            self._pending.clear()
        os.close(self._master)
        self._master = -1


def _set_size(terminal: int, columns: int, rows: int) -> None:
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _signal_group(pid: int, number: signal.Signals) -> None:
    """Signal the app's whole session (its process group: the app and what it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, number)
