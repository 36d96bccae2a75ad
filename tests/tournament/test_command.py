"""``c4tui tournament`` as a teacher runs it: levels, engines and Kaggle agents, real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from c4tui.cli import main
from c4tui.engine import GameState, Player
from c4tui.records.format import Result, parse_record
from c4tui.tournament.results import moves_text, read_moves
from tests.outside.helpers import CENTRE_AGENT, engine_command, engines_alive
from tests.process_helpers import run_c4tui, started_c4tui


def results(folder: Path) -> dict[str, Any]:
    content: dict[str, Any] = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return content


def players_by_name(folder: Path) -> dict[str, dict[str, Any]]:
    return {player["name"]: player for player in results(folder)["players"]}


def check_game(game: dict[str, Any]) -> None:
    """The game's moves (its opening first) are legal and end as its result and reason say."""
    moves = read_moves(game["moves"])
    assert moves[: len(read_moves(game["opening"]))] == read_moves(game["opening"])
    final = GameState.new().play_all(moves)
    if game["reason"] == "four":
        assert final.winner is Player[game["result"].upper()]
    elif game["reason"] == "full":
        assert final.is_over and final.winner is None and game["result"] == "draw"
    else:
        assert not final.is_over and game["result"] in ("red", "yellow")


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_a_tiny_round_robin_saves_results_records_and_logs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    engine, agent = f"engine:{engine_command()}", f"kaggle:{CENTRE_AGENT}"
    run = run_c4tui(
        "tournament", "random", "easy", engine, agent, "--games", "2", "--movetime", "500",
        "--seed", "1", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    # Not a terminal: one plain line per game, then the table; the programs' stderr elsewhere.
    lines = run.stdout.splitlines()
    assert sum(line.startswith("[") and "/12] " in line for line in lines) == 12
    assert any(line.split()[:3] == ["#", "Player", "Games"] for line in lines)
    assert "thinking" not in run.stdout + run.stderr and "got:" not in run.stdout + run.stderr
    assert "thinking" in (out / "logs" / "centre_agent.log").read_text()
    assert "got: c4e" in (out / "logs" / "tiny_engine.py.log").read_text()
    content = results(out)
    assert len(content["games"]) == 12
    assert {player["name"] for player in content["players"]} == {
        "random", "easy", "tiny_engine.py", "centre_agent",
    }  # fmt: skip
    assert all(player["games"] == 6 for player in content["players"])
    assert sum(player["score"] for player in content["players"]) == 12
    for game in content["games"]:
        check_game(game)
    records = sorted((out / "games").glob("*.c4g"))
    assert len(records) == 12
    for number, (path, game) in enumerate(zip(records, content["games"], strict=True), start=1):
        assert path.name == f"{number:04d}-{game['red']}-vs-{game['yellow']}.c4g"
        text = path.read_text(encoding="utf-8")
        assert f"# Tournament game {number} of 12" in text
        record = parse_record(text)
        assert record.result is not Result.UNFINISHED
        assert (record.red, record.yellow) == (game["red"], game["yellow"])
        assert moves_text(record.moves) == game["moves"]
        # The solver's review, as annotations after the moves (7 x 6 classic).
        assert record.comments[0].startswith("The solver's review")
        assert any("kept the best outcome with" in comment for comment in record.comments)
    # Each player's accuracy and costliest mistakes, each mistake one its games hold.
    for player in content["players"]:
        assert 0.0 <= player["accuracy"] <= 1.0
        assert len(player["mistakes"]) <= 3
        for mistake in player["mistakes"]:
            game = content["games"][mistake["game"] - 1]
            assert player["name"] in (game["red"], game["yellow"])
            assert game["moves"].split()[mistake["move"] - 1] == mistake["played"]
            assert (mistake["before"], mistake["after"]) != ("loss", "loss")
    assert "Accuracy" in run.stdout and "Costliest mistakes:" in run.stdout
    # Random's first move gives up the first player's win or the second's draw, so it is
    # seen throwing outcomes away.
    assert players_by_name(out)["random"]["mistakes"]


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_a_crashing_and_a_cheating_engine_lose_only_their_own_games(tmp_path: Path) -> None:
    out = tmp_path / "out"
    crashy = f"crashy=engine:{engine_command('--crash-at', '3')}"
    cheat = f"cheat=engine:{engine_command('--illegal')}"
    run = run_c4tui(
        "tournament", "medium", crashy, cheat, "--games", "2", "--movetime", "500",
        "--seed", "2", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    players = players_by_name(out)
    assert players["medium"]["failures"] == {"crash": 0, "time": 0, "illegal": 0}
    assert players["medium"]["wins"] == 4
    assert players["crashy"]["failures"] == {"crash": 2, "time": 0, "illegal": 0}
    assert players["crashy"]["wins"] == 2  # against the cheat, who fails first
    assert players["cheat"]["failures"] == {"crash": 0, "time": 0, "illegal": 4}
    assert players["cheat"]["elo"] is None  # 0 %
    for game in results(out)["games"]:
        check_game(game)
        loser = game["yellow"] if game["result"] == "red" else game["red"]
        expected = {"crashy": "crash", "cheat": "illegal"}.get(loser, "four")
        assert game["reason"] == expected
        if loser == "crashy":  # the failure's whole text, its last words included
            assert game["detail"].startswith("crashy lost by crash: exited with status 3")
            assert "something broke at move 3" in game["detail"]
    assert "something broke at move 3" in (out / "logs" / "crashy.log").read_text()


def interrupted(
    args: list[str], until: Callable[[], bool], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``c4tui tournament ARGS``, stopped by Ctrl-C once ``until()``: how it ended."""
    process = started_c4tui("tournament", *args, env=env)
    try:
        deadline = time.monotonic() + 240
        while not until() and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole group
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_ctrl_c_keeps_what_finished_and_resume_plays_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "out"
    marker = f"--marker-{tmp_path.name}"
    engine = f"engine:{engine_command('--late', '0.1', marker)}"
    run = interrupted(
        ["hard", "medium", engine, "--games", "4", "--movetime", "300", "--seed", "3",
         "--out", str(out)],
        until=(out / "results.json").exists,
    )  # fmt: skip
    stdout, stderr = run.stdout, run.stderr
    assert run.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert f"c4tui tournament --resume {out}" in stdout
    kept = results(out)["games"]
    assert 1 <= len(kept) < 12
    assert len(list((out / "games").glob("*.c4g"))) == len(kept)
    time.sleep(1)
    assert engines_alive(marker) == []
    resumed = run_c4tui("tournament", "--resume", str(out), timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{12 - len(kept)} games to play ({len(kept)} already played)" in resumed.stdout
    games = results(out)["games"]
    assert len(games) == 12 and games[: len(kept)] == kept
    assert len(list((out / "games").glob("*.c4g"))) == 12
    pairs = {(game["red"], game["yellow"]) for game in games}
    assert len(pairs) == 6  # every pairing with both colours
    again = run_c4tui("tournament", "--resume", str(out), "--movetime", "400")
    assert again.returncode == 2
    assert "--movetime 400 differs from the tournament's 300" in again.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["hard"], "at least two players"),
        (["hard", "grandmaster"], "not a player"),
        (["hard", "a b=engine:x"], "the name 'a b' has a space in it: a NAME is 1 to 32 of"),
        (["hard", "ann/deep=hard"], "the name 'ann/deep' has '/' in it"),
        (["hard", f"{'n' * 33}=hard"], f"the name '{'n' * 33}' is 33 characters long, over 32"),
        (["hard", "=hard"], "'=hard' has no name before its '='"),
        (["hard", f"kaggle:{CENTRE_AGENT}", "--rules", "popout"], "classic rules only"),
        (["hard", "easy", "--resume", "nowhere-at-all"], "not a tournament's folder"),
    ],
)
def test_what_makes_no_tournament_exits_2_in_words(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *args]) == 2
    error = capsys.readouterr().err
    assert error.startswith("c4tui tournament: error:") and words in error


def test_the_help_says_what_a_name_may_be(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--help"])
    assert exit_.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "NAME is 1 to 32 of A-Z, a-z, 0-9, _, . and - (no space, no slash" in shown
    assert "unless a : comes before it (engine:./deep --depth=8 has no NAME)" in shown


def test_a_folder_holding_a_tournament_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tournament.json").write_text("{}")
    assert main(["tournament", "hard", "easy", "--out", str(tmp_path)]) == 2
    assert f"resume it with --resume {tmp_path}" in capsys.readouterr().err


def test_a_bad_option_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "hard", "easy", "--movetime", "fast"])
    assert exit_.value.code == 2


def test_a_folder_that_cannot_be_written_stops_it_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    assert main(["tournament", "hard", "easy", "--out", str(tmp_path / "a-file" / "out")]) == 1
    assert "c4tui tournament: cannot go on:" in capsys.readouterr().err


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_without_out_nothing_stays_in_the_temporary_folder(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    levels_only = run_c4tui("tournament", "random", "easy", "--seed", "1", env=env)
    assert levels_only.returncode == 0, levels_only.stderr
    assert list(tmp_path.iterdir()) == [] and "standard error" not in levels_only.stdout
    with_agent = run_c4tui("tournament", "random", f"kaggle:{CENTRE_AGENT}", "--seed", "1", env=env)
    assert with_agent.returncode == 0, with_agent.stderr
    assert list(tmp_path.iterdir()) == []
    assert "Programs' standard error is kept only with --out DIR" in with_agent.stdout
    # Nor after Ctrl-C, once a program has written its log there.
    engine = f"engine:{engine_command('--late', '0.2')}"
    run = interrupted(
        ["medium", engine, "--games", "4", "--movetime", "500", "--seed", "2"],
        until=lambda: any(tmp_path.glob("c4tui-*/*.log")),
        env=env,
    )
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_a_program_that_cannot_play_is_named_before_the_games(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def agent(observation, configuration)\n    return 3\n", encoding="utf-8")
    run = run_c4tui(
        "tournament", str(broken), "random", "--games", "2", "--movetime", "500", timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "Warning: broken did not start (crash: could not load broken.py: " in run.stderr
    assert "(broken.py, line 1)" in run.stderr
    assert run.stdout.splitlines()[0].startswith("Seed ")  # said, to play it again
    assert "2 games to play" in run.stdout  # it still plays, and loses, its games
