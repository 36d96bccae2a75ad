"""c4tui's Perfect and Hard against Kaggle's ConnectX "negamax" agent, through ``c4tui tournament``.

Run: ``python bench/kaggle_negamax.py [--games 20] [--movetime 1000] [--out DIR]``.

The agent comes from the ``kaggle-environments`` package, which this bench needs and
c4tui does not (``pip install kaggle-environments``; only its source file is read, the
package is never imported, so none of its own requirements are needed). Its
``connectx.py`` defines the agent beside the helpers it calls (``play``, ``is_win``);
the part of the file up to its ``agents = {…}`` table is written to a temporary
``negamax.py``, whose last function is ``negamax_agent`` — the agent, as Kaggle runs
it. Then ``c4tui tournament perfect hard negamax=kaggle:negamax.py --gauntlet``-style
runs play it: each level against the agent, ``--games`` games a pairing (both colours
of each opening), and the standings are printed as the tournament prints them.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Where the agent's table starts in ``connectx.py``: everything above it is the agent's.
AGENTS_TABLE = "agents = {"


def negamax_source() -> str:
    """The agent's part of kaggle-environments' ``connectx.py``; SystemExit if it is missing."""
    spec = importlib.util.find_spec("kaggle_environments")
    if spec is None or spec.submodule_search_locations is None:
        raise SystemExit("this bench needs kaggle-environments: pip install kaggle-environments")
    folder = Path(next(iter(spec.submodule_search_locations)))
    source = (folder / "envs" / "connectx" / "connectx.py").read_text(encoding="utf-8")
    head, found, _ = source.partition(AGENTS_TABLE)
    if not found or "def negamax_agent" not in head:
        raise SystemExit("kaggle-environments' connectx.py is not laid out as expected")
    return head


def main() -> int:
    """Write the agent, play the levels against it, print the standings and the rate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds per move")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="keep the results here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="c4tui-negamax-") as scratch:
        agent = Path(scratch) / "negamax.py"
        agent.write_text(negamax_source(), encoding="utf-8")
        out = args.out or Path(scratch) / "out"
        for level in ("perfect", "hard"):
            command = [
                sys.executable, "-m", "c4tui", "tournament", level, f"negamax=kaggle:{agent}",
                "--games", str(args.games), "--movetime", str(args.movetime),
                "--concurrency", str(args.concurrency), "--seed", str(args.seed),
                "--out", str(out / level),
            ]  # fmt: skip
            started = time.monotonic()
            done = subprocess.run(command, check=False)
            minutes = (time.monotonic() - started) / 60
            rate = args.games / minutes
            print(f"{level} vs negamax: {args.games} games in {minutes:.1f} min "
                  f"({rate:.1f} games a minute), exit {done.returncode}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
