"""The sandbox's whole command line, printed and read: what a program may see, and nothing else.

(``pytest -s`` shows it.) The hostile programs of ``test_hostile.py`` attack the real one;
this reads it as a reviewer would.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from c4tui.outside import confinement
from c4tui.outside.bounds import Bounds
from c4tui.outside.confinement import Confinement
from c4tui.outside.sandbox import Grant, Launch, bwrap_command, runtime_grants

LAUNCH = Launch(
    ("/bin/sh", "-c", "exec python3 /program/deep.py"),
    (Grant(Path("/home/ann/class/deep.py"), "/program/deep.py"),),
)


def options(command: list[str], name: str) -> list[tuple[str, ...]]:
    """Each use of option ``name`` in ``command``, with the arguments it takes."""
    takes = {"--setenv": 2, "--ro-bind": 2, "--symlink": 2, "--tmpfs": 1, "--size": 1}
    return [
        tuple(command[index + 1 : index + 1 + takes.get(name, 0)])
        for index, word in enumerate(command[: command.index("--")])
        if word == name
    ]


def test_every_namespace_is_new_and_the_program_dies_with_c4tui() -> None:
    command = bwrap_command("bwrap", LAUNCH, tmp_bytes=1 << 30)
    print(shlex.join(command))
    for isolation in (
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-net",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ):
        assert isolation in command
    assert command[command.index("--cap-drop") + 1] == "ALL"
    assert command[command.index("--") + 1 :] == list(LAUNCH.argv)


def test_it_sees_only_the_runtime_and_its_own_files_read_only() -> None:
    command = bwrap_command("bwrap", LAUNCH, tmp_bytes=1 << 30)
    assert "--bind" not in command and "--dev-bind" not in command  # nothing writable of the host
    seen = {inside for _, inside in options(command, "--ro-bind")}
    granted = {grant.inside for grant in (*runtime_grants(), *LAUNCH.grants)}
    links = {inside for _, inside in options(command, "--symlink")}
    assert seen | links == granted
    assert ("/home/ann/class/deep.py", "/program/deep.py") in options(command, "--ro-bind")
    assert not any(inside in ("/", "/home", "/root", "/etc", "/tmp") for inside in seen)
    assert {("/tmp",), ("/program",)} <= set(options(command, "--tmpfs"))  # its own, thrown away
    remounts = [i for i, word in enumerate(command) if word == "--remount-ro"]
    assert [command[i + 1] for i in remounts] == ["/dev", "/"]  # /dev but its shared memory
    assert remounts[-1] > max(i for i, w in enumerate(command) if w == "--ro-bind")  # the root
    assert ("/dev/shm",) in options(command, "--tmpfs")


def test_its_environment_is_fresh_and_holds_no_secret_of_c4tuis() -> None:
    confinement = Confinement(Bounds(memory_mb=1024), sandboxed=True)
    try:
        words = confinement.arguments(LAUNCH).decode().split("\0")
        variables = {
            words[index + 1]: words[index + 2]
            for index, word in enumerate(words)
            if word == "--setenv"
        }
        started_with = confinement.environment()
    finally:
        confinement.remove()
    assert set(variables) == {"PATH", "HOME", "LANG", "PYTHONPATH", "JAVA_TOOL_OPTIONS"}
    assert variables["HOME"] == "/tmp"
    assert variables["JAVA_TOOL_OPTIONS"] == "-XX:MaxRAM=1024m"  # a JVM sizes itself to it
    assert set(started_with) == {"PATH", "LANG"}  # bubblewrap's own init is started so


def test_a_user_without_a_pids_cgroup_bounds_each_program_inside_its_own_sandbox(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RLIMIT_NPROC set outside counts all of the user's processes: one program's would
    starve its opponent. Inside its user namespace it counts only its own."""
    monkeypatch.setattr(confinement.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(confinement, "usable_hierarchy", lambda controller: None)
    kept = Confinement(Bounds(processes=64), sandboxed=True)
    command = kept.command(LAUNCH, args_fd=9)
    after = command[command.index("--args") + 3 :]  # bubblewrap --args 9 -- …
    assert Path(after[0]).name == "prlimit" and after[1:3] == ["--nproc=64", "--"]
    assert after[3:] == list(LAUNCH.argv)
    assert "--max-processes" not in command
    unconfined = Confinement(Bounds(processes=64), sandboxed=False)
    try:
        assert "--max-processes" in unconfined.command(LAUNCH)  # (no sandbox: the old way)
    finally:
        unconfined.remove()
