"""Hostile programs for the seats of ``c4tui bot``, ``serve --ai`` and the app (issue 37).

Each is written from one template (``tests/data/outside/hostile_seats/engine.py``) into
the test's folder, under a name holding a unique mark: its processes are found by it
(``running``), and the processes the test starts carry it in their environment, marked
as the assassin's targets and as what the snoop must not find (``marked``). A target's
path is never an argument of the program (the sandbox would let it see what its
command names); the mark is baked in.
"""

from __future__ import annotations

import os
import shlex
import uuid
from pathlib import Path

from tests.outside.helpers import DATA

TEMPLATE = DATA / "hostile_seats" / "engine.py"
#: The variable whose value marks a process as one of the test's (the assassin's targets).
TARGET_VARIABLE = "HOSTILE_TARGET"


def hostile_engine(folder: Path, attack: str) -> tuple[Path, str]:
    """The template with ``attack`` (``flood``, ``kill``, ``environ``) as a file in ``folder``;
    its mark."""
    mark = f"hostile{uuid.uuid4().hex[:12]}"
    program = folder / f"{attack}-{mark}.py"
    text = TEMPLATE.read_text(encoding="utf-8")
    program.write_text(text.replace("@ATTACK@", attack).replace("@MARK@", mark), "utf-8")
    return program, mark


def hostile_command(program: Path, *options: str) -> str:
    """The shell command a student would give: ``python3`` (the system's) and the file."""
    return shlex.join(["python3", str(program), *options])


def marked(mark: str) -> dict[str, str]:
    """This environment, marking a process started with it as one of the assassin's targets."""
    return {**os.environ, TARGET_VARIABLE: mark}
