"""Hostile programs in a real ``c4tui tournament``, through the real sandbox (issue 37).

Each program of tests/data/outside/hostile/ attacks what its ``Arena`` laid out on
this machine and says on standard error whether each attack got through; here every
attack must say BLOCKED, the honest opponent (the tiny engine) must lose no game by a
failure, and no process of the tournament may outlive it, not even when c4tui is
killed outright. The attacks that cannot judge themselves (memory, floods, escape
sequences) are judged from the tournament's results.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.outside.hostile import (
    Arena,
    assert_lost_all_by,
    assert_none_left,
    assert_only_blocked,
    assert_unharmed,
    verdicts,
)
from tests.outside.sandboxes import need_sandbox, processes_naming
from tests.tournament.test_command import results

#: The attacks of snoop_agent.py and snoop_engine.py (attacks.every_attack).
SNOOPING = {
    "read-canary",
    "list-home",
    "list-folder",
    "read-classmate",
    "append-classmate",
    "append-own",
    "write-out",
    "write-tmp",
    "write-tmp-path",
    "connect-loopback",
    "read-env",
    "kill-others",
}
#: A control character (C0 but newline and tab, DEL, C1): what must never reach a terminal.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Children of the forking engine that show it has forked (it tries 300).
FORKED = 100


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    """The hostile programs' targets, laid out for one test (bubblewrap needed)."""
    need_sandbox()
    made = Arena.make(tmp_path)
    try:
        yield made
    finally:
        made.close()


def test_snooping_programs_reach_nothing_outside_their_own_game(arena: Arena) -> None:
    """Files, the home folder, a classmate's agent, the network, the environment, the others."""
    run = arena.tournament(
        "--gauntlet",
        arena.honest(),
        arena.agent("snoop-agent", "snoop_agent.py"),
        arena.engine("snoop-engine", "snoop_engine.py"),
        f"classmate=kaggle:{arena.classmate}",
    )
    assert run.returncode == 0, run.stderr
    for snoop in ("snoop-agent", "snoop-engine"):
        assert_only_blocked(arena.out, snoop, SNOOPING)
    assert arena.changed() == []  # the classmate's file and their own, by checksum
    assert arena.written() == []
    assert arena.connections() == 0
    for honest in ("honest", "classmate"):  # not killed, never blamed for it
        assert_unharmed(arena.out, honest)
    assert_none_left(arena.marker)


def test_processes_and_memory_are_bounded_for_the_program_as_a_whole(arena: Arena) -> None:
    """300 forks meet the process bound; 2 × 700 MB in two processes is over 1024 MB, a loss
    even when the kernel kills only one of them (the child, which filled its share first)."""
    run = arena.tournament(
        "--gauntlet",
        "--memory",
        "1024",
        arena.honest(),
        arena.engine("forker", "forker_engine.py"),
        arena.engine("hoarder", "hoarder_engine.py"),
        movetime=5000,  # time enough to fork and to fill 700 MB on a loaded machine
    )
    assert run.returncode == 0, run.stderr
    assert_only_blocked(arena.out, "forker", {"fork-300"})
    assert_only_blocked(arena.out, "hoarder", set())  # it may be killed before it can tell
    assert "hold-memory: 700 MB in each" in (arena.out / "logs" / "hoarder.log").read_text()
    assert_lost_all_by(
        arena.out, "hoarder", ("crash",), shown=run.stdout, detail="used more than 1024 MB"
    )
    assert_unharmed(arena.out, "honest")
    assert_none_left(arena.marker)


def test_what_a_program_writes_neither_freezes_nor_fools_c4tui(arena: Arena) -> None:
    """200 kB without a newline (an engine's stdout, an agent's answer pipe) is malformed, and
    a crash's escape sequences reach no screen, results.json or record."""
    started = time.monotonic()
    run = arena.tournament(
        "--gauntlet",
        arena.honest(),
        arena.engine("flood-engine", "flood_engine.py"),
        arena.agent("flood-agent", "flood_agent.py"),
        arena.engine("escape", "escape_engine.py"),
    )
    assert run.returncode == 0, run.stderr
    assert time.monotonic() - started < 120  # six games of a move or two each, not frozen
    for flood in ("flood-engine", "flood-agent"):
        said = (arena.out / "logs" / f"{flood}.log").read_text()
        assert "flood: sending 200000 bytes without a newline" in said
        assert "into []" not in said  # the agent found the runner's answer pipe
        assert_lost_all_by(arena.out, flood, ("illegal", "malformed"))
    log = (arena.out / "logs" / "escape.log").read_text()  # its own log: kept, made safe to cat
    assert "\\x1b]0;pwned" in log and not CONTROL.search(log)
    assert_lost_all_by(arena.out, "escape", ("crash",))
    assert_unharmed(arena.out, "honest")
    shown = {"stdout": run.stdout, "stderr": run.stderr}
    shown["results.json"] = (arena.out / "results.json").read_text(encoding="utf-8")
    shown["results.json's texts"] = " ".join(texts(results(arena.out)))
    for record in sorted((arena.out / "games").glob("*.c4g")):
        shown[record.name] = record.read_text(encoding="utf-8")
    for where, text in shown.items():
        assert CONTROL.findall(text.replace("\n", " ")) == [], (where, text)
    assert_none_left(arena.marker)


def texts(value: object) -> list[str]:
    """Every string in a JSON value (results.json escapes control characters; decoded, not)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in texts(item)]
    return []


def test_no_process_of_a_program_outlives_c4tui_killed_outright(arena: Arena) -> None:
    """SIGKILL gives c4tui no time to end anything: the sandbox ends all the forker's children."""
    command = [
        sys.executable, "-m", "c4tui", "tournament", arena.honest("--late", "3"),
        arena.engine("forker", "forker_engine.py"),
        "--games", "1", "--movetime", "60000", "--out", str(arena.out),
    ]  # fmt: skip
    c4tui = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=arena.env(),
    )
    try:
        wait_for_children(arena, c4tui)
        os.kill(c4tui.pid, signal.SIGKILL)
        c4tui.wait(timeout=30)
    finally:
        if c4tui.poll() is None:
            c4tui.kill()
            c4tui.wait()
    assert_none_left(arena.marker)


def wait_for_children(arena: Arena, c4tui: subprocess.Popen[bytes]) -> None:
    """Wait until the forker has forked (a bounded wait)."""
    deadline = time.monotonic() + 120  # the start, then the honest engine's 3 s first move
    while time.monotonic() < deadline:
        if len(processes_naming(arena.marker)) >= FORKED:
            return
        assert c4tui.poll() is None, c4tui.communicate()
        time.sleep(0.2)
    said = verdicts(arena.out, "forker") if (arena.out / "logs").exists() else []
    pytest.fail(f"the forker never forked {FORKED} children: {said}")
