"""Sets an outside program's limits on itself, then becomes the program (``exec``).

Started by ``OutsideProcess`` as ``python -I -S …/limits_runner.py [--memory-mb M]
[--cgroup DIR] [--max-processes N] -- PROGRAM ARGS…``; the standard library only,
so it costs a few milliseconds. Done here, in the child before the program runs,
rather than after it started, so nothing the program does comes first:

- ``--cgroup DIR`` (once for each hierarchy): join that cgroup (its ``pids.max``,
  ``memory`` and ``cpu`` limits bound everything the program starts, root included);
- ``--max-processes N``: ``RLIMIT_NPROC`` at the user's processes now plus N (it
  counts all of the user's processes, and does not hold for root);
- ``--memory-mb M``: ``RLIMIT_AS``, the address space of each of its processes;
- always, on Linux: the program is killed if c4tui dies (``PR_SET_PDEATHSIG``), so a
  server or tournament killed with SIGKILL leaves no program running on its own.

Limits are inherited through ``exec`` and ``fork``. Exits with status 127 if the
program cannot be started.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
from pathlib import Path

#: prctl's request: the signal this process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def join_cgroup(folder: str) -> None:
    """Move this process into the cgroup at ``folder``."""
    Path(folder, "cgroup.procs").write_text(f"{os.getpid()}\n", encoding="ascii")


def user_tasks() -> int | None:
    """Processes and threads of this process's real user now: what RLIMIT_NPROC counts.

    None where ``/proc`` cannot tell (not Linux).
    """
    if not Path("/proc/self/status").exists():
        return None
    uid = os.getuid()
    count = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
            )
        except OSError:
            continue  # gone while we looked
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            count += int(fields.get("Threads", "1"))
    return count


def die_with_parent() -> None:
    """Ask Linux to kill this process (then the program) when its parent dies; exit if it has."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the caller's kill still ends it
        return
    if os.getppid() != parent:  # the parent died before the request: nobody is left to ask
        sys.exit(127)


def lower(limit: int, value: int) -> None:
    """Set resource ``limit`` to ``value`` (or leave a lower hard limit in place).

    Where the system refuses (macOS and ``RLIMIT_AS``), it says so and goes on: the
    time limit and the process group still hold.
    """
    _, hard = resource.getrlimit(limit)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    try:
        resource.setrlimit(limit, (value, value))
    except (ValueError, OSError) as error:
        print(f"limits_runner: limit {limit} not set: {error}", file=sys.stderr)


def main(argv: list[str]) -> int:
    """Set the limits ``argv`` asks for, then become the program after ``--``."""
    split = argv.index("--") if "--" in argv else len(argv)
    options, program = argv[:split], argv[split + 1 :]
    pairs = list(zip(options[::2], options[1::2], strict=False))
    settings = dict(pairs)
    if not program:
        print("limits_runner: no program after --", file=sys.stderr)
        return 127
    die_with_parent()
    for cgroup in (value for option, value in pairs if option == "--cgroup"):
        try:
            join_cgroup(cgroup)
        except OSError as error:  # the time limit and the sandbox still hold
            print(f"limits_runner: not in the cgroup: {error}", file=sys.stderr)
    tasks = user_tasks() if "--max-processes" in settings else None
    if tasks is not None:
        lower(resource.RLIMIT_NPROC, tasks + int(settings["--max-processes"]))
    if "--memory-mb" in settings:
        lower(resource.RLIMIT_AS, int(settings["--memory-mb"]) * 1024 * 1024)
    try:
        os.execvp(program[0], program)
    except OSError as error:
        print(f"could not start {program[0]}: {error.strerror}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
