"""What one outside program is confined to: its own folder, a bound on its processes, its memory.

- **Its own folder**: each program starts in a fresh temporary folder, removed
  after it ends, so it neither reads nor writes the tournament's files by
  accident (what its command names is made absolute first: ``EngineChooser``).
- **Processes**: a fork bomb must end as that program's loss and leave nothing
  behind. Where a pids cgroup can be made (cgroup v1's ``pids`` hierarchy, or v2
  with the ``pids`` controller; root can, on most machines), each program gets one
  with ``pids.max`` = ``MAX_PROCESSES``, joins it before it runs, and everything
  left in it is killed and the cgroup removed after the program is. Elsewhere, for
  a user who is not root, ``RLIMIT_NPROC`` bounds it (the user's processes at the
  start plus ``MAX_PROCESSES``: the limit counts all of the user's processes).
  Root without a writable cgroup has neither (RLIMIT_NPROC does not hold for
  root): then the time limit and killing the process group are the only bound,
  and that is logged once (``c4tui.outside``, at INFO).
- **Memory**: ``RLIMIT_AS`` for each of its processes.

The limits are set by ``limits_runner.py`` in the child before the program runs;
``Confinement.wrap`` puts it before the program's command.
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
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from c4tui.outside import limits_runner

log = logging.getLogger("c4tui.outside")

#: Processes and threads a program may have at once, its own and all it starts
#: (NumPy's threads included).
MAX_PROCESSES = 128
_MOUNTS = Path("/proc/self/mountinfo")
_OWN_CGROUPS = Path("/proc/self/cgroup")
_names = itertools.count()


def _pids_hierarchies() -> list[tuple[Path, int]]:
    """This process's cgroup folders that may hold a pids controller, v1's first, and versions."""
    try:
        mounts = _MOUNTS.read_text().splitlines()
        own = _OWN_CGROUPS.read_text().splitlines()
    except OSError:
        return []
    own_path = {}
    for line in own:  # "8:pids:/path" (v1) or "0::/path" (v2)
        _, controllers, path = line.split(":", 2)
        own_path["pids" if "pids" in controllers.split(",") else controllers] = path
    found = []
    for mount in mounts:  # "… root mountpoint options - fstype source superoptions"
        fields, _, tail = mount.partition(" - ")
        root, point = fields.split()[3:5]
        fstype, _, options = tail.split()[:3]
        if fstype == "cgroup" and "pids" in options.split(","):
            version, key = 1, "pids"
        elif fstype == "cgroup2":
            version, key = 2, ""
        else:
            continue
        if key in own_path:
            relative = own_path[key].removeprefix(root) if root != "/" else own_path[key]
            found.append((Path(point, relative.lstrip("/")), version))
    return sorted(found, key=lambda hierarchy: hierarchy[1])


@cache
def _usable_hierarchy() -> tuple[Path, int] | None:
    """The first pids hierarchy where a cgroup can be made (probed once: made and removed)."""
    for hierarchy in _pids_hierarchies():
        probe = _new_cgroup(hierarchy[0])
        if probe is not None:
            _remove_cgroup(probe)
            _clear_abandoned(hierarchy[0])
            return hierarchy
    return None


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
    hierarchy = _usable_hierarchy()
    if hierarchy is not None:
        return f"a pids cgroup (v{hierarchy[1]}, at most {MAX_PROCESSES})"
    if os.geteuid() != 0 and limits_runner.user_tasks() is not None:
        return f"RLIMIT_NPROC (the user's processes and {MAX_PROCESSES} more)"
    log.info(
        "outside programs run without a writable pids cgroup, as root or where the user's "
        "processes cannot be counted: only the time limit and killing the process group "
        "bound what they start (a fork bomb included)"
    )
    return None


#: Seconds a killed program's cgroup is waited for to empty (its processes reaped).
CGROUP_PATIENCE = 5.0


def _new_cgroup(parent: Path) -> Path | None:
    """A new pids cgroup under ``parent`` with ``pids.max`` set; None if one cannot be made."""
    folder = parent / f"c4tui-{os.getpid()}-{next(_names)}"
    try:
        folder.mkdir()
    except OSError:
        return None
    try:
        (folder / "pids.max").write_text(f"{MAX_PROCESSES}\n", encoding="ascii")
    except OSError:  # no pids controller there (cgroup v2 without it enabled)
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


class Confinement:
    """One program's private folder and process bound, from before it starts until after it ends.

    Made by ``prepare``; ``release`` once the program's process group is killed.
    """

    def __init__(self, folder: Path, cgroup: Path | None, memory_mb: int | None) -> None:
        self.folder = folder
        self.cgroup = cgroup
        self.memory_mb = memory_mb

    @classmethod
    def prepare(cls, memory_mb: int | None) -> Confinement:
        """A fresh folder, and a cgroup where one can be made."""
        folder = Path(tempfile.mkdtemp(prefix="c4tui-program-"))
        process_bound()  # said once where nothing holds
        hierarchy = _usable_hierarchy()
        cgroup = _new_cgroup(hierarchy[0]) if hierarchy is not None else None
        return cls(folder, cgroup, memory_mb)

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """``argv`` started by ``limits_runner``, which sets the limits first."""
        options = []
        if self.cgroup is not None:
            options += ["--cgroup", str(self.cgroup)]
        elif os.geteuid() != 0:
            options += ["--max-processes", str(MAX_PROCESSES)]
        if self.memory_mb is not None:
            options += ["--memory-mb", str(self.memory_mb)]
        return [sys.executable, "-I", "-S", limits_runner.__file__, *options, "--", *argv]

    async def release(self) -> None:
        """End whatever is left in the cgroup (what left the process group too), then clean up.

        A killed process stays in its cgroup until it is reaped — by its parent, or by
        init for one that left its group — and the cgroup cannot be removed till then:
        its removal is tried again for up to ``CGROUP_PATIENCE`` seconds (a later c4tui
        removes one left even so).
        """
        if self.cgroup is not None:
            deadline = time.monotonic() + CGROUP_PATIENCE
            while time.monotonic() < deadline:
                members = _members(self.cgroup)
                for pid in members:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                if not members and _remove_cgroup(self.cgroup):
                    break
                await asyncio.sleep(0.005)
        self.remove()

    def remove(self) -> None:
        """Remove the cgroup and the folder (with what the program left in it)."""
        if self.cgroup is not None:
            _remove_cgroup(self.cgroup)
        shutil.rmtree(self.folder, ignore_errors=True)
