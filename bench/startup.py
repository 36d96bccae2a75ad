"""How quickly c4tui starts, next to a minimal Textual app measured the same way.

Run: ``python bench/startup.py [--runs N] [--no-tmux] [--instructions]`` from the
checkout. Every run is a new process. Four things are timed:

- **minimal app**: a Textual app with one ``Static``, to its first frame (the floor);
- **menu**: ``c4tui`` (the real command line, no arguments), to the menu's first frame;
- **--help**: ``python -m c4tui --help``, to its exit;
- **console**: ``python -m c4tui console``, to its first prompt on standard output.

The two apps are timed twice: headless (a frame is the moment the app hands a
finished screen update to its driver, ``App._display``, as in ``bench/tui.py``)
and in a real terminal, an 80 × 24 tmux pane (the child notes the wall-clock time
of its first frame; the launch time is noted just before tmux starts it). Runs of
the kinds are interleaved, so a busy machine slows them alike.

``--instructions`` adds what a busy machine cannot blur: the instructions each app
runs to its first frame (valgrind's callgrind), and the menu's extra turned into
time at the pace of the minimal app's median.

Next to each wall time is the CPU time the process used until then (the apps note
their own; for --help and the console it is the child's to its exit): on a shared
machine it moves far less than the wall time. The package is byte-compiled first,
as an installed one is (PYTHONDONTWRITEBYTECODE would otherwise make every run
compile c4tui from source, which the minimal app never pays).
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (80, 24)

#: The budgets of issue 15, part 2 (milliseconds).
MENU_P95_BUDGET = 300.0
MENU_OVER_MINIMAL_BUDGET = 100.0

#: Patches Textual so a child notes its first frame and exits; HEADLESS runs it headless.
HOOK = """
import os, sys, time
from textual.app import App

_display = App._display

def _first_frame(self, screen, renderable):
    _display(self, screen, renderable)
    if renderable is not None and not getattr(self, "_bench_done", False):
        self._bench_done = True
        report = os.environ.get("BENCH_REPORT")
        if report:
            with open(report, "w") as file:
                file.write(f"{time.time()!r} {time.process_time()!r}")
        else:
            print("frame", time.process_time(), flush=True)
        self.exit()

App._display = _first_frame
if os.environ.get("BENCH_HEADLESS"):
    _run = App.run
    App.run = lambda self, **kw: _run(self, headless=True, size=SIZE)
""".replace("SIZE", repr(SIZE))

MINIMAL_APP = (
    HOOK
    + """
from textual.widgets import Static

class Minimal(App[None]):
    def compose(self):
        yield Static("Connect Four")

Minimal().run()
"""
)

MENU = (
    HOOK
    + """
from c4tui.cli import main

main([])
"""
)


def child_env(data: Path, **extra: str) -> dict[str, str]:
    """The environment of every child: this checkout first, a data folder of its own."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["XDG_DATA_HOME"] = str(data)
    env.update(extra)
    return env


#: A measurement: wall seconds and CPU seconds.
Times = tuple[float, float]


def children_cpu() -> float:
    """CPU seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def headless_frame(code: str, data: Path) -> Times:
    """Seconds from launching ``python -c code`` to its first frame, headless."""
    began = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=child_env(data, BENCH_HEADLESS="1"),
    ) as child:
        assert child.stdout is not None
        line = child.stdout.readline()
        elapsed = time.perf_counter() - began
        child.wait(timeout=30)
    word, _, cpu = line.partition(" ")
    if word != "frame":
        raise RuntimeError("the app produced no frame")
    return elapsed, float(cpu)


def until_exit(args: list[str], data: Path) -> Times:
    """Seconds from launching ``python args`` to its exit."""
    cpu = children_cpu()
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env=child_env(data),
        check=True,
        timeout=30,
    )
    return time.perf_counter() - began, children_cpu() - cpu


def until_output(args: list[str], data: Path) -> Times:
    """Seconds from launching ``python args`` to its first output (a prompt)."""
    cpu = children_cpu()
    began = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stdin=subprocess.PIPE,
        cwd=ROOT,
        env=child_env(data),
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        first = os.read(child.stdout.fileno(), 1)
        elapsed = time.perf_counter() - began
        child.stdin.close()
        child.stdout.read()
        child.wait(timeout=30)
    if not first:
        raise RuntimeError(f"{args} printed nothing")
    return elapsed, children_cpu() - cpu


class Tmux:
    """An 80 × 24 tmux session of its own (its own server socket), to run apps in."""

    def __init__(self, folder: Path) -> None:
        self.socket = str(folder / "tmux.sock")
        self.tmux("new-session", "-d", "-s", "bench", "-x", str(SIZE[0]), "-y", str(SIZE[1]))
        self.tmux("set-option", "-g", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        """Run a tmux command on this session's server."""
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def frame(self, code: str, data: Path) -> Times:
        """Seconds from launching ``python -c code`` in the pane to its first frame."""
        report = data / "frame-time"
        report.unlink(missing_ok=True)
        env = child_env(data, BENCH_REPORT=str(report), TERM="xterm-256color")
        exports = " ".join(
            f"{key}={shlex.quote(env[key])}"
            for key in ("PYTHONPATH", "XDG_DATA_HOME", "BENCH_REPORT", "TERM")
        )
        command = (
            f"cd {shlex.quote(str(ROOT))} && env {exports} "
            f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
        )
        began = time.time()
        self.tmux("respawn-pane", "-k", "-t", "bench", command)
        deadline = time.monotonic() + 30
        while not report.exists() or not report.read_text():
            if time.monotonic() > deadline:
                pane = self.tmux("capture-pane", "-p", "-t", "bench")
                raise RuntimeError(f"no frame in tmux; the pane shows:\n{pane}")
            time.sleep(0.005)
        time.sleep(0.01)
        wall, cpu = map(float, report.read_text().split())
        return wall - began, cpu

    def close(self) -> None:
        """End the session and its server."""
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], check=False)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def line(name: str, times: list[Times]) -> str:
    """One line: median and p95 in milliseconds, wall time then CPU time."""
    wall = [seconds for seconds, _ in times]
    cpu = [seconds for _, seconds in times]
    return (
        f"{name:<34} n={len(times):<3} median {statistics.median(wall) * 1000:5.0f} ms  "
        f"p95 {percentile(wall, 0.95) * 1000:5.0f} ms   (CPU: median "
        f"{statistics.median(cpu) * 1000:4.0f} ms, p95 {percentile(cpu, 0.95) * 1000:4.0f} ms)"
    )


def verdict(name: str, value: float, budget: float) -> str:
    """A budget line: the figure, the budget, ok or MISSED."""
    mark = "ok" if value <= budget else "MISSED"
    return f"  {name:<36} {value:6.0f} ms   budget {budget:4.0f} ms   {mark}"


def measure(runs: int, use_tmux: bool) -> dict[str, list[Times]]:
    """Every kind's times, ``runs`` of each, interleaved."""
    compileall.compile_dir(ROOT / "c4tui", quiet=1)
    kinds: dict[str, Callable[[Path], Times]] = {
        "minimal Textual app (headless)": lambda data: headless_frame(MINIMAL_APP, data),
        "c4tui menu (headless)": lambda data: headless_frame(MENU, data),
        "c4tui --help (to exit)": lambda data: until_exit(["-m", "c4tui", "--help"], data),
        "c4tui console (to first prompt)": lambda data: until_output(
            ["-m", "c4tui", "console"], data
        ),
    }
    with tempfile.TemporaryDirectory(prefix="c4tui-startup-") as folder:
        data = Path(folder)
        tmux = Tmux(data) if use_tmux else None
        if tmux is not None:
            kinds["minimal Textual app (tmux)"] = lambda data: tmux.frame(MINIMAL_APP, data)
            kinds["c4tui menu (tmux)"] = lambda data: tmux.frame(MENU, data)
        try:
            for run in kinds.values():  # a warm-up of each: compiled bytecode, disk cache
                run(data)
            times: dict[str, list[Times]] = {name: [] for name in kinds}
            for _ in range(runs):
                for name, run in kinds.items():
                    times[name].append(run(data))
        finally:
            if tmux is not None:
                tmux.close()
    return times


def report(times: dict[str, list[Times]]) -> None:
    """The figures, then the budgets they are held to (on wall time)."""
    for name, measured in times.items():
        print(line(name, measured))
    print("budgets (issue 15, part 2), on wall time:")
    for where in ("headless", "tmux"):
        if f"c4tui menu ({where})" not in times:
            continue
        menu = [wall for wall, _ in times[f"c4tui menu ({where})"]]
        minimal = [wall for wall, _ in times[f"minimal Textual app ({where})"]]
        menu_p95 = percentile(menu, 0.95) * 1000
        over = (statistics.median(menu) - statistics.median(minimal)) * 1000
        print(verdict(f"menu p95, {where}", menu_p95, MENU_P95_BUDGET))
        print(verdict(f"menu - minimal (medians), {where}", over, MENU_OVER_MINIMAL_BUDGET))


def instructions(code: str, data: Path) -> int:
    """Instructions ``python -c code`` runs to its first frame (headless), counted by callgrind.

    Unlike time, the count hardly moves when other programs share the machine.
    """
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env(data, BENCH_HEADLESS="1"),
        timeout=600,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind counted nothing:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def report_instructions(times: dict[str, list[Times]]) -> None:
    """Instructions to the first frame, and the menu's extra as time at the minimal app's pace."""
    with tempfile.TemporaryDirectory(prefix="c4tui-startup-") as folder:
        minimal = instructions(MINIMAL_APP, Path(folder))
        menu = instructions(MENU, Path(folder))
    extra = menu / minimal - 1
    pace = statistics.median(wall for wall, _ in times["minimal Textual app (headless)"])
    over = extra * pace * 1000
    print(
        f"instructions to the first frame (callgrind): minimal app {minimal / 1e6:,.0f} M, "
        f"menu {menu / 1e6:,.0f} M (+{extra:.0%}: {over:.0f} ms at the minimal app's median)"
    )
    print(verdict("menu - minimal, by instructions", over, MENU_OVER_MINIMAL_BUDGET))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each (default 20)")
    parser.add_argument(
        "--no-tmux", action="store_true", help="headless only (no tmux, or no terminal wanted)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count both apps' instructions with valgrind (steady on a busy machine)",
    )
    args = parser.parse_args()
    use_tmux = not args.no_tmux and shutil.which("tmux") is not None
    if not args.no_tmux and not use_tmux:
        print("tmux not found: headless only", file=sys.stderr)
    times = measure(args.runs, use_tmux)
    report(times)
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("valgrind not found: no instruction counts", file=sys.stderr)
        else:
            report_instructions(times)


if __name__ == "__main__":
    main()
