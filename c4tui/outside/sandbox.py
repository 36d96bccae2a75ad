"""The sandbox an outside program runs in: bubblewrap's whole command line, said as what it may see.

Following bubblewrap's own model, the list below says what a program may see, never
what it may not: a new root holding only

- the system's runtime, read-only: ``/usr`` (and the ``/bin``, ``/lib*`` beside it),
  the few files of ``/etc`` an interpreter or a JVM reads, c4tui's own Python (its
  prefix and its virtual environment's) and c4tui's package at ``/opt/c4tui``;
- the program's own files, read-only at a fixed path (``/program`` for an engine,
  ``/kaggle_simulations/agent`` for a Kaggle agent): the grants its ``Launch`` lists,
  in a working folder of its own that it may write (thrown away with it) unless a
  granted folder is its working folder;
- a private ``/tmp`` (its ``HOME``), thrown away with it, and its own ``/proc`` and
  minimal ``/dev``.

It runs in new user, PID, IPC, UTS, cgroup and network namespaces (no network at all,
not even the host's loopback), with no capability, its own session (no terminal to
write into), a fresh environment (``PATH``, ``HOME``, ``LANG``, ``PYTHONPATH`` for
c4tui's package: never c4tui's own variables) and no file descriptor but its pipes;
``--die-with-parent`` and the PID namespace end every process of it with c4tui,
even on ``kill -9``. Its bounds (memory, processes, CPU) are ``confinement.py``'s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import c4tui

#: The environment variable naming the bubblewrap program (default: ``bwrap`` on PATH).
BWRAP_VARIABLE = "C4TUI_BWRAP"
#: Where an engine's own files are, inside its sandbox.
PROGRAM_FOLDER = "/program"
#: Where c4tui's package is, inside (for the Kaggle runner and ``python -m c4tui engine``).
C4TUI_FOLDER = "/opt/c4tui"
#: What to tell a person whose machine has no sandbox for outside programs.
INSTALL_HINT = "apt-get install bubblewrap"
#: The folders of the root that may hold the system's runtime (links on a merged /usr).
_RUNTIME_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The files of /etc a dynamic linker, an interpreter or a JVM reads; nothing else of it.
_ETC_GRANTS = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/java-*-openjdk",
)


@dataclass(frozen=True)
class Grant:
    """A file or folder of the host a program may read, and where it sees it.

    ``link``: a symbolic link, made again inside as a link (its target read there, in
    the sandbox's own view), never followed on the host: a link in a submission must
    not bring in the file it points at (``key -> /root/.ssh/id_rsa``).
    """

    host: Path
    inside: str
    link: bool = False


@dataclass(frozen=True)
class Launch:
    """How to start a program: its command as it runs, the files it is given, its folder.

    ``argv`` and ``cwd`` name paths as the program sees them (inside the sandbox, or
    the host's when it runs unconfined); ``cwd`` None: a fresh folder of its own.
    """

    argv: tuple[str, ...]
    grants: tuple[Grant, ...] = ()
    cwd: str | None = PROGRAM_FOLDER
    environment: Mapping[str, str] = field(default_factory=dict)


def bwrap_program() -> str | None:
    """The bubblewrap program to run: ``C4TUI_BWRAP``, else ``bwrap`` on PATH; None if missing."""
    named = os.environ.get(BWRAP_VARIABLE) or "bwrap"
    return shutil.which(named)


@cache
def sandbox_problem() -> str | None:
    """Why no sandbox can be had here, in words; None when bubblewrap works (tried once)."""
    bwrap = bwrap_program()
    if bwrap is None:
        return f"bubblewrap is not installed: {INSTALL_HINT}"
    probe = [*bwrap_command(bwrap, Launch(("/bin/true",), cwd="/"), tmp_bytes=1 << 20)]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap could not run ({error})"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[-1] if said else f"status {done.returncode}"
        return f"bubblewrap cannot make a sandbox here ({why}): user namespaces may be off"
    return None


def bwrap_command(bwrap: str, launch: Launch, *, tmp_bytes: int | None) -> list[str]:
    """The whole command line that runs ``launch`` in its sandbox (``tmp_bytes``: /tmp's size)."""
    command = [bwrap, *_isolation(), *_environment(launch.environment)]
    command += [*_size(tmp_bytes), "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
    # /dev's own tmpfs would hold half the machine's memory: shared memory gets a bound.
    command += [*_size(tmp_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    for grant in runtime_grants():
        command += _bind(grant)
    if launch.cwd not in (None, "/", "/tmp") and all(g.inside != launch.cwd for g in launch.grants):
        # Its working folder: writable and thrown away, its grants read-only in it.
        command += [*_size(tmp_bytes), "--tmpfs", str(launch.cwd)]
    for grant in launch.grants:
        command += _bind(grant)
    command += ["--remount-ro", "/", "--chdir", launch.cwd or "/tmp", "--", *launch.argv]
    return command


def _isolation() -> list[str]:
    """Every namespace new, no capability, its own session, its end tied to c4tui's."""
    options = ["--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net"]
    options += ["--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    options += ["--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"]
    options += ["--die-with-parent", "--new-session"]
    return options + (["--disable-userns"] if _supports("--disable-userns") else [])


def sandbox_path() -> list[str]:
    """The folders a sandboxed program's PATH lists: c4tui's Python's first, then the system's."""
    return [str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]


def _environment(extra: Mapping[str, str]) -> list[str]:
    """A fresh environment: c4tui's Python first on PATH, HOME in the private /tmp."""
    variables = {
        "PATH": ":".join(sandbox_path()),
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONPATH": C4TUI_FOLDER,
        **extra,
    }
    options = ["--clearenv"]
    for name, value in variables.items():
        options += ["--setenv", name, value]
    return options


def _size(tmp_bytes: int | None) -> list[str]:
    return ["--size", str(tmp_bytes)] if tmp_bytes is not None and _supports("--size") else []


def _bind(grant: Grant) -> list[str]:
    """Read-only; a link stays a link (``/bin`` → ``usr/bin``, a submission's own)."""
    if grant.link:
        return ["--symlink", os.readlink(grant.host), grant.inside]
    return ["--ro-bind", str(grant.host), grant.inside]


@cache
def runtime_grants() -> tuple[Grant, ...]:
    """The system's runtime, c4tui's Python and c4tui's package, each where it is on the host."""
    paths = [Path(root) for root in _RUNTIME_ROOTS if os.path.lexists(root)]
    for pattern in _ETC_GRANTS:
        paths += sorted(Path("/").glob(pattern.lstrip("/")))
    grants = [
        Grant(path, str(path), link=str(path) in _RUNTIME_ROOTS and path.is_symlink())
        for path in paths
    ]
    for prefix in [*_python_prefixes(), *_site_packages()]:
        if not any(prefix.is_relative_to(path) for path in paths):
            grants.append(Grant(prefix, str(prefix)))
            paths.append(prefix)
    package = Path(c4tui.__file__).resolve().parent
    return (*grants, Grant(package, f"{C4TUI_FOLDER}/c4tui"))


def _python_prefixes() -> list[Path]:
    """c4tui's Python: its installation and, in a virtual environment, the environment."""
    prefixes: list[Path] = []
    for prefix in (sys.base_prefix, sys.prefix, str(Path(sys.executable).resolve().parent.parent)):
        path = Path(prefix).resolve()
        if not any(path.is_relative_to(known) for known in prefixes):
            prefixes = [known for known in prefixes if not known.is_relative_to(path)] + [path]
    return prefixes


def _site_packages() -> list[Path]:
    """The folders c4tui's Python finds packages in (a ``--user`` install's too)."""
    folders = [Path(entry).resolve() for entry in sys.path if entry]
    return [
        folder
        for folder in folders
        if folder.name in ("site-packages", "dist-packages") and folder.is_dir()
    ]


def _supports(option: str) -> bool:
    """True when this bubblewrap knows ``option`` (newer ones: ``--size``, ``--disable-userns``)."""
    return option in _bwrap_help()


@cache
def _bwrap_help() -> str:
    """What ``bwrap --help`` says (asked once); "" where it cannot be asked."""
    bwrap = bwrap_program()
    if bwrap is None:
        return ""
    try:
        said = subprocess.run([bwrap, "--help"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (said.stdout + said.stderr).decode("utf-8", "replace")


def printable(text: str, limit: int = 200) -> str:
    """``text`` with its control characters made visible (ESC as a backslash and x1b), cut.

    What a program writes reaches a person's terminal, a table or a record only so: an
    escape sequence in its last words must not retitle or clear the screen.
    """
    shown = "".join(
        character if character.isprintable() else repr(character)[1:-1] for character in text
    )
    return shown if len(shown) <= limit else shown[:limit] + "…"


def grants_for_words(words: Sequence[str], base: Path) -> dict[str, Grant]:
    """The words of a command that name a file or folder there, each granted under /program.

    A word is a path when it names an existing file or folder (absolute, or relative
    to ``base``), is not an option and is not the name of a module after ``-m``; each
    is seen at ``/program/<its name>`` (``-2``, ``-3``… when two share a name).
    """
    grants: dict[str, Grant] = {}
    taken: set[str] = set()
    for index, word in enumerate(words):
        if word.startswith("-") or (index and words[index - 1] == "-m") or word in grants:
            continue
        path = Path(word) if word.startswith("/") else base / word
        if index == 0 and "/" not in word:  # a command's name, looked up on PATH
            found = _found_only_outside(word)
            if found is None:
                continue
            path = found
        if not os.path.lexists(path) or _in_runtime(path):
            continue
        grants[word] = _granted(path, taken)
    return grants


def _found_only_outside(command: str) -> Path | None:
    """Where c4tui's PATH finds ``command`` when the sandbox's PATH would not (``~/.local/bin``)."""
    if shutil.which(command, path=os.pathsep.join(sandbox_path())) is not None:
        return None
    found = shutil.which(command)
    return None if found is None else Path(found)


def _granted(path: Path, taken: set[str]) -> Grant:
    """``path`` at ``/program/<its name>``; a link out of its own folder stays a link.

    A link the teacher typed may be one a student made (``ann/engine.py ->
    /etc/shadow``): followed only where it stays beside itself (``engine ->
    build/engine-2``), else made again inside as the link it is, which finds nothing.
    """
    real = path.resolve()
    if path.is_symlink() and not real.is_relative_to(path.absolute().parent.resolve()):
        return Grant(path.absolute(), f"{PROGRAM_FOLDER}/{_free_name(path.name, taken)}", True)
    return Grant(real, f"{PROGRAM_FOLDER}/{_free_name(real.name or 'root', taken)}")


def _free_name(name: str, taken: set[str]) -> str:
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name}-{number}"
    taken.add(candidate)
    return candidate


def visible_in_sandbox(path: Path) -> bool:
    """True for a host path a sandboxed program sees at the same place (the runtime's)."""
    return _in_runtime(path)


def _in_runtime(path: Path) -> bool:
    """True for a path the runtime grants already show at the same place (``/usr/bin/python3``)."""
    resolved = path.resolve()
    return any(
        resolved.is_relative_to(grant.host.resolve()) and grant.inside == str(grant.host)
        for grant in runtime_grants()
        if grant.host.exists()
    )
