"""The real sandbox in tests: a test that needs bubblewrap skips without it (fails on CI), and
the processes a program left, found by what they descend from."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from c4tui.outside.sandbox import sandbox_problem
from tests.needs import unavailable
from tests.outside.helpers import commands_alive


def need_sandbox() -> None:
    """Skip the test where no sandbox can be made (on CI, which installs bubblewrap, fail)."""
    problem = sandbox_problem()
    if problem is not None:
        unavailable(f"no sandbox for outside programs here: {problem}")


@pytest.fixture
def sandbox() -> None:
    """For ``@pytest.mark.usefixtures("sandbox")``: the test runs programs in the real sandbox."""
    need_sandbox()


def descendants(root: int) -> list[int]:
    """The live processes started, at any depth, by process ``root`` (zombies not counted).

    A sandboxed program's processes sit in PID namespaces and sessions of their own, so
    they are found by their parents, not by a process group.
    """
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone while we looked
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def processes_naming(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (a test's program, wherever it is)."""
    return [
        pid for pid, command in commands_alive().items() if marker in command and pid != os.getpid()
    ]
