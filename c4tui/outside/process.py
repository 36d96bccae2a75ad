"""One outside program's process: its own process group, lines with limits, standard error drained.

Whatever the program does, the caller keeps control: every read has a deadline,
a line has a length limit, standard error is read all the time (a chatty program
cannot fill the pipe and block), and ``kill`` ends the whole process group (a
shell and what it started) and reaps the child, then whatever is left in its
cgroup, so nothing is left behind. It runs in a folder of its own, with its
``Confinement``'s limits, and inherits no file descriptor but its three streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from c4tui.outside.chooser import EXIT_SECONDS, FailureKind, OutsideFailure
from c4tui.outside.confinement import Confinement
from c4tui.protocols.engine import MAX_ENGINE_LINE

#: The last lines of standard error kept to say why a program crashed.
STDERR_TAIL_LINES = 5
#: At most this much of a program's standard error goes to its log file.
LOG_LIMIT_BYTES = 1 << 20
_CHUNK = 4096


class OutsideProcess:
    """A started program; made by ``start``.

    Raises OutsideFailure (crash, time or malformed) from ``send`` and ``read_line``;
    the caller then ``kill``s it.
    """

    def __init__(
        self, process: asyncio.subprocess.Process, confinement: Confinement, log: Path | None
    ) -> None:
        self._process = process
        self._confinement = confinement
        self._tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._log = log
        self._logged = 0
        self._drain = asyncio.create_task(self._drain_stderr())

    @classmethod
    async def start(
        cls, argv: Sequence[str], *, stderr_log: Path | None = None, memory_mb: int | None = None
    ) -> OutsideProcess:
        """Start ``argv`` confined, in a process group of its own.

        ``memory_mb``: its address space (None: no limit). Raises OutsideFailure
        (crash) if it cannot start.
        """
        confinement = Confinement.prepare(memory_mb)
        try:
            process = await asyncio.create_subprocess_exec(
                *confinement.wrap(argv),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # its own group: kill takes what it started too
                limit=MAX_ENGINE_LINE + 2,
                cwd=confinement.folder,
                close_fds=True,  # (the default, and the point: the tournament's files stay ours)
            )
        except OSError as error:
            confinement.remove()
            raise OutsideFailure(FailureKind.CRASH, f"could not start: {error}") from None
        except asyncio.CancelledError:
            confinement.remove()
            raise
        return cls(process, confinement, stderr_log)

    @property
    def pid(self) -> int:
        """The child's process id (also its process group's)."""
        return self._process.pid

    async def send(self, line: str) -> None:
        """Write ``line`` and its end. Raises OutsideFailure (crash) if the program is gone."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode("ascii", "replace") + b"\n")
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise await self._crashed() from None

    async def read_line(self, deadline: float, patience: str = "in time") -> str:
        """The next line (without its end), read by ``deadline`` (``time.monotonic()``).

        Raises OutsideFailure: time (nothing by the deadline: "no answer" and
        ``patience``), crash (the program exited; its status and last words),
        malformed (a line past the limit).
        """
        stdout = self._process.stdout
        assert stdout is not None
        try:
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                raw = await stdout.readline()
        except TimeoutError:
            raise OutsideFailure(FailureKind.TIME, f"no answer {patience}") from None
        except ValueError:  # the stream's limit: a line longer than any answer
            raise OutsideFailure(
                FailureKind.MALFORMED, f"a line longer than {MAX_ENGINE_LINE} bytes"
            ) from None
        if not raw.endswith(b"\n"):
            raise await self._crashed()
        return raw.decode("utf-8", "replace").rstrip("\r\n")

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
        """End the program's whole process group at once and reap the child (no zombie)."""
        # The child leads its session, so it cannot leave its group: one killpg reaches
        # it. (Process.kill would poll, and could reap it before asyncio's child watcher,
        # which then logs "Unknown child process" and reports status 255.)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        await self._process.wait()
        await self._confinement.release()  # what left the group, where a cgroup holds it
        # A process that left the group may hold standard error open: stop reading then.
        await asyncio.wait({self._drain}, timeout=EXIT_SECONDS)
        self._drain.cancel()
        stdin = self._process.stdin
        if stdin is not None:
            stdin.close()

    async def _crashed(self) -> OutsideFailure:
        """The failure of a program that stopped talking: its exit status and last words."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(EXIT_SECONDS):
                await self._process.wait()
                await asyncio.shield(self._drain)
        status = self._process.returncode
        if status is None:
            how = "closed its output"
        elif status < 0:
            how = f"was killed by signal {-status}"
        else:
            how = f"exited with status {status}"
        last = f": {self._tail[-1]}" if self._tail else ""
        return OutsideFailure(FailureKind.CRASH, how + last)

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

    def _write_log(self, chunk: bytes) -> None:
        if self._log is None or self._logged >= LOG_LIMIT_BYTES:
            return
        kept = chunk[: LOG_LIMIT_BYTES - self._logged]
        self._logged += len(kept)
        with self._log.open("ab") as log:
            log.write(kept)
            if self._logged >= LOG_LIMIT_BYTES:
                log.write(b"\n[the rest of standard error was left out]\n")


def _shown(line: bytes) -> str:
    """A line of standard error as a person reads it in a failure's detail."""
    text = line.decode("utf-8", "replace").strip()
    return text if len(text) <= 200 else text[:200] + "…"
