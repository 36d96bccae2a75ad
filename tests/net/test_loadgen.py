"""The C load generator (bench/loadgen.c) plays every protocol by the server's rules.

It mirrors each game itself (four in a row, Pop Out, repetition) and counts any answer
it did not expect as an error; so a clean run means its figures are moves, not errors.
"""

from __future__ import annotations

import shutil
import subprocess
from types import ModuleType

import pytest

from c4tui.server.core import C4Server
from tests.bench_modules import bench_module

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def bench_loadgen() -> ModuleType:
    """bench/loadgen.py, imported from its file."""
    return bench_module("loadgen")


def run(port: int, *arguments: str) -> dict[str, list[str]]:
    """Run the generator; its report, a line's words by the line's first word."""
    binary = bench_loadgen().build()
    done = subprocess.run(
        [str(binary), str(port), *arguments], capture_output=True, text=True, timeout=60, check=True
    )
    return {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines() if line}


def test_players_of_every_protocol_finish_games_without_an_error(server: C4Server) -> None:
    report = run(server.port, "mixed", "12", "0", "2.5", "0", "7", "0")
    assert report["errors"][0] == "0", report.get("last_error")
    for protocol in ("i32cfsp", "cfsp", "c4n"):
        words = report[protocol]
        assert int(words[words.index("games") + 1]) > 0, report


def test_paced_players_keep_their_pace(server: C4Server) -> None:
    report = run(server.port, "i32cfsp", "10", "0", "2.5", "0.5", "3", "8")
    words = report["all"]
    moves_per_s = float(words[words.index("moves_per_s") + 1])
    assert report["errors"][0] == "0", report.get("last_error")
    assert 60 <= moves_per_s <= 90  # 10 players x 8 moves/s


def test_holders_stay_connected_in_their_games(server: C4Server) -> None:
    report = run(server.port, "mixed", "0", "9", "1", "0", "5", "0")
    assert report["held"][0] == "9"
    assert report["errors"] == ["0", "peak_open", "9", "held_at_end", "9", "of", "9"]
