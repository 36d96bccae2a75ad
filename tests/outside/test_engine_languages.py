"""Engines written in Python, C, JavaScript (Node) and Java play a real tournament in the sandbox.

The tiny engines of tests/data/outside/engines/ (each the first legal drop from the
centre, else a legal pop) are built here, outside the sandbox (gcc, javac), into a
temporary folder, then meet in ``c4tui tournament`` with its default limits: no
``--memory``, so the JVM, Node and Python must all start under the default bound. A
language's tools missing skip the test saying what to install (on CI, which installs
them, it fails instead).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from c4tui.engine import GameState, Rules
from c4tui.tournament.results import read_moves
from tests.needs import missing
from tests.outside.helpers import DATA
from tests.outside.sandboxes import need_sandbox
from tests.process_helpers import run_c4tui

ENGINES = DATA / "engines"
#: The programs each language needs, and Debian's package that has them.
TOOLS = {
    "gcc": "gcc",
    "javac": "default-jdk-headless",
    "java": "default-jdk-headless",
    "node": "nodejs",
    "python3": "python3",
}
#: How a game may end when nobody failed.
FINISHED = {"four", "full", "repetition"}
#: Seconds a build may take on a loaded machine (javac starts a JVM).
BUILD_SECONDS = 120
#: Seconds the whole tournament may take: 12 games, a JVM started for each of Java's six.
TOURNAMENT_SECONDS = 600


def build(command: list[str]) -> None:
    """Run a compiler; its own words on failure."""
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=BUILD_SECONDS, check=False
    )
    assert done.returncode == 0, f"{shlex.join(command)}:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def players(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The four engines as tournament players, the C and Java ones built into a temporary folder."""
    need_sandbox()
    for tool, package in TOOLS.items():
        if shutil.which(tool) is None:
            missing(tool, package)
    built = tmp_path_factory.mktemp("engines")
    build(["gcc", "-O2", "-o", str(built / "centre_engine"), str(ENGINES / "centre_engine.c")])
    build(["javac", "-d", str(built / "classes"), str(ENGINES / "CentreEngine.java")])
    commands = {
        "python": ["python3", str(ENGINES / "centre_engine.py")],
        "c": [str(built / "centre_engine")],
        "node": ["node", str(ENGINES / "centre_engine.js")],
        "java": ["java", "-cp", str(built / "classes"), "CentreEngine"],
    }
    return [f"{name}=engine:{shlex.join(command)}" for name, command in commands.items()]


def failures_told(out: Path, content: dict[str, Any]) -> str:
    """What went wrong, for an assertion's message: the failed games (each with its failure's
    whole text) and the end of each program's standard error."""
    games = [game for game in content["games"] if game["reason"] not in FINISHED]
    logs = {log.name: log.read_text(errors="replace")[-2000:] for log in out.glob("logs/*")}
    return json.dumps({"games": games, "logs": logs}, indent=1)


def replayed(game: dict[str, Any], columns: int, rows: int, rules: Rules) -> GameState:
    """The game's final position, from its moves (raises if one of them was illegal)."""
    return GameState.new(columns, rows, rules).play_all(read_moves(game["moves"]))


@pytest.mark.parametrize(
    ("columns", "rows", "rules"),
    [(7, 6, Rules.CLASSIC), (5, 5, Rules.POPOUT)],
    ids=["classic-7x6", "popout-5x5"],  # 5 x 5 fills up: the engines must pop
)
def test_engines_in_four_languages_play_a_tournament_in_the_sandbox(
    players: list[str], columns: int, rows: int, rules: Rules, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    board = ["--columns", str(columns), "--rows", str(rows), "--rules", rules.value]
    run = run_c4tui(
        "tournament", *players, *board, "--games", "2", "--movetime", "300",
        "--seed", "1", "--out", str(out), timeout=TOURNAMENT_SECONDS,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "unconfined" not in run.stdout + run.stderr  # in the sandbox, not beside it
    content = json.loads((out / "results.json").read_text(encoding="utf-8"))
    told = failures_told(out, content)
    assert len(content["games"]) == 12, told  # every pairing, both colours
    assert {player["name"] for player in content["players"]} == {"python", "c", "node", "java"}
    for player in content["players"]:
        assert player["games"] == 6
        assert not any(player["failures"].values()), f"{player['name']} failed: {told}"
    for game in content["games"]:
        assert game["reason"] in FINISHED, told
        final = replayed(game, columns, rows, rules)
        assert final.is_over
        winner = final.winner.name.lower() if final.winner is not None else "draw"
        assert game["result"] == winner
    if rules is Rules.POPOUT:
        assert any(
            move.startswith("p") for game in content["games"] for move in game["moves"].split()
        )
