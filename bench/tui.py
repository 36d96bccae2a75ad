"""How quickly the Textual app answers: start to first frame, and keypress to repaint.

Run: ``python bench/tui.py [--keys N]``. Headless (no terminal needed). A "frame"
is the moment the app hands a finished screen update to its driver
(``App._display``), i.e. after layout and rendering, before terminal I/O.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time

from textual import events

from c4tui.engine import Player, Rules
from c4tui.match import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen

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


async def key_latencies(keys: list[str], settings: MatchSettings) -> list[float]:
    """Seconds from each key reaching the app to the repaint it causes."""
    app = C4App(settings)
    repainted = repaints_of(app)
    latencies = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # start the game from the menu
        await pilot.pause(0.3)
        assert app._driver is not None
        for key in keys:
            repainted.clear()
            event = events.Key(key, "\r" if key == "enter" else None)
            event.set_sender(app)
            began = time.perf_counter()
            app._driver.send_message(event)
            await asyncio.wait_for(repainted.wait(), timeout=5)
            latencies.append(time.perf_counter() - began)
            await asyncio.sleep(0.02)  # a fast typist, not a flood
    return latencies


async def latencies_while_hard_thinks(count: int) -> list[float]:
    """Cursor key to repaint while Hard searches (20x20 Pop Out, it opens as RED).

    Each new game (n) starts a fresh search; keys are measured only while it runs.
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
    app = C4App(settings)
    repainted = repaints_of(app)
    latencies: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause(1.0)  # the worker process starts
        screen = app.screen
        assert isinstance(screen, GameScreen) and app._driver is not None
        while len(latencies) < count:
            screen.action_new_game()
            await asyncio.sleep(0.05)
            key = "right"
            while not screen.driver.awaiting_submission() and len(latencies) < count:
                repainted.clear()
                event = events.Key(key, None)
                event.set_sender(app)
                began = time.perf_counter()
                app._driver.send_message(event)
                await asyncio.wait_for(repainted.wait(), timeout=5)
                if not screen.driver.awaiting_submission():  # still thinking when it showed
                    latencies.append(time.perf_counter() - began)
                key = "left" if key == "right" else "right"
                await asyncio.sleep(0.02)
    return latencies


def report(name: str, seconds: list[float]) -> None:
    """One line: median and p95 in milliseconds."""
    median = statistics.median(seconds) * 1000
    p95 = percentile(seconds, 0.95) * 1000
    print(f"{name:<44} n={len(seconds):<4} median {median:7.1f} ms   p95 {p95:7.1f} ms")


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keys", type=int, default=200, help="key presses per measurement")
    count = parser.parse_args().keys
    report("start to first frame (80x24, new process)", first_frame_seconds())
    big = MatchSettings(columns=20, rows=20)
    cursor_keys = ["right", "left"] * (count // 2)
    report("cursor key -> repaint (20x20, 80x24)", asyncio.run(key_latencies(cursor_keys, big)))
    # Enter drops a disc, u takes it back: the heavier path through controller and panel.
    move_keys = ["enter", "u"] * (count // 2)
    report("drop/undo key -> repaint (20x20, 80x24)", asyncio.run(key_latencies(move_keys, big)))
    report(
        "cursor key -> repaint while Hard thinks (20x20)",
        asyncio.run(latencies_while_hard_thinks(count)),
    )


if __name__ == "__main__":
    main()
