"""BitBully, the yardstick of ``bench/solver.py``: the same sets, in an environment of its own.

BitBully (C++ with its 12-ply opening book) is AGPL: it is never a dependency
of c4tui, never imported by it, never vendored. This module installs it with
pip into a separate virtual environment under the user's cache folder (made
once, kept), then runs ``RUNNER`` there: a script that reads the sets, solves
every position with each of BitBully's three searches (one transposition table
kept across a set, as ours is), checks each score, and prints one JSON line per
set and search. ``best_means`` keeps the fastest search of each set, so the
yardstick is BitBully at its best.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import platformdirs

#: The BitBully release measured against (its wheels come with the 12-ply book's package).
BITBULLY_REQUIREMENT = "bitbully==0.0.79"
VENV_FOLDER = Path(platformdirs.user_cache_dir("c4tui")) / "bench" / "bitbully-venv"

RUNNER = r"""
import json, sys, time
from pathlib import Path
import bitbully.bitbully_core as core
import bitbully_databases

book = Path(bitbully_databases.BitBullyDatabases.get_database_path("12-ply-dist"))
searches = {
    "negamax": lambda agent, board: agent.negamax(board, -100, 100, 0),
    "nullWindow": lambda agent, board: agent.nullWindow(board),
    "mtdf": lambda agent, board: agent.mtdf(board, 0),
}
for search, run in searches.items():
    agent = core.BitBullyCore(book)
    for name, path, limit in json.loads(sys.argv[1]):
        lines = [line.split() for line in Path(path).read_text().splitlines() if line.strip()]
        total, wrong = 0.0, 0
        for moves, expected in lines[:limit]:
            board = core.BoardCore()
            board.play([int(digit) - 1 for digit in moves])
            started = time.perf_counter()
            score = run(agent, board)
            total += time.perf_counter() - started
            wrong += score != int(expected)
        count = min(limit, len(lines))
        print(json.dumps({"set": name, "search": search, "n": count, "wrong": wrong,
                          "mean": total / count}), flush=True)
"""


def python_with_bitbully(folder: Path = VENV_FOLDER) -> Path:
    """The interpreter of a virtual environment that has BitBully, made on the first call."""
    python = folder / "bin" / "python"
    if not python.exists():
        print(f"installing {BITBULLY_REQUIREMENT} into {folder} (once) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    probe = subprocess.run([str(python), "-c", "import bitbully"], check=False, capture_output=True)
    if probe.returncode != 0:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", BITBULLY_REQUIREMENT], check=True
        )
    return python


def time_bitbully(sets: list[tuple[str, Path, int]], folder: Path = VENV_FOLDER) -> list[dict]:
    """BitBully's results on ``sets`` (name, file, positions): one record per set and search."""
    python = python_with_bitbully(folder)
    arguments = json.dumps([(name, str(path), limit) for name, path, limit in sets])
    finished = subprocess.run(
        [str(python), "-c", RUNNER, arguments], capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]


def best_means(records: list[dict]) -> dict[str, tuple[float, str, int]]:
    """Per set: BitBully's lowest mean seconds, the search that had it, and its wrong scores."""
    best: dict[str, tuple[float, str, int]] = {}
    for record in records:
        name = record["set"]
        if name not in best or record["mean"] < best[name][0]:
            best[name] = (record["mean"], record["search"], record["wrong"])
    return best
