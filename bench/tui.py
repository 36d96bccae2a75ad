"""How quickly the Textual app answers: start to first frame, and keypress to repaint.

Run: ``python bench/tui.py [--rounds N] [--no-start]``. Headless (no terminal needed). A "frame"
is the moment the app hands a finished screen update to its driver
(``App._display``), i.e. after layout and rendering, before terminal I/O.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time

from c4tui.cli.app import use_frame_rate

use_frame_rate()  # as `c4tui` starts the app (it must come before Textual loads)

from textual import events  # noqa: E402

from c4tui.engine import Player, Rules  # noqa: E402
from c4tui.match.settings import MatchSettings  # noqa: E402
from c4tui.ui.app import C4App  # noqa: E402
from c4tui.ui.screens.game import GameScreen  # noqa: E402

FIRST_FRAME_RUNS = 5

CHILD_CODE = """
import asyncio
from c4tui.ui.app import C4App

app = C4App()
original = app._display

def display(screen, renderable):
    original(screen, renderable)
    if renderable is not None:
        print("frame", flush=True)
        app.exit()

app._display = display
asyncio.run(app.run_async(headless=True, size=(80, 24)))
"""


def first_frame_seconds() -> list[float]:
    """Wall time from launching ``python`` to the app's first frame, several runs.

    The app is built here, not by the command line: ``bench/startup.py`` times the
    real start (``c4tui``), next to a minimal Textual app and the start budgets.
    """
    times = []
    for _ in range(FIRST_FRAME_RUNS):
        began = time.perf_counter()
        with subprocess.Popen(
            [sys.executable, "-c", CHILD_CODE], stdout=subprocess.PIPE, text=True
        ) as child:
            assert child.stdout is not None
            line = child.stdout.readline()
            times.append(time.perf_counter() - began)
            child.wait(timeout=30)
        if line.strip() != "frame":
            raise RuntimeError("the app produced no frame")
    return times


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def repaints_of(app: C4App) -> asyncio.Event:
    """An event set whenever ``app`` hands a finished frame to its driver."""
    repainted = asyncio.Event()
    original = app._display

    def display(screen: object, renderable: object) -> None:
        original(screen, renderable)  # type: ignore[arg-type]
        if renderable is not None:
            repainted.set()

    app._display = display  # type: ignore[method-assign]
    return repainted


#: Terminal sizes the key budget holds at (the smallest that shows a 20 x 20 board, and big).
SIZES = ((80, 24), (200, 60))
#: Key → repaint budget, milliseconds (one frame at 60 Hz).
FRAME_BUDGET_MS = 16.0
#: The game keys of one round on an empty 20 x 20 Pop Out board, two players on one keyboard,
#: each with what it exercises. The round ends where it began (an empty board, drop mode).
ROUND = (
    ("cursor", "right"),
    ("cursor", "left"),
    ("cursor", "home"),
    ("drop", "enter"),  # RED in column 1; the disc falls for DROP_SECONDS
    ("key during the drop animation", "right"),
    ("key during the drop animation", "left"),
    ("drop", "enter"),  # YELLOW in column 1, on top
    ("key during the drop animation", "right"),
    ("cursor", "home"),
    ("toggle drop/pop (p)", "p"),  # RED pops their own disc from column 1
    ("pop", "enter"),  # and back to drop mode
    ("undo", "u"),
    ("toggle drop/pop (p)", "p"),
    ("toggle drop/pop (p)", "p"),
    ("undo", "u"),
    ("undo", "u"),
    ("toggle threats (w)", "w"),
    ("toggle threats (w)", "w"),
    ("toggle analysis (a)", "a"),  # each column's outcome, worked out by the AI's workers
    ("toggle analysis (a)", "a"),
    ("hint request", "h"),
)
#: CPU seconds of each key timed, in order: what the app itself spent, whatever else
#: the machine was doing (a diagnostic beside the wall-clock figures).
CPU_SECONDS: list[float] = []
#: Seconds between keys: a fast typist (and inside the drop animation after a drop).
KEY_GAP_SECONDS = 0.03


def new_data_folder() -> None:
    """A data folder for the next app: no unfinished game offered (yours or the last app's)."""
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="c4tui-bench-")


async def press_and_time(app: C4App, repainted: asyncio.Event, key: str) -> float:
    """Seconds from ``key`` reaching the app to the first frame after it."""
    assert app._driver is not None
    repainted.clear()
    event = events.Key(key, "\r" if key == "enter" else None)
    event.set_sender(app)
    began = time.perf_counter()
    cpu_began = time.process_time()
    app._driver.send_message(event)
    try:
        await asyncio.wait_for(repainted.wait(), timeout=5)
    except TimeoutError:
        raise RuntimeError(f"no repaint after {key!r}") from None
    CPU_SECONDS.append(time.process_time() - cpu_began)
    return time.perf_counter() - began


async def game_key_latencies(rounds: int, size: tuple[int, int]) -> dict[str, list[float]]:
    """Every game key's latency on a 20 x 20 Pop Out board, by what the key does."""
    settings = MatchSettings(columns=20, rows=20, rules=Rules.POPOUT)
    new_data_folder()
    gc.disable()  # as `c4tui` starts the app: on again, the start frozen, at the first frame
    app = C4App(settings)
    repainted = repaints_of(app)
    latencies: dict[str, list[float]] = {}
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter")  # start the game from the menu
        await pilot.pause(0.5)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.board.cursor = 10
        _, height = screen.needed_size()
        # With the analysis row a 20 x 20 board needs one more line than 80 x 24 has: there
        # the app swaps the board for its "too small" notice, a change of screen, not a key.
        keys = [(what, key) for what, key in ROUND if key != "a" or height < size[1]]
        for _ in range(rounds):
            for what, key in keys:
                latencies.setdefault(what, []).append(await press_and_time(app, repainted, key))
                await asyncio.sleep(KEY_GAP_SECONDS)
            screen.workers.cancel_all()  # the hint of this round, if still searching
            await screen.driver.settled()
            await pilot.pause(0.1)
            screen.board.cursor = 10  # where the hint left it is not where a round starts
            await pilot.pause(0.1)
        assert not screen.driver.moves, "a round should end on the empty board"
    return latencies


async def latencies_while_hard_thinks(count: int, size: tuple[int, int]) -> list[float]:
    """Cursor key to repaint while Hard searches (20x20 Pop Out, it opens as RED).

    Each new game starts a fresh search; keys are measured only while it runs.
    """
    settings = MatchSettings(
        opponent="computer",
        options={"level": "hard"},
        columns=20,
        rows=20,
        rules=Rules.POPOUT,
        person_colour=Player.YELLOW,
        ai_delay=0.0,
    )
    new_data_folder()
    gc.disable()  # as `c4tui` starts the app: on again, the start frozen, at the first frame
    app = C4App(settings)
    repainted = repaints_of(app)
    latencies: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter")
        await pilot.pause(1.0)  # the worker process starts
        screen = app.screen
        assert isinstance(screen, GameScreen) and app._driver is not None
        deadline = time.monotonic() + 120
        while len(latencies) < count:
            if time.monotonic() > deadline:
                raise RuntimeError("Hard never thought long enough to measure keys")
            screen._restart()  # a new game without the question n asks mid-game
            await asyncio.sleep(0.05)
            key = "right"
            while not screen.driver.awaiting_submission() and len(latencies) < count:
                latency = await press_and_time(app, repainted, key)
                if not screen.driver.awaiting_submission():  # still thinking when it showed
                    latencies.append(latency)
                key = "left" if key == "right" else "right"
                await asyncio.sleep(KEY_GAP_SECONDS)
    return latencies


def report(name: str, seconds: list[float], budget_ms: float | None = None) -> bool:
    """One line: median and p95 in milliseconds, and the budget for p95 if there is one."""
    median = statistics.median(seconds) * 1000
    p95 = percentile(seconds, 0.95) * 1000
    verdict = ""
    met = True
    if budget_ms is not None:
        met = p95 <= budget_ms
        verdict = f"   (budget p95 <= {budget_ms:g} ms: {'ok' if met else 'MISSED'})"
    print(f"{name:<52} n={len(seconds):<4} median {median:6.1f} ms   p95 {p95:6.1f} ms{verdict}")
    return met


def main() -> None:
    """Measure and print; exit status 1 if a budget is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    # 24: the keys a round presses once (pop, hint) get 24 samples; with 12, p95 was the maximum.
    parser.add_argument("--rounds", type=int, default=24, help="rounds of game keys per size")
    parser.add_argument("--thinking", type=int, default=100, help="keys while Hard thinks")
    parser.add_argument("--no-start", action="store_true", help="skip the first-frame runs")
    options = parser.parse_args()
    met = True
    if not options.no_start:
        report("start to first frame (80x24, new process)", first_frame_seconds())
    for size in SIZES:
        where = f"20x20 at {size[0]}x{size[1]}"
        by_key = asyncio.run(game_key_latencies(options.rounds, size))
        for what, seconds in by_key.items():
            met &= report(f"{what} -> repaint ({where})", seconds, FRAME_BUDGET_MS)
        report(f"  (CPU time of the keys above, {where})", CPU_SECONDS)
        CPU_SECONDS.clear()
        met &= report(
            f"cursor while Hard thinks -> repaint ({where})",
            asyncio.run(latencies_while_hard_thinks(options.thinking, size)),
            FRAME_BUDGET_MS,
        )
    print("every key budget met" if met else "a key budget was MISSED")
    raise SystemExit(0 if met else 1)


if __name__ == "__main__":
    main()
