"""How many games a minute ``c4tui tournament`` plays on this machine.

Run: ``python bench/tournament.py [--games 8] [--concurrency 2] [--movetime 1000]``.
Plays, through the real command (``python -m c4tui tournament``), two pairings one
after the other: Hard against Medium (the levels search in the pool's processes),
then two small Kaggle agents (each move a fresh ask to an agent running in its own
Python process): the centre-first agent of the tests and a random one written here.
Each run's wall-clock time (openings included) is turned into games per minute.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CENTRE_AGENT = ROOT / "tests" / "data" / "outside" / "centre_agent.py"
RANDOM_AGENT = """import random


def agent(observation, configuration):
    free = [c for c in range(configuration.columns) if observation.board[c] == 0]
    return random.choice(free)
"""


def games_a_minute(players: list[str], args: argparse.Namespace, folder: Path) -> float:
    """Play one tournament between ``players``; print and return its games per minute."""
    out = folder / "out"
    command = [
        sys.executable, "-m", "c4tui", "tournament", *players,
        "--games", str(args.games), "--concurrency", str(args.concurrency),
        "--movetime", str(args.movetime), "--seed", "1", "--out", str(out),
    ]  # fmt: skip
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    elapsed = time.monotonic() - started
    games = json.loads((out / "results.json").read_text())["games"]
    moves = sum(len(game["moves"].split()) for game in games)
    rate = len(games) / elapsed * 60
    names = [player.split("=", 1)[0] if "=" in player else player for player in players]
    print(
        f"{' vs '.join(names)}: {len(games)} games ({moves} moves) in {elapsed:.1f} s: "
        f"{rate:.1f} games a minute"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per pairing")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds a move")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as levels, tempfile.TemporaryDirectory() as agents:
        games_a_minute(["hard", "medium"], args, Path(levels))
        random_agent = Path(agents) / "random_agent.py"
        random_agent.write_text(RANDOM_AGENT)
        agents_given = [f"centre=kaggle:{CENTRE_AGENT}", f"random=kaggle:{random_agent}"]
        games_a_minute(agents_given, args, Path(agents))


if __name__ == "__main__":
    main()
