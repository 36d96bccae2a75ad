"""Shared by the outside choosers' tests: the example programs, a game between two choosers,
and whether a process group has anything left alive."""

from __future__ import annotations

import asyncio
import shlex
import sys
import time
from pathlib import Path

import pytest

from c4tui.engine import GameState, Move, Player
from c4tui.outside.chooser import Chooser, OutsideFailure
from c4tui.outside.program import ProgramChooser

DATA = Path(__file__).resolve().parent.parent / "data" / "outside"
TINY_ENGINE = DATA / "tiny_engine.py"
CENTRE_AGENT = DATA / "centre_agent.py"


def engine_command(*options: str) -> str:
    """The shell command that runs the tiny engine with ``options``."""
    return shlex.join([sys.executable, str(TINY_ENGINE), *options])


async def play_game(
    red: Chooser, yellow: Chooser, start: GameState | None = None, time_limit: float = 5.0
) -> tuple[GameState, list[Move]]:
    """A whole game between ``red`` and ``yellow``, closed at its end: the final state and moves."""
    state = start or GameState.new()
    moves: list[Move] = []
    try:
        while not state.is_over:
            chooser = red if state.turn is Player.RED else yellow
            move = await chooser.choose(state, time_limit, moves)
            moves.append(move)
            state = state.play(move)
    finally:
        await red.close()
        await yellow.close()
    return state, moves


async def failure_of(
    chooser: ProgramChooser, state: GameState, time_limit: float
) -> OutsideFailure:
    """How ``chooser`` fails to choose in ``state``: soon, and leaving no process running."""
    started = time.monotonic()
    asking = asyncio.create_task(chooser.choose(state, time_limit))
    groups = set()
    while not asking.done():  # its process group, seen while it runs
        if chooser.pid is not None:
            groups.add(chooser.pid)
        await asyncio.sleep(0.001)
    with pytest.raises(OutsideFailure) as failure:
        await asking
    assert time.monotonic() - started < 30
    assert chooser.pid is None  # killed: the next choose would start afresh
    assert groups  # (it did start)
    for group in groups:
        assert all_gone(group)
    return failure.value


def all_gone(group: int, seconds: float = 10) -> bool:
    """Whether process group ``group`` has nothing alive within ``seconds`` (a kill takes time)."""
    deadline = time.monotonic() + seconds
    while alive_in_group(group) and time.monotonic() < deadline:
        time.sleep(0.01)
    return alive_in_group(group) == []


def alive_in_group(group: int) -> list[int]:
    """Processes of process group ``group`` still running (zombies not counted)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone while we looked
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state != "Z":
            alive.append(int(stat.parent.name))
    return alive


def is_alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def reaped(pid: int) -> bool:
    """True once ``pid`` is no process at all (not even a zombie of ours)."""
    return not Path(f"/proc/{pid}").exists()


def engines_alive(marker: str) -> list[int]:
    """Tiny engines still running (not zombies) whose command line holds ``marker``."""
    alive = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (cmdline.parent / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in text and "tiny_engine" in text and state != "Z":
            alive.append(int(cmdline.parent.name))
    return alive
