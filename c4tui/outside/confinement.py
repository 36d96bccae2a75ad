"""What bounds one outside program as a whole: memory, processes and CPU for all of it together.

- **Cgroups**: where they can be made (root can, on most machines; cgroup v1's
  hierarchies or v2's, probed once), each program gets its own for
  - memory: all its processes together (``memory.limit_in_bytes``, with swap, or
    ``memory.max``): over it the kernel kills it, and it loses "used more than N MB";
  - processes and threads (``pids.max``): a fork bomb ends as that program's loss;
  - CPU: one core at most (``cpu.cfs_quota_us`` or ``cpu.max``), so a program busy
    between its moves cannot starve its opponent;
  everything left in them is killed, and they are removed, after the program ends.
- **Fallbacks**: without a memory cgroup, ``RLIMIT_AS`` for each process, set at
  ``ADDRESS_SPACE_FACTOR`` times the bound (a JVM reserves far more than it uses);
  without a pids cgroup, ``RLIMIT_NPROC`` for a user who is not root (the user's
  processes at the start plus the bound). Root without cgroups has only the time
  limit and the sandbox's PID namespace: that is logged once.
- **The sandbox** (``sandbox.py``): namespaces, what it may see; or, unconfined, a
  fresh temporary folder as its working folder.

``limits_runner.py`` joins the cgroups and sets the limits in the child, then becomes
bubblewrap (or the program); ``Confinement.command`` builds that whole command.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import replace
from functools import cache
from pathlib import Path

from c4tui.outside import limits_runner
from c4tui.outside.bounds import CPU_CORES, Bounds
from c4tui.outside.sandbox import Launch, bwrap_command, bwrap_program, sandbox_path

log = logging.getLogger("c4tui.outside")

#: RLIMIT_AS, where no memory cgroup can be had, is this many times the memory bound.
ADDRESS_SPACE_FACTOR = 4
_PERIOD_US = 100_000
#: The variable every JVM reads its options from (the memory bound goes there).
JAVA_VARIABLE = "JAVA_TOOL_OPTIONS"
#: Variables of c4tui's environment an unconfined program never gets (besides ``C4TUI_*``).
SECRET_VARIABLES = frozenset({"PGPASSWORD", "REDISCLI_AUTH"})
_MOUNTS = Path("/proc/self/mountinfo")
_OWN_CGROUPS = Path("/proc/self/cgroup")
_names = itertools.count()

#: Each controller's limit file in cgroup v1 and v2, and the value it is given.
_LIMIT_FILES = {
    "pids": ("pids.max", "pids.max"),
    "memory": ("memory.limit_in_bytes", "memory.max"),
    "cpu": ("cpu.cfs_quota_us", "cpu.max"),
}


def _hierarchies(controller: str) -> list[tuple[Path, int]]:
    """This process's cgroup folders that may hold ``controller``, v1's first, with versions."""
    try:
        mounts = _MOUNTS.read_text().splitlines()
        own = _OWN_CGROUPS.read_text().splitlines()
    except OSError:
        return []
    own_path = {}
    for line in own:  # "8:pids:/path" (v1) or "0::/path" (v2)
        _, controllers, path = line.split(":", 2)
        own_path[controller if controller in controllers.split(",") else controllers] = path
    found = []
    for mount in mounts:  # "… root mountpoint options - fstype source superoptions"
        fields, _, tail = mount.partition(" - ")
        root, point = fields.split()[3:5]
        fstype, _, options = tail.split()[:3]
        if fstype == "cgroup" and controller in options.split(","):
            version, key = 1, controller
        elif fstype == "cgroup2":
            version, key = 2, ""
        else:
            continue
        if key in own_path:
            relative = own_path[key].removeprefix(root) if root != "/" else own_path[key]
            found.append((Path(point, relative.lstrip("/")), version))
    return sorted(found, key=lambda hierarchy: hierarchy[1])


@cache
def usable_hierarchy(controller: str) -> tuple[Path, int] | None:
    """The first hierarchy where a cgroup with ``controller`` can be made (probed once)."""
    for parent, version in _hierarchies(controller):
        probe = _new_cgroup(parent, version, {controller: _probe_value(controller, version)})
        if probe is not None:
            _remove_cgroup(probe)
            _clear_abandoned(parent)
            return parent, version
    return None


def _probe_value(controller: str, version: int) -> str:
    return {"pids": "64", "memory": str(1 << 30), "cpu": _cpu_value(version)}[controller]


def _cpu_value(version: int) -> str:
    quota = CPU_CORES * _PERIOD_US
    return f"{quota} {_PERIOD_US}" if version == 2 else str(quota)


def _clear_abandoned(parent: Path) -> None:
    """End and remove the cgroups an earlier c4tui left (it was killed before it cleaned up)."""
    for cgroup in parent.glob("c4tui-*-*"):
        owner = cgroup.name.split("-")[1]
        if owner.isdigit() and not Path("/proc", owner).exists():
            for pid in _members(cgroup):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            _remove_cgroup(cgroup)  # (not yet, if what was in it is still dying)


@cache
def process_bound() -> str | None:
    """What bounds a program's processes here, in words; None: nothing but the time limit.

    Logged once when nothing holds.
    """
    hierarchy = usable_hierarchy("pids")
    if hierarchy is not None:
        return f"a pids cgroup (v{hierarchy[1]})"
    if os.geteuid() != 0 and limits_runner.user_tasks() is not None:
        return "RLIMIT_NPROC (the user's processes and the bound more)"
    log.info(
        "outside programs run without a writable pids cgroup, as root or where the user's "
        "processes cannot be counted: only the time limit and the sandbox bound what they "
        "start (a fork bomb included)"
    )
    return None


#: Seconds a killed program's cgroups are waited for to empty (its processes reaped).
CGROUP_PATIENCE = 5.0


def _new_cgroup(parent: Path, version: int, limits: dict[str, str]) -> Path | None:
    """A new cgroup under ``parent`` with ``limits`` (controller → value); None if not made."""
    folder = parent / f"c4tui-{os.getpid()}-{next(_names)}"
    try:
        folder.mkdir()
    except OSError:
        return None
    try:
        for controller, value in limits.items():
            (folder / _LIMIT_FILES[controller][version - 1]).write_text(f"{value}\n", "ascii")
            if controller == "memory" and version == 1:  # swap may not stretch the bound
                with contextlib.suppress(OSError):
                    (folder / "memory.memsw.limit_in_bytes").write_text(f"{value}\n", "ascii")
            if controller == "memory" and version == 2:
                with contextlib.suppress(OSError):
                    (folder / "memory.swap.max").write_text("0\n", "ascii")
    except OSError:  # no such controller there (cgroup v2 without it enabled)
        _remove_cgroup(folder)
        return None
    return folder


def _remove_cgroup(folder: Path) -> bool:
    """Remove the cgroup at ``folder``: True once it is gone."""
    try:
        folder.rmdir()
    except FileNotFoundError:
        return True
    except OSError:  # still holds a process (one not yet reaped)
        return False
    return True


def _members(cgroup: Path) -> list[int]:
    try:
        return [int(word) for word in (cgroup / "cgroup.procs").read_text().split()]
    except OSError:
        return []


def _counter(path: Path, key: str) -> int:
    """The number after ``key`` in a cgroup's flat-keyed file (``oom_kill 1``); 0 if none."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        words = line.split()
        if len(words) == 2 and words[0] == key and words[1].isdigit():
            return int(words[1])
    return 0


class Confinement:
    """One program's cgroups, sandbox or private folder, from before it starts until after it ends.

    Made by ``prepare``; ``release`` once the program's process group is killed.
    """

    def __init__(self, bounds: Bounds, sandboxed: bool) -> None:
        self.bounds = bounds
        self.sandboxed = sandboxed
        #: The host folder an unconfined program works in (a sandboxed one has its own).
        self.folder = None if sandboxed else Path(tempfile.mkdtemp(prefix="c4tui-program-"))
        self.cgroups: dict[str, Path] = {}
        self._make_cgroups()

    @classmethod
    def prepare(cls, bounds: Bounds, *, sandboxed: bool) -> Confinement:
        """A fresh folder, and cgroups where they can be made."""
        process_bound()  # said once where nothing holds
        return cls(bounds, sandboxed)

    def _make_cgroups(self) -> None:
        wanted = {"pids": str(self.bounds.processes), "cpu": ""}
        if self.bounds.memory_mb is not None:
            wanted["memory"] = str(self.bounds.memory_mb * 1024 * 1024)
        by_place: dict[tuple[Path, int], dict[str, str]] = {}
        for controller, value in wanted.items():
            hierarchy = usable_hierarchy(controller)
            if hierarchy is not None:
                shown = value or _cpu_value(hierarchy[1])
                by_place.setdefault(hierarchy, {})[controller] = shown
        for (parent, version), limits in by_place.items():
            cgroup = _new_cgroup(parent, version, limits)
            if cgroup is not None:
                self.cgroups.update(dict.fromkeys(limits, cgroup))

    def command(self, launch: Launch, args_fd: int | None = None) -> list[str]:
        """``launch`` started by ``limits_runner`` (cgroups joined, limits set), sandboxed.

        Sandboxed, bubblewrap reads its own arguments from ``args_fd`` (``arguments``
        wrote them there), so its command line does not show them in the sandbox's
        ``/proc/1/cmdline`` (the mounts' sources still show in ``/proc/self/mountinfo``:
        the paths, never what is not granted).
        """
        options: list[str] = []
        for cgroup in dict.fromkeys(self.cgroups.values()):
            options += ["--cgroup", str(cgroup)]
        if "pids" not in self.cgroups and os.geteuid() != 0 and not self._nproc_inside():
            options += ["--max-processes", str(self.bounds.processes)]
        memory = self.bounds.memory_mb
        if memory is not None and "memory" not in self.cgroups:
            options += ["--memory-mb", str(memory * ADDRESS_SPACE_FACTOR)]
        if not self.sandboxed:
            program = list(launch.argv)
        else:  # (bubblewrap takes the command itself only on its command line)
            bwrap, argv = bwrap_program() or "bwrap", self._bounded(launch).argv
            program = [bwrap, "--args", str(args_fd), "--", *argv]
        return [sys.executable, "-I", "-S", limits_runner.__file__, *options, "--", *program]

    def arguments(self, launch: Launch) -> bytes:
        """bubblewrap's options for ``launch``, as ``--args`` reads them (each ends in NUL)."""
        words = self._bwrap(launch)
        options = words[1 : words.index("--")]
        return b"".join(word.encode() + b"\0" for word in options)

    def _nproc_inside(self) -> str | None:
        """``prlimit`` as the sandbox sees it, where RLIMIT_NPROC is set inside it; else None.

        A user who is not root and has no pids cgroup: the limit set inside the sandbox's
        own user namespace counts only this program's processes (set outside, it counts
        all of the user's, and one program's fork bomb would starve its opponent).
        """
        if not self.sandboxed or "pids" in self.cgroups or os.geteuid() == 0:
            return None
        return shutil.which("prlimit", path=os.pathsep.join(sandbox_path()))

    def _bounded(self, launch: Launch) -> Launch:
        """``launch`` started by ``prlimit`` inside the sandbox where that bounds its processes."""
        prlimit = self._nproc_inside()
        if prlimit is None:
            return launch
        nproc = f"--nproc={self.bounds.processes}"
        return replace(launch, argv=(prlimit, nproc, "--", *launch.argv))

    def _bwrap(self, launch: Launch) -> list[str]:
        launch, memory = self._bounded(launch), self.bounds.memory_mb
        if memory is not None:
            # A JVM cannot see its cgroup from the sandbox: told its bound, it sizes its
            # heap to it and collects its garbage before the kernel would kill it.
            told = {**launch.environment, JAVA_VARIABLE: f"-XX:MaxRAM={memory}m"}
            launch = replace(launch, environment=told)
        tmp = None if memory is None else memory * 1024 * 1024
        return bwrap_command(bwrap_program() or "bwrap", launch, tmp_bytes=tmp)

    def environment(self) -> dict[str, str]:
        """The environment c4tui starts the program's process with.

        Sandboxed, almost nothing: bubblewrap's own init (the sandbox's process 1, whose
        ``/proc/1/environ`` the program can read) keeps what it is started with, and the
        program itself gets its fresh one from ``--setenv``. Unconfined, c4tui's, less
        its secrets (a bot's password, a database's).
        """
        if self.sandboxed:
            return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        return {
            name: value
            for name, value in os.environ.items()
            if not name.startswith("C4TUI_") and name not in SECRET_VARIABLES
        }

    def working_folder(self, launch: Launch) -> Path:
        """Where the process starts: bubblewrap at the root (it changes folder), else ``cwd``."""
        if self.folder is None:
            return Path("/")
        return Path(launch.cwd) if launch.cwd else self.folder

    def exceeded(self) -> str | None:
        """The bound a program that stopped ran into, in words; None if none.

        Its memory (``used more than 1024 MB``), else its processes (``tried to run
        more than 256``): a crash after a refused fork is said so.
        """
        memory = self.memory_exceeded()
        if memory is not None:
            return memory
        pids = self.cgroups.get("pids")
        if pids is not None and _counter(pids / "pids.events", "max"):
            return f"tried to run more than {self.bounds.processes} processes and threads"
        return None

    def memory_exceeded(self) -> str | None:
        """``used more than 1024 MB …`` once the kernel killed one of its processes for memory.

        Unlike a refused fork (the bound held), that is over the bound: it loses even
        when it plays on.
        """
        memory = self.cgroups.get("memory")
        if memory is None or self.bounds.memory_mb is None:
            return None
        kills = _counter(memory / "memory.events", "oom_kill")
        kills += _counter(memory / "memory.oom_control", "oom_kill")
        if not kills:
            return None
        return f"used more than {self.bounds.memory_mb} MB (all its processes together)"

    async def release(self) -> None:
        """End whatever is left in the cgroups (what left the process group too), then clean up.

        A killed process stays in its cgroup until it is reaped — by its parent, or by
        init for one that left its group — and the cgroup cannot be removed till then:
        its removal is tried again for up to ``CGROUP_PATIENCE`` seconds (a later c4tui
        removes one left even so).
        """
        for cgroup in dict.fromkeys(self.cgroups.values()):
            deadline = time.monotonic() + CGROUP_PATIENCE
            while time.monotonic() < deadline:
                members = _members(cgroup)
                for pid in members:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                if not members and _remove_cgroup(cgroup):
                    break
                await asyncio.sleep(0.005)
        self.remove()

    def remove(self) -> None:
        """Remove the cgroups and the folder (with what the program left in it)."""
        for cgroup in dict.fromkeys(self.cgroups.values()):
            _remove_cgroup(cgroup)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
