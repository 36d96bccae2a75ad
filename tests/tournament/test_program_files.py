"""Every program's files fingerprinted (sha256) in results.json and tournament.json, and a
``--resume`` refused, in words, when one changed since the tournament began."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from c4tui.tournament.checksums import checksum, named_files
from tests.outside.helpers import CENTRE_AGENT, TINY_ENGINE
from tests.process_helpers import run_c4tui


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_a_resumed_tournament_refuses_a_program_whose_file_changed(tmp_path: Path) -> None:
    out, engine, agent = tmp_path / "out", tmp_path / "tiny.py", tmp_path / "agent.py"
    shutil.copy(TINY_ENGINE, engine)
    shutil.copy(CENTRE_AGENT, agent)
    run = run_c4tui(
        "tournament", "easy", f"engine:{sys.executable} {engine}", f"kaggle:{agent}",
        "--games", "2", "--movetime", "500", "--seed", "6", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    players = read_json(out / "results.json")["players"]
    files = {player["name"]: player["files"] for player in players}
    assert files["tiny.py"] == {str(engine): sha256(engine)}  # not c4tui's own Python
    assert files["agent"] == {str(agent): sha256(agent)}
    assert files["easy"] == {}  # a level has no file
    assert read_json(out / "tournament.json")["checksums"] == files
    # One game taken away, as if Ctrl-C had stopped the tournament before it.
    results = read_json(out / "results.json")
    results["games"].pop()
    (out / "results.json").write_text(json.dumps(results), encoding="utf-8")
    kept = engine.read_bytes()
    engine.write_bytes(kept + b"# a student's late change\n")
    changed = run_c4tui("tournament", "--resume", str(out))
    assert changed.returncode == 2
    assert changed.stderr.startswith(
        f"c4tui tournament: error: tiny.py's file {engine} changed since the tournament began: "
        "a resumed tournament plays the programs it began with"
    )
    agent.unlink()
    engine.write_bytes(kept)
    gone = run_c4tui("tournament", "--resume", str(out))
    assert gone.returncode == 2 and f"agent's file {agent} is gone since" in gone.stderr
    shutil.copy(CENTRE_AGENT, agent)
    # Back as they were: the missing game is played.
    resumed = run_c4tui("tournament", "--resume", str(out), timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "1 games to play (5 already played)" in resumed.stdout


def test_the_files_are_the_paths_a_player_names_and_a_folder_counts_all_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "main.py").write_text("def agent(o, c):\n    return 3\n")
    book = tmp_path / "book.bin"
    book.write_bytes(b"\0" * 10)
    monkeypatch.chdir(tmp_path)  # paths as a teacher types them, from the class's folder
    command = "engine:python3 -m c4tui bot/main.py --book=x book.bin -q missing.py bot/main.py"
    assert named_files(command) == ["bot/main.py", "book.bin"]
    assert named_files("kaggle:bot/main.py") == ["bot/main.py"]
    assert named_files("kaggle:bot") == ["bot"]  # a submission folder
    assert named_files("bot/main.py") == ["bot/main.py"]
    assert named_files("hard") == []
    assert named_files("engine:python3 bot") == ["bot"]  # a folder, as the sandbox grants it
    assert named_files(f"engine:{sys.executable} -m c4tui engine") == []  # the runtime's own
    before = checksum(Path("bot"))
    assert before == checksum(Path("bot")) and len(before) == 64
    (tmp_path / "bot" / "book.json").write_text("{}")
    assert checksum(Path("bot")) != before
    assert checksum(Path("nowhere")) == ""
