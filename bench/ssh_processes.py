"""The processes ``bench/ssh.py`` watches: a server's visitors' apps, their memory and CPU.

Read from Linux's /proc: RSS (VmRSS), PSS (``smaps_rollup``, where the kernel has it),
processor time (user + system), and the processes below a process.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loadgen import memory_kib, process_cpu

MB = 1024 * 1024


@dataclass(frozen=True)
class Memory:
    """A process's memory now, in bytes (PSS None where the kernel has no smaps_rollup)."""

    rss: int
    pss: int | None


def memory_of(pid: int) -> Memory:
    """``pid``'s resident set (VmRSS) and proportional set size (smaps_rollup's Pss)."""
    return Memory(memory_kib(pid) * 1024, _pss(pid))


def _pss(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as lines:
            for line in lines:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, theirs, ...), read from /proc."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            found += children
            waiting += children
    return found


def visitor_apps(server: int) -> list[int]:
    """The server's visitors' apps (``c4tui --ssh-visitor``) and what they started."""
    apps: list[int] = []
    for child in descendants(server):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--ssh-visitor" in command:
            apps += [child, *descendants(child)]
    return apps


def total(pids: list[int]) -> Memory:
    """The memory of ``pids`` together (processes gone meanwhile are left out)."""
    rss, pss = 0, 0
    for pid in pids:
        try:
            each = memory_of(pid)
        except (OSError, RuntimeError):
            continue
        rss += each.rss
        pss += each.pss or 0
    return Memory(rss, pss)


def shown(memory: Memory) -> str:
    """``memory`` in MB, RSS then PSS."""
    pss = "n/a" if memory.pss is None else f"{memory.pss / MB:.1f}"
    return f"RSS {memory.rss / MB:6.1f} MB, PSS {pss} MB"


def cpu_of(pids: list[int]) -> float:
    """Seconds of processor time ``pids`` have used together (those gone count 0)."""
    return sum(process_cpu(pid) for pid in pids)
