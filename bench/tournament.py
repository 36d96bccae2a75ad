"""How many games a minute ``c4tui tournament`` plays on this machine, and the sandbox's cost.

Run: ``python bench/tournament.py [--games 8] [--concurrency 2] [--movetime 1000]
[--starts 20]``. Plays, through the real command (``python -m c4tui tournament``),
pairings one after the other: Hard against Medium (the levels search in the pool's
processes), then two small Kaggle agents (each game starts each agent's Python
process afresh): the centre-first agent of the tests and a random one written here,
in the sandbox (as a tournament runs them) and ``--unconfined``, twice each way. Each
run's wall-clock time (openings included) is turned into games per minute, and the
faster run of each way into the sandbox's cost per game.

Then the sandbox's cost per program, measured directly: tiny programs (the tests' C
engine, built with gcc, their Python engine and the centre-first agent) started
``--starts`` times each way, the sandboxed and unconfined starts taking turns, timing
each start to its first move (an engine's ``c4eok``, ``readyok`` and a ``bestmove``:
the round trips take microseconds; an agent's runner loading and its first answer)
and its end (from ``close`` until its processes, and the sandbox's, are gone). The
goal: under 50 ms a program start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from c4tui.engine import GameState
from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.kaggle import KaggleChooser
from c4tui.outside.program import Limits, ProgramChooser, Sandboxing

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "outside"
CENTRE_AGENT = DATA / "centre_agent.py"
ENGINES = DATA / "engines"
#: The goal for the sandbox: a program's start costs less than this, in milliseconds.
START_GOAL_MS = 50.0
#: Runs of the agents' tournament each way (the faster one counts).
AGENT_RUNS = 2
#: A program to time, made with the limits of one way.
Program = Callable[[Limits], ProgramChooser]
#: How a program runs, each way of the comparison.
WAYS = {
    "unconfined": Limits(sandboxing=Sandboxing.OFF),
    "sandboxed": Limits(sandboxing=Sandboxing.REQUIRED),
}
RANDOM_AGENT = """import random


def agent(observation, configuration):
    free = [c for c in range(configuration.columns) if observation.board[c] == 0]
    return random.choice(free)
"""


def games_a_minute(
    players: list[str], args: argparse.Namespace, folder: Path, *options: str
) -> float:
    """Play one tournament between ``players``; print and return its games per minute."""
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)  # a second run in the same folder starts afresh
    command = [
        sys.executable, "-m", "c4tui", "tournament", *players, *options,
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
        f"{' vs '.join(names)}{''.join(f' {option}' for option in options)}: {len(games)} "
        f"games ({moves} moves) in {elapsed:.1f} s: {rate:.1f} games a minute"
    )
    return rate


def agents_with_and_without_sandbox(args: argparse.Namespace, folder: Path) -> None:
    """The two agents' tournament sandboxed and ``--unconfined``, and the difference a game.

    Each way is played twice, turn about, and the faster of its two runs kept: on a
    shared machine one run may be twice as slow as the next for nothing it did, so
    the difference is rough (the direct timing, ``sandbox_costs``, is the measure).
    """
    random_agent = folder / "random_agent.py"
    random_agent.write_text(RANDOM_AGENT)
    agents = [f"centre=kaggle:{CENTRE_AGENT}", f"random=kaggle:{random_agent}"]
    options = {"sandboxed": [], "unconfined": ["--unconfined"]}
    best = dict.fromkeys(options, 0.0)
    for _ in range(AGENT_RUNS):
        for way, given in options.items():
            best[way] = max(best[way], games_a_minute(agents, args, folder, *given))
    cost = (60 / best["sandboxed"] - 60 / best["unconfined"]) * 1000
    print(
        f"  the sandbox, the faster runs: {best['sandboxed']:.1f} against {best['unconfined']:.1f}"
        f" games a minute, {cost:+.0f} ms of wall-clock time a game (each game starts and "
        f"ends both agents; {args.concurrency} games at once; rough, see below)"
    )


async def start_and_end(program: Program, limits: Limits) -> tuple[float, float]:
    """Seconds from starting the program to its first move, and from ending it to its end."""
    chooser = program(limits)
    started = time.perf_counter()
    try:
        await chooser.choose(GameState.new(), 5.0)
    finally:
        answered = time.perf_counter()
        await chooser.close()
    return answered - started, time.perf_counter() - answered


async def timed_starts(program: Program, starts: int) -> dict[str, list[tuple[float, float]]]:
    """``starts`` starts and ends of the program each way, the ways taking turns.

    Taking turns gives each way a fair share of a shared machine's ups and downs.
    """
    times: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    for _ in range(starts):
        for way, limits in WAYS.items():
            times[way].append(await start_and_end(program, limits))
    return times


def sandbox_cost(name: str, program: Program, starts: int) -> float:
    """Print the program's start and end each way (medians) and the sandbox's cost.

    Returns the cost of a start, in milliseconds.
    """
    times = asyncio.run(timed_starts(program, starts))
    start = {way: statistics.median(s for s, _ in times[way]) * 1000 for way in WAYS}
    end = {way: statistics.median(e for _, e in times[way]) * 1000 for way in WAYS}
    start_cost = start["sandboxed"] - start["unconfined"]
    end_cost = end["sandboxed"] - end["unconfined"]
    game_cost = 2 * (start_cost + end_cost)  # both players start and end once a game
    print(
        f"{name:<14} {start['unconfined']:10.1f} {start['sandboxed']:9.1f} {start_cost:+7.1f}"
        f"   {end['unconfined']:10.1f} {end['sandboxed']:9.1f} {end_cost:+7.1f}"
        f"   {game_cost:+13.1f}"
    )
    return start_cost


def programs_timed(folder: Path) -> dict[str, Program]:
    """The tiny C engine (when gcc is here to build it), the Python one and a Kaggle agent."""
    commands = {}
    if shutil.which("gcc"):
        binary = folder / "centre_engine"
        build = ["gcc", "-O2", "-o", str(binary), str(ENGINES / "centre_engine.c")]
        subprocess.run(build, check=True)
        commands["C engine"] = shlex.quote(str(binary))
    else:
        print("(gcc is not installed: apt-get install gcc; the C engine is not timed)")
    # c4tui's own Python both ways (the sandbox's PATH has it first; outside, python3 may be
    # another one, or a slow shim such as pyenv's).
    commands["Python engine"] = shlex.join([sys.executable, str(ENGINES / "centre_engine.py")])
    programs: dict[str, Program] = {
        name: partial(_engine, command) for name, command in commands.items()
    }
    programs["Kaggle agent"] = partial(_agent, CENTRE_AGENT)
    return programs


def _engine(command: str, limits: Limits) -> ProgramChooser:
    return EngineChooser(command, limits=limits)


def _agent(path: Path, limits: Limits) -> ProgramChooser:
    return KaggleChooser(path, limits=limits)


def sandbox_costs(starts: int, folder: Path) -> None:
    """The sandbox's cost per program start and end, for each tiny program, against the goal."""
    programs = programs_timed(folder)
    columns = f"{'unconfined':>10} {'sandboxed':>9} {'cost':>7}"
    print(f"\nThe sandbox's cost per program: medians of {starts} starts each way, in ms")
    print(f"{'':<14} {'start to its first move':<28}   {'its end':<28}   {'a game of two':>13}")
    print(f"{'':<14} {columns}   {columns}   {'cost':>13}")
    costs = [sandbox_cost(name, program, starts) for name, program in programs.items()]
    verdict = "met" if max(costs) < START_GOAL_MS else "MISSED"
    print(
        f"Goal, a start under {START_GOAL_MS:.0f} ms more than unconfined: {verdict} "
        f"(the dearest here {max(costs):+.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per pairing")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds a move")
    parser.add_argument("--starts", type=int, default=20, help="program starts timed each way")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        games_a_minute(["hard", "medium"], args, Path(folder))
        agents_with_and_without_sandbox(args, Path(folder))
        sandbox_costs(args.starts, Path(folder))


if __name__ == "__main__":
    main()
