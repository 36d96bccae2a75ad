"""``c4tui tournament``'s pre-flight (each program tried before the games), as a teacher meets it:
real tournaments of real engine processes, watched in ``/proc``."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.outside.helpers import commands_alive, engine_command
from tests.process_helpers import run_c4tui, started_c4tui

#: The longest a tournament of these tests may take on a loaded machine.
TOURNAMENT_SECONDS = 300


def engines_running(marker: str) -> set[str]:
    """Which of the tiny engines marked ``marker-N`` have a process alive: their Ns.

    A program's processes (under the sandbox its bubblewrap's too) all carry its
    marker, so each engine counts once however many processes it has; c4tui's own
    (whose command line names every engine) are not counted.
    """
    found = re.compile(rf"{re.escape(marker)}-(\d+)\b")
    return {
        number
        for command in commands_alive().values()
        if "tiny_engine" in command and "c4tui tournament" not in command
        for number in found.findall(command)
    }


def watched_tournament(marker: str, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``c4tui tournament ARGS`` to its end: how it ended, the most engines alive at once."""
    process = started_c4tui("tournament", *args)
    most = 0
    try:
        deadline = time.monotonic() + TOURNAMENT_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            most = max(most, len(engines_running(marker)))
            time.sleep(0.01)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), most


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_the_pre_flight_runs_at_most_concurrency_programs_at_once(tmp_path: Path) -> None:
    marker = f"--marker-{tmp_path.name}"
    # Each engine thinks half a second a move: long enough to be seen beside the others.
    engines = [
        f"e{number}=engine:{engine_command('--late', '0.5', f'{marker}-{number}')}"
        for number in range(5)
    ]
    # A gauntlet of a level against the engines: a game runs one engine, so with
    # --concurrency 2 no more than two may ever run, in the pre-flight as in the games.
    run, most = watched_tournament(
        marker, "easy", *engines, "--gauntlet", "--games", "1", "--movetime", "2000",
        "--concurrency", "2", "--seed", "4",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Warning" not in run.stderr
    assert most == 2  # never more, and the two places were used


@pytest.mark.usefixtures("sandbox")  # the programs run in the real sandbox
def test_a_program_that_never_shakes_hands_loses_its_games_unstarted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    silent = f"silent=engine:{engine_command('--no-hello')}"
    run = run_c4tui(
        "tournament", silent, "easy", "--games", "4", "--openings", "2", "--concurrency", "1",
        "--seed", "5", "--out", str(out), "--start-seconds", "2", timeout=TOURNAMENT_SECONDS,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Warning: silent did not start (time: no answer within 2 s" in run.stderr
    # Waited for once, in the pre-flight: never started again for its four games.
    assert (out / "logs" / "silent.log").read_text().count("got: c4e\n") == 1
    logged = (out / "logs" / "silent.log").read_text()
    assert logged.startswith("[c4tui: started for the try before the games, pid ")
    exchange = (out / "logs" / "silent.preflight.exchange").read_text()
    assert exchange.startswith("> c4e\n")  # what it was sent, for its author (it said nothing)
    games = json.loads((out / "results.json").read_text(encoding="utf-8"))["games"]
    assert len(games) == 4
    for game in games:  # each lost by that failure, from its opening, as the table counts it
        assert game["reason"] == "time" and game["moves"] == game["opening"]
        assert game["result"] == ("yellow" if game["red"] == "silent" else "red")
    (record, *_) = sorted((out / "games").glob("*.c4g"))
    assert "silent lost by time: " in record.read_text(encoding="utf-8")
    assert "(it did not start before the games)" in record.read_text(encoding="utf-8")


@pytest.mark.usefixtures("sandbox")
def test_two_programs_that_never_start_draw_and_each_has_the_failure(tmp_path: Path) -> None:
    """Neither is rewarded with a win it never played for; the table counts both failures."""
    out = tmp_path / "out"
    run = run_c4tui(
        "tournament", f"mute=engine:{engine_command('--no-hello')}",
        f"gone=engine:{engine_command('--exit-at-start')}", "--games", "2",
        "--seed", "3", "--out", str(out), "--start-seconds", "2",
        timeout=TOURNAMENT_SECONDS,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for game in results["games"]:
        assert game["result"] == "draw" and game["reason"] in ("time", "crash")
        assert game["detail"].startswith("neither player started before the games: ")
    players = {player["name"]: player for player in results["players"]}
    for name in ("mute", "gone"):  # (under the red player's failure, the game's reason)
        assert sum(players[name]["failures"].values()) == 2
        assert players[name]["wins"] == 0 and players[name]["score"] == 1


@pytest.mark.parametrize("given", ["0", "1.5", "601", "soon"])
def test_a_start_time_out_of_range_is_refused_before_anything_runs(given: str) -> None:
    run = run_c4tui("tournament", "easy", "hard", "--start-seconds", given)
    assert run.returncode == 2 and run.stdout == ""
    assert f"--start-seconds: must be a whole number from 1 to 600, not {given!r}" in run.stderr
