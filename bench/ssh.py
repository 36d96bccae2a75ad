"""The app over ssh, measured: the server's memory with 50 idle visitors, a keypress's round trip.

Run: ``python bench/ssh.py [--visitors 50] [--keys 100] [--timeout 900]`` from the checkout
(needs the ssh extra and Debian's openssh-client). Loopback only. It checks issue 42's goals:

1. **Memory**: ``c4tui serve --ssh-port 0`` starts in a data folder of its own; its own
   memory is read before any visitor, then with ``--visitors`` real OpenSSH clients
   (``ssh -tt`` on pseudo-terminals, one key each: ``tests/ssh/terminal.py``) connected
   at once, each having named its account and sitting in the lobby, after a few idle
   seconds. The goal is the server's growth in **RSS** against 60 MB: RSS counts every
   page the server touches, shared or not. PSS (``smaps_rollup``) is printed too, but it
   divides the pages the server shares with the visitors' apps (the Python binary and
   its libraries) among them all, so it falls as apps start and would flatter the server.
   The apps are their own processes: their total (PSS: what they cost the machine
   together; RSS: counting their shared pages in each) is printed for the operator.
   Visitors are let in a few at a time (``--batch``): each app's start-up takes a core.
2. **Round trip**: one more visitor, on the menu (the lobby's Back), moves the Rules
   row between Classic and Pop Out with right and left (a small redraw, certain: the
   screen is checked after each key). Each key is timed from writing its bytes to the
   pseudo-terminal to the first byte of the redraw arriving back, and to the last byte
   of the burst (the last output before the next key, ``--spacing`` later); median,
   p95 and max of the first byte against 16 ms (a frame). Measured with the idle
   visitors connected, then with the server quiet (they gone), then with the app run
   locally on a pseudo-terminal without ssh (``python -m c4tui``: what ssh adds).

Prints each figure, PASS or FAIL per goal; exits 1 if one fails (2 if the bench could
not run: the server did not start, a visitor never reached the lobby, time ran out).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the ssh terminal

from loadgen import machine_cpu
from server_load import percentile, start_server, stop_server
from ssh_processes import MB, Memory, cpu_of, memory_of, shown, total, visitor_apps
from startup import child_env

from tests.ssh.terminal import PtyTerminal, SshTerminal, make_key

#: Issue 42's goals.
MEMORY_GOAL_MB = 60.0
FRAME_MS = 16.0

NEW_KEY = "This ssh key is new here"
#: Lines of the server's log shown when the bench cannot measure.
LOG_LINES = 20
#: Times a visitor types its name before the bench gives up.
TRIES = 3
#: Seconds a visitor has to reach the lobby (generous: 2 cores, apps starting).
VISITOR_SECONDS = 120.0
#: The Rules row's two choices, as the screen shows the one chosen.
POP_OUT = "▐●▌ Pop Out"
CLASSIC = "▐●▌ Classic"
#: The mode whose menu both the visitor's app and the local app have, and how many there are.
TWO_PLAYERS = "▐●▌ Two players"
MODES = 4
#: Tabs from the menu's Mode row to its Rules row (Board's two fields between them).
TABS_TO_RULES = 3


class BenchError(Exception):
    """The bench could not measure (the message says what went wrong)."""


# ----- the server and its visitors ----------------------------------------------------


@dataclass(frozen=True)
class Server:
    """The running server: its process id, its data folder and its ssh door's port."""

    pid: int
    data: Path
    ssh_port: int


@contextmanager
def running_server(data: Path, visitors: int) -> Iterator[Server]:
    """``c4tui serve`` with its ssh door, room for ``visitors`` (and the timed one) from loopback.

    Every visitor comes from 127.0.0.1 with an ssh connection and its app's lobby
    connection, and names a new account: ``--max-per-address`` and ``--max-registrations``
    are raised so the bench measures the door, not the limits on one address.
    """
    command = [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--ssh-port", "0"]
    command += ["--ssh-max-visitors", str(visitors + 10), "--bcrypt-rounds", "4"]
    command += ["--max-per-address", str(4 * visitors + 20), "--max-registrations", "0"]
    command += ["--db", str(data / "lobby.sqlite3")]
    os.environ.update(child_env(data))  # start_server runs the command in this environment
    with open(data / "serve.log", "w", encoding="utf-8") as log:
        process, _ = start_server(command, log)
    try:
        found = re.search(r"over ssh on [0-9.]+:(\d+)", (data / "serve.log").read_text())
        if found is None:
            raise BenchError("the server did not log its ssh port")
        yield Server(process.pid, data, int(found.group(1)))
    finally:
        stop_server(process)


def make_account(terminal: PtyTerminal, name: str, seconds: float) -> None:
    """A new key names its account (the field holds the ssh user's name: replaced).

    The name is seen in the field before Enter: on a busy machine an app just started
    may miss keys typed before its field has the focus (it would register what it got).
    """
    terminal.wait_for(NEW_KEY, seconds=seconds)
    for _ in range(TRIES):
        terminal.press(*["\x7f"] * 20, name)
        try:
            terminal.wait_for(name, seconds=min(seconds, 10))
        except AssertionError:
            continue
        terminal.press("enter")
        terminal.wait_for(f"logged in as {name}", seconds=seconds)
        return
    raise BenchError(f"{name}'s app never showed its name typed in:\n{terminal.text()}")


def seat_visitors(
    server: Server, count: int, batch: int, deadline: float, stack: ExitStack
) -> list[SshTerminal]:
    """``count`` visitors in the lobby, each with its key and account, ``batch`` at a time."""
    seated: list[SshTerminal] = []
    while len(seated) < count:
        group = []
        for number in range(len(seated), min(count, len(seated) + batch)):
            key = make_key(server.data / f"visitor{number}_ed25519")
            terminal = SshTerminal(server.ssh_port, key, user=f"v{number}")
            stack.callback(terminal.close)
            group.append((f"idle{number}", terminal))
        for name, terminal in group:
            make_account(terminal, name, seconds=min(VISITOR_SECONDS, left(deadline)))
        seated += [terminal for _, terminal in group]
        print(f"  {len(seated)} visitors in the lobby", flush=True)
    return seated


def left(deadline: float) -> float:
    """Seconds until ``deadline`` (BenchError once it has passed)."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise BenchError("out of time (--timeout)")
    return remaining


def wait_until(done: Callable[[], bool], deadline: float, what: str) -> None:
    """Poll ``done`` until it is true (BenchError, saying ``what``, past ``deadline``)."""
    while not done():
        if time.monotonic() > deadline:
            raise BenchError(f"out of time waiting for {what}")
        time.sleep(0.1)


# ----- the round trip -----------------------------------------------------------------


class Arrivals:
    """When each chunk of a terminal's output arrived (perf_counter), told by its reader."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._times: list[float] = []

    def heard(self, data: bytes) -> None:
        """A chunk arrived now (the terminal's ``heard``)."""
        now = time.perf_counter()
        with self._lock:
            self._times.append(now)

    def since(self, began: float) -> list[float]:
        """The arrival times from ``began`` on; forgets them all."""
        with self._lock:
            times, self._times = self._times, []
        return [moment for moment in times if moment >= began]


@dataclass(frozen=True)
class RoundTrips:
    """Milliseconds from each key's write to its redraw's first byte, and to its burst's end.

    ``cpu``: each watched process's processor time per key (ms), which a busy machine
    hardly moves; ``others``: the share of the machine's cores other programs took.
    """

    first: list[float]
    last: list[float]
    missed: int
    cpu: dict[str, float]
    others: float


def to_rules_row(terminal: PtyTerminal, seconds: float) -> None:
    """Focus the menu's Rules row, on Classic, in the mode Two players.

    The same mode over ssh (whose menu comes back from the lobby on Online) and locally:
    Online's menu redraws its description after each Rules key, a second frame.
    """
    terminal.wait_for("Mode", "Rules", CLASSIC, seconds=seconds)
    for _ in range(MODES):
        if TWO_PLAYERS in terminal.text():
            break
        terminal.press("right")  # the Mode row has the focus; right goes round its choices
        time.sleep(0.2)
    terminal.wait_for(TWO_PLAYERS, seconds=seconds)
    terminal.press(*["tab"] * TABS_TO_RULES)
    terminal.press("right")
    terminal.wait_for(POP_OUT, seconds=seconds)
    terminal.press("left")
    terminal.wait_for(CLASSIC, seconds=seconds)


def time_keys(
    terminal: PtyTerminal,
    arrivals: Arrivals,
    keys: int,
    spacing: float,
    watched: dict[str, list[int]],
) -> RoundTrips:
    """Press right and left in turn ``keys`` times, ``spacing`` apart, each redraw checked.

    ``watched``: the processes (in groups, by name) whose processor time is counted meanwhile.
    """
    first: list[float] = []
    last: list[float] = []
    missed = 0
    time.sleep(spacing)
    watched = {**watched, "bench": [os.getpid()]}
    cpu = {name: cpu_of(pids) for name, pids in watched.items()}
    machine, wall = machine_cpu(), time.perf_counter()
    for number in range(keys):
        key, expected = ("right", POP_OUT) if number % 2 == 0 else ("left", CLASSIC)
        arrivals.since(time.perf_counter())  # forget what came before
        began = time.perf_counter()
        terminal.press(key)
        time.sleep(max(0.0, began + spacing - time.perf_counter()))
        came = arrivals.since(began)
        if not came or expected not in terminal.text():
            missed += 1
            continue
        first.append((came[0] - began) * 1000)
        last.append((came[-1] - began) * 1000)
    used = {name: cpu_of(pids) - cpu[name] for name, pids in watched.items()}
    others = (machine_cpu() - machine - sum(used.values())) / (time.perf_counter() - wall)
    per_key = {name: seconds * 1000 / keys for name, seconds in used.items()}
    return RoundTrips(first, last, missed, per_key, others / (os.cpu_count() or 1))


@dataclass(frozen=True)
class Timed:
    """The timed visitor: its terminal, its output's arrivals, and the processes to watch."""

    terminal: SshTerminal
    arrivals: Arrivals
    watched: dict[str, list[int]]

    def trips(self, args: argparse.Namespace) -> RoundTrips:
        """``args.keys`` keys timed, ``args.spacing`` apart."""
        return time_keys(self.terminal, self.arrivals, args.keys, args.spacing, self.watched)


def timed_visitor(server: Server, seconds: float, stack: ExitStack) -> Timed:
    """A visitor with its account, on the menu's Rules row, its output timed."""
    arrivals = Arrivals()
    others = set(visitor_apps(server.pid))
    key = make_key(server.data / "timed_ed25519")
    terminal = SshTerminal(server.ssh_port, key, user="timed", heard=arrivals.heard)
    stack.callback(terminal.close)
    make_account(terminal, "timed", seconds)
    terminal.press("escape")  # the lobby's Back: the menu
    to_rules_row(terminal, seconds)
    app = next(pid for pid in visitor_apps(server.pid) if pid not in others)
    idle = sorted(others)
    watched = {"server": [server.pid], "app": [app], "ssh": [terminal.process.pid]}
    if idle:
        watched["idle apps (all)"] = idle
    return Timed(terminal, arrivals, watched)


def local_round_trips(data: Path, keys: int, spacing: float, seconds: float) -> RoundTrips:
    """The same keys in ``python -m c4tui`` on a pseudo-terminal of its own, without ssh."""
    arrivals = Arrivals()
    env = child_env(data / "local", TERM="xterm-256color")
    command = [sys.executable, "-m", "c4tui"]
    terminal = PtyTerminal(command, env=env, heard=arrivals.heard)
    try:
        to_rules_row(terminal, seconds)
        return time_keys(terminal, arrivals, keys, spacing, {"app": [terminal.process.pid]})
    finally:
        terminal.close()


def trips_line(name: str, trips: RoundTrips) -> str:
    """Median, p95 and max of the first byte, the burst's end's median and p95; the CPU."""
    if not trips.first:
        return f"  {name:<30} no redraw seen ({trips.missed} keys missed)"
    first, last = trips.first, trips.last
    cpu = ", ".join(f"{who} {ms:.2f}" for who, ms in trips.cpu.items())
    return (
        f"  {name:<30} n={len(first):<3} first byte: median {statistics.median(first):5.1f} ms, "
        f"p95 {percentile(first, 0.95):5.1f}, max {max(first):5.1f}; burst's end: median "
        f"{statistics.median(last):5.1f}, p95 {percentile(last, 0.95):5.1f}"
        + (f"; {trips.missed} keys missed" if trips.missed else "")
        + f"\n  {'':<30} CPU per key (ms): {cpu}; other programs took "
        f"{trips.others:.0%} of the cores meanwhile"
    )


def trips_pass(trips: RoundTrips) -> bool:
    """The round-trip goal: every key redrawn, its first byte's p95 within a frame."""
    return not trips.missed and bool(trips.first) and percentile(trips.first, 0.95) <= FRAME_MS


def verdict(ok: bool) -> str:
    """PASS or FAIL."""
    return "PASS" if ok else "FAIL"


# ----- the whole bench ----------------------------------------------------------------


def check_memory(server: Server, before: Memory, seated: int) -> bool:
    """The server's growth since ``before`` against the goal; the apps' total, for the operator."""
    during = memory_of(server.pid)
    apps = visitor_apps(server.pid)
    memory = total(apps)
    growth = (during.rss - before.rss) / MB
    pss = "n/a"
    if during.pss is not None and before.pss is not None:
        pss = f"{(during.pss - before.pss) / MB:+.1f} MB"
    ok = growth < MEMORY_GOAL_MB
    print(f"server with {seated} idle visitors: {shown(during)}")
    print(
        f"  the server's growth: RSS {growth:+.1f} MB (the goal's figure: < "
        f"{MEMORY_GOAL_MB:.0f} MB), PSS {pss}   {verdict(ok)}"
    )
    print(
        f"  the visitors' apps ({len(apps)} processes): {shown(memory)} in all; each: "
        f"PSS {(memory.pss or 0) / max(1, seated) / MB:.1f} MB, "
        f"RSS {memory.rss / max(1, seated) / MB:.1f} MB"
    )
    return ok


def leave(server: Server, seated: list[SshTerminal], deadline: float) -> None:
    """The idle visitors hang up; wait until only the timed visitor's app is left."""
    for terminal in seated:
        terminal.close()
    wait_until(lambda: len(visitor_apps(server.pid)) <= 1, deadline, "the visitors' apps to end")
    time.sleep(1)  # their visits' ends logged, their lobby connections closed
    print(f"server after the idle visitors left: {shown(memory_of(server.pid))}")


def bench(args: argparse.Namespace, data: Path) -> bool:
    """Measure and print; True if every goal is met."""
    deadline = time.monotonic() + args.timeout
    with running_server(data, args.visitors) as server, ExitStack() as stack:
        time.sleep(args.idle)
        before = memory_of(server.pid)
        print(f"server before any visitor: {shown(before)}", flush=True)
        seated = seat_visitors(server, args.visitors, args.batch, deadline, stack)
        time.sleep(args.idle)
        ok = check_memory(server, before, len(seated))
        timed = timed_visitor(server, left(deadline), stack)
        print(
            f"round trip of {args.keys} keys, {args.spacing * 1000:.0f} ms apart (goal: p95 "
            f"of the first byte <= {FRAME_MS:.0f} ms):",
            flush=True,
        )
        loaded = timed.trips(args)
        print(trips_line(f"over ssh, {len(seated)} idle visitors", loaded), flush=True)
        leave(server, seated, deadline)
        quiet = timed.trips(args)
        print(trips_line("over ssh, server quiet", quiet), flush=True)
    local = local_round_trips(data, args.keys, args.spacing, left(deadline))
    print(trips_line("locally, no ssh (baseline)", local))
    for name, trips in (("with the idle visitors", loaded), ("server quiet", quiet)):
        print(f"  round trip over ssh, {name}: {verdict(trips_pass(trips))}")
        ok &= trips_pass(trips)
    return ok


def main() -> None:
    """Parse, measure, exit 0 (every goal met), 1 (one failed) or 2 (could not measure)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=50, help="idle visitors (default 50)")
    parser.add_argument(
        "--batch", type=int, default=4, help="visitors let in at a time (default 4)"
    )
    parser.add_argument("--keys", type=int, default=100, help="keys timed each time (default 100)")
    parser.add_argument(
        "--spacing", type=float, default=0.1, help="seconds between keys (default 0.1)"
    )
    parser.add_argument(
        "--idle", type=float, default=5.0, help="idle seconds before memory is read (default 5)"
    )
    parser.add_argument(
        "--timeout", type=float, default=900.0, help="seconds for the whole bench (default 900)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="c4tui-bench-ssh-") as folder:
        try:
            ok = bench(args, Path(folder))
        except (BenchError, AssertionError, RuntimeError) as error:
            print(f"the bench could not measure: {error}", file=sys.stderr)
            log = Path(folder) / "serve.log"
            if log.exists():
                tail = log.read_text(errors="replace").splitlines()[-LOG_LINES:]
                print("the server's log ended:", *tail, sep="\n  ", file=sys.stderr)
            sys.exit(2)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
