"""A classroom for the hostile programs of tests/data/outside/hostile/ (issue 37).

``Arena`` lays out what the programs attack, on the real machine: a canary file
outside their folder, a classmate's agent beside them, a witness file in each folder
they try to write in, a listening socket on 127.0.0.1, and secrets in the
tournament's environment. It assembles each program with those targets written into
its source (never on its command line, which would grant them), runs a real
``c4tui tournament`` with them, and reads back what each attack said.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.outside.helpers import CENTRE_AGENT, DATA, TINY_ENGINE
from tests.outside.sandboxes import processes_naming
from tests.process_helpers import run_c4tui
from tests.tournament.test_command import results

HOSTILE = DATA / "hostile"
#: What every hostile program is assembled from, before its own file.
PARTS = ("attacks.py", "playing.py")
#: The line of attacks.py the targets replace.
TARGETS_LINE = "TARGETS: dict = {}"
#: Seconds a tournament of these programs may take before it counts as frozen.
TOURNAMENT_SECONDS = 240.0
#: Seconds every process of a tournament has to be gone once it ended (a kill takes time).
GONE_SECONDS = 10.0
VERDICT = re.compile(r"^ATTACK (\S+): (BLOCKED|BREACHED) \((.*)\)$", re.MULTILINE)


def checksum(path: Path) -> str:
    """The file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class Arena:
    """The targets of one test's hostile programs, its tournament's folder, and its marker."""

    root: Path
    marker: str
    listener: socket.socket
    #: Each program's file, as written: its checksum.
    sums: dict[Path, str] = field(default_factory=dict)

    @classmethod
    def make(cls, root: Path) -> Arena:
        """Lay the targets out under ``root`` (and a witness in the real /tmp)."""
        listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        listener.setblocking(False)
        arena = cls(root, f"hostile-{uuid.uuid4().hex[:12]}", listener)
        arena.folder.mkdir()
        arena.out.mkdir()
        arena.canary.write_text(f"canary {arena.marker}\n", encoding="utf-8")
        arena.classmate.write_text(CENTRE_AGENT.read_text(encoding="utf-8"), encoding="utf-8")
        arena.sums[arena.classmate] = checksum(arena.classmate)
        for witness in arena.witnesses().values():
            witness.write_text("the test's witness\n", encoding="utf-8")
        return arena

    @property
    def folder(self) -> Path:
        """The class's folder: the hostile programs and the classmate (the marker in its name,
        so every command line naming a program there holds it)."""
        return self.root / f"class-{self.marker}"

    @property
    def out(self) -> Path:
        """The tournament's --out folder."""
        return self.root / "out"

    @property
    def canary(self) -> Path:
        """A file outside the programs' folder."""
        return self.root / "canary.txt"

    @property
    def classmate(self) -> Path:
        """Another student's agent (the centre agent's copy), beside the hostile programs."""
        return self.folder / "classmate.py"

    def witnesses(self) -> dict[str, Path]:
        """Per writing attack, a file the test put in the real folder the attack writes in."""
        return {
            "write-out": self.out / f"{self.marker}-witness",
            "write-tmp": Path("/tmp") / f"{self.marker}-witness",
            "write-tmp-path": self.root / f"{self.marker}-witness",
        }

    def targets(self) -> dict[str, Any]:
        """What attacks.py's TARGETS holds."""
        home = os.environ.get("HOME", "/root")
        env = self.env_secrets()
        return {
            "marker": self.marker,
            "canary": str(self.canary),
            "canary_text": f"canary {self.marker}",
            "homes": sorted({"/root", home}),
            "runtimes": sorted(
                {sys.prefix, sys.base_prefix, sys.executable, os.path.realpath(sys.executable)}
            ),
            "classmate": str(self.classmate),
            "class_files": sorted(
                {self.classmate.name} | {path.name for path in HOSTILE.glob("*.py")}
            ),
            "writes": {
                attack: (str(witness.parent), str(witness))
                for attack, witness in self.witnesses().items()
            },
            "port": self.listener.getsockname()[1],
            "env_names": sorted(env),
            "env_values": sorted(env.values()),
        }

    def env_secrets(self) -> dict[str, str]:
        """The secrets set in the tournament's environment (a bot's password, a canary)."""
        return {
            "C4TUI_PASSWORD": f"password-{self.marker}",
            "HOSTILE_CANARY": f"canary-{self.marker}",
        }

    def program(self, template: str) -> Path:
        """The hostile program ``template``, assembled with its targets, in the class's folder."""
        parts = [(HOSTILE / part).read_text(encoding="utf-8") for part in (*PARTS, template)]
        assert TARGETS_LINE in parts[0]
        parts[0] = parts[0].replace(TARGETS_LINE, f"TARGETS: dict = {self.targets()!r}")
        path = self.folder / template
        path.write_text("\n\n".join(parts), encoding="utf-8")
        self.sums[path] = checksum(path)
        return path

    def changed(self) -> list[Path]:
        """The programs' files (the classmate's and the hostile ones) not as they were written."""
        return [path for path, written in self.sums.items() if checksum(path) != written]

    def engine(self, name: str, template: str) -> str:
        """The player ``name=engine:…`` running the hostile engine ``template``."""
        return f"{name}={self.engine_command(self.program(template))}"

    def engine_command(self, path: Path, *options: str) -> str:
        """``engine:python3 PATH OPTIONS --MARKER``: the marker in every process's command line."""
        return "engine:" + shlex.join(["python3", str(path), *options, f"--{self.marker}"])

    def agent(self, name: str, template: str) -> str:
        """The player ``name=kaggle:…`` running the hostile agent ``template``."""
        return f"{name}=kaggle:{self.program(template)}"

    def honest(self, *options: str) -> str:
        """The honest opponent, ``honest``: the tiny engine (with ``options``)."""
        return f"honest={self.engine_command(TINY_ENGINE, *options)}"

    def tournament(self, *args: str, movetime: int = 300) -> subprocess.CompletedProcess[str]:
        """A real ``c4tui tournament`` of ``args`` into ``out``, with the secrets in its
        environment; a failure if it has not ended within TOURNAMENT_SECONDS."""
        options = [*args, *self.options(), "--movetime", str(movetime)]
        try:
            return run_c4tui("tournament", *options, env=self.env(), timeout=TOURNAMENT_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the tournament froze: not over after {TOURNAMENT_SECONDS:.0f} s")

    def options(self) -> list[str]:
        """The options of every tournament here: short, seeded, kept in ``out``."""
        return ["--games", "2", "--seed", "1", "--out", str(self.out)]

    def env(self) -> dict[str, str]:
        """The tournament's environment: ours, and the secrets."""
        return {**os.environ, **self.env_secrets()}

    def connections(self) -> int:
        """How many connections reached the listener (each waits in its queue until accepted)."""
        count = 0
        for _ in range(1000):  # bounded: far more than any program of a test makes
            try:
                connection, _ = self.listener.accept()
            except BlockingIOError:
                break
            connection.close()
            count += 1
        return count

    def written(self) -> list[Path]:
        """The files the writing attacks left in the real folders (none, if blocked)."""
        folders = [witness.parent for witness in self.witnesses().values()]
        return [path for f in folders if (path := f / f"{self.marker}-written.txt").exists()]

    def close(self) -> None:
        """End what is left of the test's programs, and remove its files from the real /tmp."""
        self.listener.close()
        end_marked(self.marker)
        for path in Path("/tmp").glob(f"{self.marker}-*"):
            path.unlink()


def end_marked(marker: str) -> None:
    """SIGKILL the processes whose command line holds ``marker``: this test's, by pid."""
    for pid in processes_naming(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue  # gone by itself meanwhile


def verdicts(out: Path, player: str) -> list[tuple[str, str, str]]:
    """What each attack of ``player`` said in its log: (attack, BLOCKED or BREACHED, why)."""
    log = out / "logs" / f"{player}.log"
    assert log.exists(), f"{player} left no log: {sorted((out / 'logs').iterdir())}"
    return VERDICT.findall(log.read_text(encoding="utf-8", errors="replace"))


def assert_only_blocked(out: Path, player: str, attacks: set[str]) -> None:
    """Every attack in ``attacks`` ran for ``player`` and none got through."""
    said = verdicts(out, player)
    breached = [f"{attack}: {why}" for attack, verdict, why in said if verdict == "BREACHED"]
    assert breached == [], f"{player} got through:\n" + "\n".join(breached)
    assert attacks <= {attack for attack, _, _ in said}, said


def loser(game: dict[str, Any]) -> str | None:
    """Who lost ``game`` (None: a draw)."""
    return {"red": game["yellow"], "yellow": game["red"]}.get(game["result"])


def games_of(out: Path, player: str) -> list[dict[str, Any]]:
    """The games ``player`` played, from results.json."""
    return [game for game in results(out)["games"] if player in (game["red"], game["yellow"])]


def assert_unharmed(out: Path, player: str) -> None:
    """``player`` played all its games and lost none by a failure of its own."""
    (line,) = [entry for entry in results(out)["players"] if entry["name"] == player]
    assert set(line["failures"].values()) == {0}, line["failures"]
    played = games_of(out, player)
    assert played and len(played) == line["games"]
    failed = [game for game in played if loser(game) == player and game["reason"] != "four"]
    assert failed == [], failed


def assert_lost_all_by(
    out: Path, player: str, reasons: tuple[str, ...], *, shown: str = "", detail: str = ""
) -> None:
    """``player`` lost every game it played for one of ``reasons``; with ``detail``, each
    game's line in ``shown`` (the tournament's output) says so in it."""
    played = games_of(out, player)
    assert played
    for game in played:
        assert loser(game) == player and game["reason"] in reasons, f"not lost by {reasons}: {game}"
    if detail:
        told = [line for line in shown.splitlines() if f"{player} lost by" in line]
        assert len(told) == len(played) and all(detail in line for line in told), shown


def assert_none_left(marker: str) -> None:
    """No process holding ``marker`` runs GONE_SECONDS after the tournament ended."""
    deadline = time.monotonic() + GONE_SECONDS
    while processes_naming(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_naming(marker) == []
