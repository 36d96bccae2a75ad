"""One outside program's process: sandboxed, its output always drained, its end always bounded.

Whatever the program does, the caller keeps control: standard output and error are
read all the time into bounded buffers (a program that writes without end, or without
a newline, can neither fill a pipe nor make c4tui wait), every read has a deadline, a
line has a length limit, and ``kill`` ends the whole program — its process group, then
everything left in its cgroups, the sandbox's PID namespace with it — waiting a
bounded time at each step. Its bounds and sandbox are its ``Confinement``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from collections import deque
from pathlib import Path

from c4tui.outside.bounds import Bounds
from c4tui.outside.chooser import EXIT_SECONDS, FailureKind, OutsideFailure
from c4tui.outside.confinement import Confinement
from c4tui.outside.sandbox import Launch, printable
from c4tui.protocols.engine import MAX_ENGINE_LINE

#: The last lines of standard error kept to say why a program crashed.
STDERR_TAIL_LINES = 5
#: At most this much of a program's standard error goes to its log file.
LOG_LIMIT_BYTES = 1 << 20
#: Lines of standard output kept unread at most; past them lines are dropped and counted.
MAX_WAITING_LINES = 1000
_CHUNK = 65536
#: What a log shows escaped: the control characters but tab and newline (ESC above all).
_CONTROLS = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
#: What stands in the queue of lines for a line past the limit, and for the end.
_TOO_LONG, _ENDED = object(), object()


class OutsideProcess:
    """A started program; made by ``start``.

    Raises OutsideFailure (crash, time or malformed) from ``send`` and ``read_line``;
    the caller then ``kill``s it.
    """

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        confinement: Confinement,
        log: Path | None,
        exchange: Path | None,
    ) -> None:
        self._process = process
        self._confinement = confinement
        self._tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._log = log
        self._logged = 0
        self._exchange = exchange
        self._exchanged = 0
        self._lines: deque[object] = deque()
        self._arrived = asyncio.Event()
        #: Lines of standard output dropped (past ``MAX_WAITING_LINES`` unread).
        self.dropped = 0
        self._drains = {
            asyncio.create_task(self._drain_stdout()),
            asyncio.create_task(self._drain_stderr()),
        }

    @classmethod
    async def start(
        cls,
        launch: Launch,
        *,
        bounds: Bounds,
        sandboxed: bool,
        stderr_log: Path | None = None,
        exchange_log: Path | None = None,
        label: str = "",
    ) -> OutsideProcess:
        """Start ``launch`` within ``bounds`` (in its sandbox), in a process group of its own.

        ``label`` (``game 3``) heads what this start writes in ``stderr_log``.

        Raises OutsideFailure (crash) if it cannot start.
        """
        confinement = Confinement.prepare(bounds, sandboxed=sandboxed)
        options = _options_file(confinement.arguments(launch)) if sandboxed else -1
        try:
            process = await asyncio.create_subprocess_exec(
                *confinement.command(launch, options if sandboxed else None),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # its own group: kill takes what it started too
                cwd=confinement.working_folder(launch),
                env=confinement.environment(),  # bubblewrap's own init keeps what it is given
                close_fds=True,  # (the default, and the point: c4tui's files stay its own)
                pass_fds=(options,) if sandboxed else (),
            )
        except OSError as error:
            confinement.remove()
            raise OutsideFailure(FailureKind.CRASH, f"could not start: {error}") from None
        except asyncio.CancelledError:
            confinement.remove()
            raise
        finally:
            if sandboxed:
                os.close(options)
        started = cls(process, confinement, stderr_log, exchange_log)
        if stderr_log is not None and label:
            started.note(f"[c4tui: started for {label}, pid {process.pid}]")
        return started

    def memory_exceeded(self) -> str | None:
        """Its memory bound, in words, once it went over it, even playing on (a child killed)."""
        return self._confinement.memory_exceeded()

    @property
    def pid(self) -> int:
        """The child's process id (also its process group's)."""
        return self._process.pid

    async def send(self, line: str) -> None:
        """Write ``line`` and its end. Raises OutsideFailure (crash) if the program is gone."""
        stdin = self._process.stdin
        assert stdin is not None
        self._record(">", line)
        try:
            stdin.write(line.encode("ascii", "replace") + b"\n")
            async with asyncio.timeout(EXIT_SECONDS * 5):  # a program that reads nothing
                await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise await self._crashed() from None
        except TimeoutError:
            raise OutsideFailure(FailureKind.TIME, "does not read what it is sent") from None

    def waiting(self) -> list[str]:
        """The lines that came unasked and are not read yet (taken from the queue)."""
        taken = []
        while self._lines and isinstance(self._lines[0], str):
            taken.append(str(self._lines.popleft()))
        return taken

    async def read_line(self, deadline: float, patience: str = "in time") -> str:
        """The next line (without its end), read by ``deadline`` (``time.monotonic()``).

        Raises OutsideFailure: time (nothing by the deadline: "no answer" and
        ``patience``), crash (the program exited; its status and last words),
        malformed (a line past the limit).
        """
        while not self._lines:
            self._arrived.clear()
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await self._arrived.wait()
            except TimeoutError:
                raise OutsideFailure(FailureKind.TIME, f"no answer {patience}") from None
        line = self._lines.popleft()
        if line is _TOO_LONG:
            raise OutsideFailure(
                FailureKind.MALFORMED, f"a line longer than {MAX_ENGINE_LINE} bytes"
            )
        if line is _ENDED:
            self._lines.appendleft(_ENDED)
            raise await self._crashed()
        return str(line)

    async def stop(self, last_words: str | None = None, grace: float = EXIT_SECONDS) -> None:
        """Send ``last_words`` (``quit``), give the program ``grace`` seconds to exit, then kill."""
        if last_words is not None and self._process.returncode is None:
            with contextlib.suppress(OutsideFailure):
                await self.send(last_words)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(grace):
                    await self._process.wait()
        await self.kill()

    async def kill(self) -> None:
        """End the whole program at once and reap the child (no zombie), each wait bounded."""
        # The child leads its session, so it cannot leave its group: one killpg reaches
        # it. (Process.kill would poll, and could reap it before asyncio's child watcher,
        # which then logs "Unknown child process" and reports status 255.)
        if self.dropped:  # said where its author looks
            self._record(
                "!",
                f"{self.dropped} lines of its output dropped, unread (past {MAX_WAITING_LINES})",
            )
        # (Even once the child is reaped: what it left in its group keeps the group's id.)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        await self._confinement.release()  # all that is left in its cgroups
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(EXIT_SECONDS):
                await self._process.wait()  # (it also waits for the pipes to close)
        await asyncio.wait(self._drains, timeout=EXIT_SECONDS)
        for drain in self._drains:
            drain.cancel()
        if self._process.stdin is not None:
            self._process.stdin.close()

    async def _crashed(self) -> OutsideFailure:
        """Why a program stopped talking: the bound it hit, or its exit status, and last words."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(EXIT_SECONDS):
                await self._process.wait()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(EXIT_SECONDS):
                await asyncio.wait(self._drains)
        bound = self._confinement.exceeded()
        last = f": {self._tail[-1]}" if self._tail else ""
        if bound is not None:
            return OutsideFailure(FailureKind.CRASH, bound + last)
        return OutsideFailure(FailureKind.CRASH, self._how_it_ended() + last)

    def _how_it_ended(self) -> str:
        status = self._process.returncode
        if status is None:
            return "closed its output"
        if status < 0:
            return f"was killed by signal {-status}"
        if self._confinement.sandboxed and status > 128:  # bubblewrap reports 128 + signal
            return f"was killed by signal {status - 128}"
        return f"exited with status {status}"

    async def _drain_stdout(self) -> None:
        """Read standard output until it ends, into lines; never stop reading while it runs."""
        stdout = self._process.stdout
        assert stdout is not None
        partial, too_long = b"", False
        while chunk := await stdout.read(_CHUNK):
            *lines, partial = (partial + chunk).split(b"\n")
            for raw in lines:
                if too_long or len(raw) > MAX_ENGINE_LINE:
                    self._queue(_TOO_LONG)
                else:
                    self._queue(raw.decode("utf-8", "replace").rstrip("\r"))
                too_long = False
            if len(partial) > MAX_ENGINE_LINE:
                if not too_long:
                    self._queue(_TOO_LONG)
                partial, too_long = b"", True
        self._queue(_ENDED)

    def _queue(self, line: object) -> None:
        if isinstance(line, str):
            self._record("<", line)
        if len(self._lines) >= MAX_WAITING_LINES and line is not _ENDED:
            self.dropped += 1
            return
        self._lines.append(line)
        self._arrived.set()

    async def _drain_stderr(self) -> None:
        """Read standard error until it ends: its last lines kept, the rest to the log if any."""
        stderr = self._process.stderr
        assert stderr is not None
        partial = b""
        while chunk := await stderr.read(_CHUNK):
            self._write_log(chunk)
            *lines, partial = (partial + chunk).split(b"\n")
            self._tail.extend(_shown(line) for line in lines if line.strip())
            partial = partial[-MAX_ENGINE_LINE:]
        if partial.strip():
            self._tail.append(_shown(partial))

    def note(self, line: str) -> None:
        """A line of c4tui's own in the standard error log (where a start begins)."""
        self._write_log(f"{line}\n".encode(), raw=True)

    def _write_log(self, chunk: bytes, *, raw: bool = False) -> None:
        """Append ``chunk`` to the log, its control characters made visible (``cat`` is safe)."""
        if self._log is None or self._logged >= LOG_LIMIT_BYTES:
            return
        if not raw:
            chunk = _CONTROLS.sub(lambda found: b"\\x%02x" % found[0][-1], chunk)
        kept = chunk[: LOG_LIMIT_BYTES - self._logged]
        self._logged += len(kept)
        with self._log.open("ab") as log:
            log.write(kept)
            if self._logged >= LOG_LIMIT_BYTES:
                log.write(b"\n[the rest of standard error was left out]\n")

    def _record(self, direction: str, line: str) -> None:
        """One line of the protocol's exchange to its log (``> sent``, ``< received``), bounded."""
        if self._exchange is None or self._exchanged >= LOG_LIMIT_BYTES:
            return
        text = f"{direction} {printable(line, MAX_ENGINE_LINE)}\n"
        self._exchanged += len(text)
        with self._exchange.open("a", encoding="utf-8") as log:
            log.write(text)
            if self._exchanged >= LOG_LIMIT_BYTES:
                log.write("[the rest of the exchange was left out]\n")


def _options_file(options: bytes) -> int:
    """A file in memory holding bubblewrap's options, read from its start (``--args``).

    Not a pipe: written before bubblewrap runs, a pipe would block past 64 kB (a
    submission of many files), and in the event loop at that.
    """
    descriptor = os.memfd_create("c4tui-bwrap-options")
    os.write(descriptor, options)
    os.lseek(descriptor, 0, os.SEEK_SET)
    return descriptor


def _shown(line: bytes) -> str:
    """A line of standard error as a failure's detail shows it: its controls made visible."""
    return printable(line.decode("utf-8", "replace").strip())
