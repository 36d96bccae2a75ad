"""The C load generator (``bench/loadgen.c``): built with the system's gcc, run on its own core.

Why a C client: at 2,000 playing clients the Python asyncio generator took most of a
core and its own scheduling showed up in the round trips (p99 743 ms). The C client
(one epoll loop, a few microseconds per move) leaves the measurement to the server.
It is compiled at run time into a cache directory under the system's temporary
directory, keyed by the source's hash; nothing binary is kept in the repository.

Also here: the processor time a process used (``/proc/PID/stat``) and the whole
machine's (``/proc/stat``), so a report can say how much of the cores other programs
took during a run (the machine may be shared), and the server's memory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SOURCE = Path(__file__).with_name("loadgen.c")
#: The server runs on this core, the generator on the other (the machine has two).
SERVER_CORE = 0
LOADGEN_CORE = 1
TICKS = os.sysconf("SC_CLK_TCK")


def build() -> Path:
    """The compiled generator (built now unless this source was built before)."""
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    binary = Path(tempfile.gettempdir()) / f"c4tui-loadgen-{digest}"
    if binary.exists():
        return binary
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise RuntimeError("the load generator needs gcc (or cc) to build bench/loadgen.c")
    partial = binary.with_suffix(f".{os.getpid()}.tmp")
    subprocess.run(
        [compiler, "-O2", "-Wall", "-o", str(partial), str(SOURCE)], check=True, timeout=120
    )
    partial.replace(binary)
    return binary


def pin(pid: int, core: int) -> None:
    """Keep process ``pid`` on ``core`` (when the machine has it)."""
    if hasattr(os, "sched_setaffinity") and core < (os.cpu_count() or 1):
        os.sched_setaffinity(pid, {core})


@dataclass(frozen=True)
class Totals:
    """Moves of one protocol (or all): counts, throughput and round trips in ms."""

    moves: int
    games: int
    moves_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float


@dataclass
class LoadResult:
    """What the generator reported, and the processor time both sides used."""

    totals: dict[str, Totals] = field(default_factory=dict)
    errors: int = 0
    peak_open: int = 0
    held: int = 0
    holders: int = 0
    last_error: str = ""
    seconds: float = 0.0
    server_cpu: float = 0.0  # seconds of processor time in the run
    loadgen_cpu: float = 0.0
    other_cpu: float = 0.0  # seconds other programs on the machine took meanwhile

    @property
    def all(self) -> Totals:
        """The figures over every protocol."""
        return self.totals["all"]


@dataclass(frozen=True)
class Load:
    """One run of the generator: who plays what, how fast, for how long."""

    protocol: str
    players: int
    seconds: float
    warmup: float = 2.0
    holders: int = 0
    rate: float = 0.0  # moves per second per player; 0: the next move as soon as answered
    seed: int = 1


def process_cpu(pid: int) -> float:
    """Seconds of processor time ``pid`` has used (user + system); 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_cpu() -> float:
    """Seconds of processor time the whole machine has used (every core, not idle)."""
    with open("/proc/stat", encoding="ascii") as stat:
        numbers = [int(n) for n in stat.readline().split()[1:]]
    idle = numbers[3] + numbers[4]  # idle and iowait
    return (sum(numbers[:8]) - idle) / TICKS


def memory_kib(pid: int, key: str = "VmRSS") -> int:
    """A /proc/PID/status memory figure (VmRSS, VmHWM) in KiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} for process {pid}")


def run(
    port: int, load: Load, server_pid: int, on_held: Callable[[], None] | None = None
) -> LoadResult:
    """Run ``load`` against the server on ``port``; bounded by its seconds plus a minute.

    ``on_held`` is called once the holders are all in (before the players start).
    """
    command = [str(build()), str(port), load.protocol, str(load.players), str(load.holders)]
    command += [str(load.seconds), str(load.warmup), str(load.seed), str(load.rate)]
    result = LoadResult(holders=load.holders)
    generator = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    pin(generator.pid, LOADGEN_CORE)
    lines: list[str] = []
    try:
        assert generator.stdout is not None
        began = machine_cpu(), process_cpu(server_pid), time.monotonic()
        for line in generator.stdout:
            lines.append(line)
            if line.startswith("held ") and on_held is not None:
                on_held()
                began = machine_cpu(), process_cpu(server_pid), time.monotonic()
            if line.startswith("all "):  # the players are done: measure before it exits
                result.server_cpu = process_cpu(server_pid) - began[1]
                result.loadgen_cpu = process_cpu(generator.pid)
                result.seconds = time.monotonic() - began[2]
                result.other_cpu = max(
                    0.0, machine_cpu() - began[0] - result.server_cpu - result.loadgen_cpu
                )
        generator.wait(timeout=load.seconds + 60)
    finally:
        if generator.poll() is None:
            generator.kill()
            generator.wait()
    parse(lines, result)
    return result


def parse(lines: list[str], result: LoadResult) -> None:
    """Fill ``result`` from the generator's report lines."""
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] in ("all", "i32cfsp", "cfsp", "c4n"):
            values = dict(zip(words[1::2], words[2::2], strict=False))
            result.totals[words[0]] = Totals(
                int(values["moves"]),
                int(values["games"]),
                float(values["moves_per_s"]),
                float(values["p50_ms"]),
                float(values["p99_ms"]),
                float(values["max_ms"]),
            )
        elif words[0] == "errors":
            result.errors, result.peak_open = int(words[1]), int(words[3])
            result.held = int(words[5])
        elif words[0] == "last_error":
            result.last_error = line.partition(" ")[2].strip()
    if "all" not in result.totals:
        raise RuntimeError(f"the load generator reported nothing: {''.join(lines)[-300:]!r}")
