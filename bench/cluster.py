"""What the cluster costs: the lobby's load on SQLite, PostgreSQL, and nodes joined by Redis.

``python bench/cluster.py --rooms 200 --seconds 20`` starts a real PostgreSQL and a
real Redis on 127.0.0.1 (``tests/dbservers.py``'s starters), then runs the same lobby
load (``bench/lobby_load.py``: rooms of two players, random moves on a 20 × 20 Pop Out
board, ``--viewers`` per room) against each configuration in turn, each on a fresh
database:

- ``sqlite-1``: one node on SQLite (``c4tui serve --db FILE``), the single-machine default;
- ``postgres-1``: one node on PostgreSQL, no bus;
- ``cluster-1``: one node with ``--bus`` (it leads; only the heartbeats cost);
- ``cluster-2``: two nodes, each room's red on one and yellow on the other (half the
  clients forwarded through Redis to the leader);
- ``cluster-2-forwarded``: two nodes, every client on the one that does not lead.

For each: moves/s, the round trip (a move sent → its BOARDSTATUS back to the mover)
p50/p99, the processor seconds each process used while the rooms played (nodes,
PostgreSQL with all its backends, Redis, and this load generator) and the servers'
CPU per move; then the extra cost per move of PostgreSQL against SQLite and of the
bus against none. PostgreSQL syncs its commits as SQLite does (``--no-fsync``: not,
as the tests run it). ``--only NAME`` runs some configurations; ``--json FILE`` writes
the figures. The machine's other load is measured too (``/proc/stat``): on a shared
machine with few cores the latencies say more about the neighbours than the cluster.

``--chaos`` instead: two nodes, ``--rooms`` rooms of two players (red on one node,
yellow on the other) playing paced 7 × 6 games; after ``--kill-after`` seconds one
node (``--kill leader|other``) gets kill -9; players log in again on the other node
and play on from the board the server sends (``bench/cluster_chaos.py``). Then
PostgreSQL must hold every game that began, ended by four or a full board, with the
moves its players saw. The last line is the verdict. Loopback only; bounded by
``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the servers' starters

from cluster_chaos import ChaosTally, Pace, Verdict, chaos_room, judge
from loadgen import TICKS, machine_cpu, process_cpu
from lobby_load import LobbyTally, load_lobby
from server_load import percentile

from c4tui.server.tuning import raise_open_file_limit
from tests.dbservers import PostgresServer, running_redis, start_postgres
from tests.net.cluster.nodes import Cluster, Node
from tests.net.test_serve_command import start

CONFIGURATIONS = ("sqlite-1", "postgres-1", "cluster-1", "cluster-2", "cluster-2-forwarded")
#: The extra costs reported: (what, configuration, its baseline).
COMPARISONS = (
    ("PostgreSQL vs SQLite", "postgres-1", "sqlite-1"),
    ("bus, one node (heartbeats)", "cluster-1", "postgres-1"),
    ("bus, two nodes, half forwarded", "cluster-2", "postgres-1"),
    ("bus, two nodes, all forwarded", "cluster-2-forwarded", "postgres-1"),
)


# ----- processor time --------------------------------------------------------------


def postgres_cpu(postmaster: int) -> float:
    """Seconds PostgreSQL used: its first process, its live children and those reaped."""
    total = _stat_seconds(postmaster, children=True)
    for pid in _children(postmaster):
        total += process_cpu(pid)
    return total


def _stat_seconds(pid: int, children: bool) -> float:
    """utime + stime (and, with ``children``, the reaped children's cutime + cstime)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return sum(int(value) for value in fields[11 : 15 if children else 13]) / TICKS


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rpartition(")")[2].split()[1]) == parent:
                    found.append(int(entry.name))
    return found


@dataclass
class Meter:
    """The processor seconds of named processes and of the machine, between two readings."""

    readers: dict[str, Callable[[], float]]
    began: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    other: float = 0.0  # what programs outside the run took meanwhile

    def start(self) -> None:
        """The first reading (when every room is in)."""
        self.began = {name: read() for name, read in self.readers.items()}
        self.began["machine"] = machine_cpu()
        self.seconds = time.monotonic()

    def stop(self) -> None:
        """The second reading: what each used since ``start``."""
        self.seconds = time.monotonic() - self.seconds
        self.used = {name: read() - self.began[name] for name, read in self.readers.items()}
        self.other = max(0.0, machine_cpu() - self.began["machine"] - sum(self.used.values()))


# ----- the configurations ----------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """A configuration running: the ports clients use, and the processes to measure."""

    ports: list[int]
    processes: dict[str, Callable[[], float]]


def node_options(rooms: int, viewers: int) -> list[str]:
    """Room for every client and room, and no idle limit to meet.

    Every player registers from this one machine: §7's limit on registrations stays on
    (counted) but is raised to the players' number, so that none is refused.
    """
    connections = str(rooms * (2 + viewers) + 100)
    limits = ["--max-connections", connections, "--max-per-address", connections]
    limits += ["--max-registrations", connections]
    return [*limits, "--max-rooms", str(max(rooms, 256)), "--idle-timeout", "120"]


def cpu_of(node: Node) -> Callable[[], float]:
    """A node's processor seconds so far."""
    return lambda: process_cpu(node.process.pid)


@contextlib.contextmanager
def configuration(
    name: str, folder: Path, postgres: PostgresServer, options: list[str]
) -> Iterator[Setup]:
    """Configuration ``name`` started on fresh databases; stopped afterwards."""
    if name == "sqlite-1":
        with solo(folder, "--db", str(folder / "lobby.sqlite3"), *options) as node:
            yield Setup([node.port], {"node a": cpu_of(node)})
        return
    database = postgres.database()
    database_cpu = {"postgres": lambda: postgres_cpu(postgres.postmaster_pid())}
    try:
        if name == "postgres-1":
            with solo(folder, "--db", database, *options) as node:
                yield Setup([node.port], {"node a": cpu_of(node), **database_cpu})
            return
        with running_redis() as redis:
            cluster = Cluster(folder, database, redis.url)
            try:
                nodes = [cluster.start("a", *options)]
                nodes[0].wait_until_said("leads the lobby now")
                if name != "cluster-1":
                    nodes.append(cluster.start("b", *options))
                meters = {f"node {node.name}": cpu_of(node) for node in nodes}
                meters |= {**database_cpu, "redis": lambda: process_cpu(redis.pid)}
                clients_on = {"cluster-2": nodes, "cluster-2-forwarded": nodes[1:]}
                yield Setup([node.port for node in clients_on.get(name, nodes)], meters)
            finally:
                cluster.stop()
    finally:
        postgres.drop(database)


@contextlib.contextmanager
def solo(folder: Path, *options: str) -> Iterator[Node]:
    """One ``c4tui serve`` without a bus."""
    log = folder / "solo.log"
    process, port = start(log, "--bcrypt-rounds", "4", *options)
    node = Node("a", process, port, log)
    try:
        yield node
    finally:
        node.stop()


# ----- one run ---------------------------------------------------------------------


@dataclass
class Figures:
    """One configuration's results."""

    name: str
    moves: int
    moves_per_s: float
    p50_ms: float
    p99_ms: float
    cpu_seconds: dict[str, float]
    server_cpu_us_per_move: float
    loadgen_cpu_seconds: float
    other_cpu_seconds: float
    seconds: float
    room_errors: int


def measure(name: str, setup: Setup, rooms: int, viewers: int, seconds: float) -> Figures:
    """Run the lobby's load against ``setup``; its figures."""
    meter = Meter({**setup.processes, "loadgen": lambda: process_cpu(os.getpid())})
    tally: LobbyTally = asyncio.run(
        load_lobby(setup.ports, rooms, viewers, seconds, None, meter.start)
    )
    if not meter.began:
        raise RuntimeError(f"{name}: not every room logged in ({tally.errors} failed)")
    meter.stop()
    loadgen = meter.used.pop("loadgen")
    moves = max(1, tally.moves)
    return Figures(
        name,
        tally.moves,
        tally.moves / seconds,
        percentile(tally.round_trips, 0.5) * 1000,
        percentile(tally.round_trips, 0.99) * 1000,
        {process: round(used, 2) for process, used in meter.used.items()},
        sum(meter.used.values()) / moves * 1e6,
        loadgen,
        meter.other,
        meter.seconds,
        tally.errors,
    )


def run_all(args: argparse.Namespace) -> list[Figures]:
    """Every configuration asked for, one after the other, on its own databases."""
    results = []
    postgres = start_postgres(fsync=not args.no_fsync)
    try:
        for name in args.only or CONFIGURATIONS:
            with (
                tempfile.TemporaryDirectory(prefix="c4tui-cluster-") as scratch,
                configuration(
                    name, Path(scratch), postgres, node_options(args.rooms, args.viewers)
                ) as setup,
            ):
                try:
                    results.append(measure(name, setup, args.rooms, args.viewers, args.seconds))
                except RuntimeError:
                    show_logs(Path(scratch))
                    raise
            print(row(results[-1]), flush=True)
    finally:
        postgres.stop()
    return results


def show_logs(folder: Path, lines: int = 20) -> None:
    """The nodes' last words (a run that failed); their whole logs are kept under /tmp."""
    kept = Path(tempfile.mkdtemp(prefix="c4tui-cluster-failed-", dir="/tmp"))
    for log in sorted(folder.glob("*.log")):
        shutil.copy(log, kept)
        print(f"--- {log.name}:", *log.read_text().splitlines()[-lines:], sep="\n")
    print(f"(the logs are kept in {kept})")


# ----- the report ------------------------------------------------------------------


def machine() -> dict[str, object]:
    """The machine the figures come from."""
    return {"cores": os.cpu_count(), "load_average": os.getloadavg(), "shared": True}


HEADER = (
    f"{'configuration':<20} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'CPU µs/move':>11}  {'other CPU':>9}  processes (CPU s)"
)


def row(figures: Figures) -> str:
    """One configuration's line of the table."""
    processes = ", ".join(f"{name} {used:.1f}" for name, used in figures.cpu_seconds.items())
    return (
        f"{figures.name:<20} {figures.moves_per_s:>8.0f} {figures.p50_ms:>7.1f} "
        f"{figures.p99_ms:>7.1f} {figures.server_cpu_us_per_move:>11.0f}  "
        f"{figures.other_cpu_seconds:>8.1f}s  {processes}; load generator "
        f"{figures.loadgen_cpu_seconds:.1f}"
        + (f"; room errors {figures.room_errors}" * bool(figures.room_errors))
    )


def extra_costs(results: list[Figures]) -> list[dict[str, object]]:
    """Each comparison whose two configurations ran: µs of CPU a move and p99 added."""
    by_name = {figures.name: figures for figures in results}
    costs = []
    for what, name, baseline in COMPARISONS:
        if name in by_name and baseline in by_name:
            this, base = by_name[name], by_name[baseline]
            costs.append(
                {
                    "what": what,
                    "configuration": name,
                    "baseline": baseline,
                    "cpu_us_per_move": this.server_cpu_us_per_move - base.server_cpu_us_per_move,
                    "p99_ms": this.p99_ms - base.p99_ms,
                }
            )
    return costs


def report(args: argparse.Namespace, results: list[Figures]) -> dict[str, object]:
    """Print the extra costs and the machine; the whole report for ``--json``."""
    costs = extra_costs(results)
    print("extra cost per move (servers' CPU; round-trip p99):")
    for cost in costs:
        print(
            f"  {cost['what']:<32} {cost['cpu_us_per_move']:>+8.0f} µs CPU   "
            f"{cost['p99_ms']:>+8.1f} ms p99   ({cost['configuration']} - {cost['baseline']})"
        )
    shown = machine()
    print(
        f"machine: {shown['cores']} cores, shared with other work (load average at the end "
        f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}); 'other CPU' is what other "
        "programs took during each run, the load generator shares the cores too"
    )
    return {
        "command": sys.argv,
        "rooms": args.rooms,
        "postgres_fsync": not args.no_fsync,
        "viewers": args.viewers,
        "seconds": args.seconds,
        "machine": shown,
        "configurations": [asdict(figures) for figures in results],
        "extra_costs": costs,
    }


# ----- chaos -----------------------------------------------------------------------


async def chaos(
    args: argparse.Namespace, ports: list[int], victim: Node
) -> tuple[ChaosTally, float]:
    """The rooms play; ``victim`` is killed midway; the tally, and when the kill was."""
    tally = ChaosTally()
    pace = Pace(args.think, time.monotonic() + args.seconds)
    rooms = [asyncio.create_task(chaos_room(n, ports, pace, tally)) for n in range(args.rooms)]
    await asyncio.sleep(args.kill_after)
    victim.kill()
    killed_at = time.monotonic()
    print(f"kill -9 node {victim.name} after {args.kill_after:g} s", flush=True)
    done, pending = await asyncio.wait(rooms, timeout=args.seconds + 180)
    for task in pending:
        task.cancel()
        tally.problems.append("a room did not finish in time")
    for task in done:
        if task.exception() is not None:
            tally.problems.append(f"a room failed: {task.exception()!r}")
    return tally, killed_at


def run_chaos(args: argparse.Namespace) -> Verdict:
    """Two nodes, one killed mid-games; the database's verdict."""
    postgres = start_postgres()
    try:
        database = postgres.database()
        with (
            tempfile.TemporaryDirectory(prefix="c4tui-chaos-") as scratch,
            running_redis() as redis,
        ):
            cluster = Cluster(Path(scratch), database, redis.url)
            options = [*node_options(args.rooms, 0), "--reconnect-grace", str(args.reconnect_grace)]
            try:
                leader = cluster.start("a", *options)
                leader.wait_until_said("leads the lobby now")
                other = cluster.start("b", *options)
                victim = leader if args.kill == "leader" else other
                tally, killed_at = asyncio.run(chaos(args, [leader.port, other.port], victim))
            finally:
                cluster.stop()
        verdict = judge(database, tally, killed_at)
        print(
            f"players came back {verdict.comebacks} times, the slowest "
            f"{verdict.slowest_comeback:.1f} s after its connection dropped"
        )
        return verdict
    finally:
        postgres.stop()


def parse_arguments() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=200, help="rooms of two players")
    parser.add_argument("--viewers", type=int, default=0, help="viewers per room")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each load plays")
    parser.add_argument(
        "--no-fsync",
        action="store_true",
        help="PostgreSQL without fsync (SQLite still syncs every commit)",
    )
    parser.add_argument("--only", nargs="+", choices=CONFIGURATIONS, help="these configurations")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--chaos", action="store_true", help="the kill -9 run instead")
    parser.add_argument("--kill", choices=("leader", "other"), default="leader", help="chaos: whom")
    parser.add_argument("--kill-after", type=float, default=5.0, help="chaos: seconds to the kill")
    parser.add_argument("--think", type=float, default=0.2, help="chaos: pause before a move (s)")
    parser.add_argument(
        "--reconnect-grace", type=int, default=30, help="chaos: the nodes' --reconnect-grace"
    )
    return parser.parse_args()


def main() -> None:
    """Run the benchmark (or the chaos run) and report."""
    args = parse_arguments()
    raise_open_file_limit()
    if args.chaos:
        verdict = run_chaos(args)
        if args.json:
            args.json.write_text(json.dumps({"command": sys.argv, **asdict(verdict)}, indent=2))
        print(verdict.line())
        raise SystemExit(0 if not verdict.lost else 1)
    print(
        f"lobby load: {args.rooms} rooms x (2 players + {args.viewers} viewers), "
        f"{args.seconds:g} s each, 127.0.0.1; PostgreSQL fsync {'off' if args.no_fsync else 'on'}"
        ", SQLite synchronous=FULL"
    )
    print(HEADER, flush=True)
    results = run_all(args)
    whole = report(args, results)
    if args.json:
        args.json.write_text(json.dumps(whole, indent=2))


if __name__ == "__main__":
    main()
