"""The lobby under load: M rooms, two players and V viewers each, every move broadcast.

Run through ``python bench/server_load.py --scenario lobby --rooms 500 --viewers 2
--seconds 10``. Each room's players play random legal moves on a 20 × 20 Pop Out
board, one after the other as fast as the answers come, with their viewers in the
room (a game that ends is started again in a new room). Reported: moves/s over all
rooms, and the broadcast latency — from a player sending a move to each viewer
receiving its BOARDSTATUS — p50/p99, and the round trip (from a player sending a move
to its own BOARDSTATUS back), with the server's peak memory. With
``--clock M+I`` every room is timed (§5.4): each move is also followed by CLOCK to
everyone, and the server checks the clocks every 50 ms (give a clock longer than
the run: a flag that falls ends that room's game on time). Given several ports (the nodes
of a cluster, ``bench/cluster.py``), a room's players and viewers are spread over them.
Loopback
only; bounded by ``--seconds``. The load generator shares the machine's cores with
the server, so the figures are a floor for the server alone.

Run as a script, it measures what spec §7 costs (issue 39: at most 10 % at 1,000
players): ``python bench/lobby_load.py --rooms 500 --viewers 0 --seconds 10 --rounds 2``
starts two servers side by side, one as before §7 (``--max-registrations 0 --chat-rate
0``, no blocks) and one with blocks and the limits at their defaults, and loads them in
turn, alternating (plain, public, then public, plain …) so that whatever else the
machine does falls on both alike. The load is the same on both — rooms as above, each
room's players saying a chat line in turn every ``--chat-seconds`` (under the chat
limit) — except that on the public server every member first BLOCKs ``--blocks``
users of other rooms (so every chat line and broadcast is looked at against blocks).
The accounts are made beforehand in each server's database (one address could not
register them all under the limit). Reported per server: moves/s, the server's CPU a
move, the round trip's and the broadcast's p50/p99; then the cost of §7 — the CPU a move
on the public server over the plain one's — against the 10 % budget.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from c4tui.engine import GameState, Rules
from c4tui.protocols import lobby as wire
from c4tui.protocols.terms import CASUAL, Clock, Terms, terms_fields

GAME = (20, 20, Rules.POPOUT)
PASSWORD = "bench-password"


@dataclass
class LobbyTally:
    """What every room did."""

    moves: int = 0
    games: int = 0
    errors: int = 0
    chat_lines: int = 0
    latencies: list[float] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Manners:
    """What the rooms' members do besides playing (the default: nothing), and their names.

    ``chat_seconds``: each room's players say a chat line in turn this often (None:
    never); ``blocks``: BLOCKs each member sends once logged in, of users in other rooms
    (never its own room's: a block keeps players apart); ``tag`` comes before every room's
    name, so that one server's rounds never meet a finished room's last minute;
    ``register`` False: the accounts exist already (REGISTER is not sent).
    """

    chat_seconds: float | None = None
    blocks: int = 0
    tag: str = ""
    register: bool = True


def blocked_by(number: int, member: int, rooms: int, blocks: int) -> list[str]:
    """Whom member ``member`` of room ``number`` blocks: one user of each of the next rooms.

    Only other rooms' users, so none when there are not enough rooms.
    """
    kinds = ["r", "y"]
    return [
        f"{kinds[(member + k) % 2]}{(number + k) % rooms}"
        for k in range(1, min(blocks, rooms - 1) + 1)
    ]


class Line:
    """A lobby connection for the bench: lines out, lines in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def logged_in(cls, port: int, user: str, register: bool = True) -> Line:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = cls(reader, writer)
        if register:
            await line.send(f"REGISTER:{user}:{PASSWORD}")
            await line.read()
        await line.send(f"LOGIN:{user}:{PASSWORD}")
        if (answer := await line.read()) != "LOGIN:ACKSTATUS:0":
            raise RuntimeError(f"{user} could not log in: {answer!r}")
        return line

    async def send(self, text: str) -> None:
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()

    async def read(self) -> str:
        return (await self.reader.readline()).decode().rstrip("\n")

    async def until(self, prefix: str) -> str:
        while not (line := await self.read()).startswith(prefix):
            if not line:
                raise RuntimeError("hung up")
        return line

    def close(self) -> None:
        self.writer.close()


@dataclass
class Start:
    """Every room logs in first; the clock starts when all have."""

    rooms: int
    seconds: float
    on_go: Callable[[], None] | None = None
    ready: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0

    logins: int = 0
    everyone_in: asyncio.Event = field(default_factory=asyncio.Event)

    async def logged_in(self) -> None:
        """Wait until every room's members have logged in: a BLOCK names others' users."""
        self.logins += 1
        if self.logins == self.rooms:
            self.everyone_in.set()
        await self.everyone_in.wait()

    async def arrived(self) -> float:
        """Wait for the others; the deadline."""
        self.ready += 1
        if self.ready == self.rooms:
            self.deadline = time.monotonic() + self.seconds
            if self.on_go is not None:
                self.on_go()
            self.go.set()
        await self.go.wait()
        return self.deadline


async def room(  # noqa: PLR0917 (a bench helper: one room's whole setting)
    ports: Sequence[int],
    number: int,
    viewers: int,
    start: Start,
    tally: LobbyTally,
    terms: Terms,
    manners: Manners = Manners(),
) -> None:
    """One room's players and viewers, games back to back until the deadline.

    Its members take the ``ports`` in turn, starting at the room's number: with two
    nodes, red on one and yellow on the other, the rooms alternating.
    """

    def port(member: int) -> int:
        return ports[(number + member) % len(ports)]

    users = [f"r{number}", f"y{number}", *(f"v{number}x{k}" for k in range(viewers))]
    members = [await Line.logged_in(port(k), u, manners.register) for k, u in enumerate(users)]
    if manners.blocks:
        await start.logged_in()  # (a user not registered yet would be "no such user")
    for k, member in enumerate(members):
        for user in blocked_by(number, k, start.rooms, manners.blocks):
            await member.send(f"BLOCK:{user}")
            await member.until("BLOCK:ACKSTATUS:")
    red, yellow, *watchers = members
    rng = random.Random(number)
    talk = Talk(manners.chat_seconds, number)
    game_number = 0
    deadline = await start.arrived()
    try:
        while time.monotonic() < deadline:
            game_number += 1
            name = f"{manners.tag}{number}-{game_number}"
            fields = wire.game_fields(GAME) + (terms_fields(terms) if terms != CASUAL else [])
            await red.send(":".join(["CREATE", name, *fields]))
            await red.until("CREATE:ACKSTATUS:0")
            for watcher in watchers:
                await watcher.send(f"JOIN:{name}:VIEWER")
                await watcher.until("JOIN:ACKSTATUS:0")
            await yellow.send(f"JOIN:{name}:PLAYER")
            for line in (yellow, red, *watchers):
                await line.until("BEGIN")
            await play_one_game(red, yellow, watchers, rng, deadline, tally, talk)
            tally.games += 1
    except (OSError, RuntimeError):
        tally.errors += 1
    finally:
        for line in (red, yellow, *watchers):
            line.close()


class Talk:
    """When a room's players say their next chat line (each in turn, every ``seconds``)."""

    def __init__(self, seconds: float | None, number: int) -> None:
        self.seconds = seconds
        # The rooms' lines spread over the first interval rather than all at once.
        self.due = time.monotonic() + (seconds or 0) * random.Random(number).random()

    def now(self) -> bool:
        """Whether a line is due (and, if so, the next one is set)."""
        if self.seconds is None or time.monotonic() < self.due:
            return False
        self.due += self.seconds
        return True


async def play_one_game(  # noqa: PLR0917 (a bench helper: one room's whole cast)
    red: Line,
    yellow: Line,
    watchers: list[Line],
    rng: random.Random,
    deadline: float,
    tally: LobbyTally,
    talk: Talk | None = None,
) -> None:
    """Random moves until the game ends (or the deadline: then forfeit).

    A chat line that is due goes before a move, from the player about to move; the
    lines it brings everyone are passed over on the way to the move's answers.
    """
    state = GameState.new(*GAME)
    players = {state.turn: red, state.turn.other: yellow}
    while not state.is_over:
        if time.monotonic() >= deadline:
            await red.send("FORFEIT")
            for line in (red, yellow, *watchers):
                await line.until("GAMEEND")
            return
        if talk is not None and talk.now():
            await players[state.turn].send("CHAT:well played")
            tally.chat_lines += 1
        move = rng.choice(state.legal_moves())
        sent = time.perf_counter()
        await players[state.turn].send(f"{move.kind.name}:{move.column + 1}")
        mover = players[state.turn]
        state = state.play(move)
        expect = "GAMEEND" if state.is_over else "BOARDSTATUS"
        await mover.until(expect)  # first: its line is timed as it arrives
        tally.round_trips.append(time.perf_counter() - sent)
        for watcher in watchers:
            await watcher.until(expect)
            tally.latencies.append(time.perf_counter() - sent)
        await players[state.turn].until(expect)
        tally.moves += 1


async def load_lobby(  # noqa: PLR0917 (a bench entry point: the whole load)
    ports: Sequence[int],
    rooms: int,
    viewers: int,
    seconds: float,
    clock: Clock | None = None,
    on_go: Callable[[], None] | None = None,
    manners: Manners = Manners(),
) -> LobbyTally:
    """Set every room up (timed with ``clock``), then play until the deadline; what they did.

    ``on_go`` is called once every room is in, as the clock of the run starts; ``manners``
    says what the members do besides playing.
    """
    tally = LobbyTally()
    start = Start(rooms, seconds, on_go)
    terms = Terms(clock=clock)
    tasks = [
        asyncio.create_task(room(ports, n, viewers, start, tally, terms, manners))
        for n in range(rooms)
    ]
    _, pending = await asyncio.wait(tasks, timeout=seconds + 120)
    for task in pending:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*pending, return_exceptions=True)
    return tally


# ----- what §7 costs: two servers side by side, loaded in turn (run as a script) ------

#: Seconds between two chat lines of one room (each player's every twice that: under
#: §7's default limit of 5 lines in 10 s).
CHAT_SECONDS = 2.5
#: BLOCKs each member of the public server's rooms sends.
BLOCKS = 3
#: What §7 may cost: this much more server CPU a move (issue 39).
BUDGET = 0.10
#: The server as before §7: its limits off (it has no blocks unless asked).
LIMITS_OFF = ["--max-registrations", "0", "--chat-rate", "0"]
#: The two servers, in the first round's order.
SERVERS = ("plain", "public")


@dataclass
class Measured:
    """One server's rounds, added up: what the rooms did, the seconds, the server's CPU."""

    name: str
    seconds: float = 0.0
    cpu: float = 0.0
    tally: LobbyTally = field(default_factory=LobbyTally)
    rounds: list[float] = field(default_factory=list)  # each round's CPU a move

    def add(self, tally: LobbyTally, seconds: float, cpu: float) -> None:
        self.seconds += seconds
        self.cpu += cpu
        self.rounds.append(cpu / max(1, tally.moves))
        for name in ("moves", "games", "errors", "chat_lines"):
            setattr(self.tally, name, getattr(self.tally, name) + getattr(tally, name))
        self.tally.latencies += tally.latencies
        self.tally.round_trips += tally.round_trips

    @property
    def cpu_per_move(self) -> float:
        """The server's CPU seconds a move (logins and BLOCKs left out: they come first)."""
        return self.cpu / max(1, self.tally.moves)


def users_of(rooms: int, viewers: int) -> list[str]:
    """Every account the rooms log in as."""
    return [
        user
        for n in range(rooms)
        for user in (f"r{n}", f"y{n}", *(f"v{n}x{k}" for k in range(viewers)))
    ]


async def make_accounts(database: Path, users: Sequence[str]) -> None:
    """The rooms' accounts, straight into a new database (the fastest bcrypt cost)."""
    from c4tui.server.stores import open_store  # noqa: PLC0415 (only the comparison)

    store = open_store(database, 4)
    await store.open()
    try:
        for user in users:
            await store.register(user, PASSWORD)
    finally:
        await store.close()


def serve_command(database: Path, rooms: int, viewers: int, public: bool) -> list[str]:
    """``c4tui serve`` for ``rooms`` (public: §7's limits at their defaults; else off)."""
    connections = str(rooms * (2 + viewers) + 100)
    command = [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--idle-timeout", "120"]
    command += ["--max-connections", connections, "--max-per-address", connections]
    command += ["--db", str(database), "--bcrypt-rounds", "4"]
    command += ["--max-rooms", str(max(2 * rooms, 256))]
    return command if public else command + LIMITS_OFF


def measure_round(  # noqa: PLR0917 (a bench helper: one round on one server)
    pid: int, port: int, rooms: int, viewers: int, seconds: float, manners: Manners
) -> tuple[LobbyTally, float]:
    """One round of the load on one server: what the rooms did, and the server's CPU.

    The CPU is counted from the moment every room is in (after the logins and BLOCKs).
    """
    from server_load import cpu_seconds  # noqa: PLC0415 (bench/ is the script's directory)

    went: list[float] = []

    def go() -> None:
        went.append(cpu_seconds(pid))

    run = load_lobby([port], rooms, viewers, seconds, None, go, manners)
    tally = asyncio.run(run)
    return tally, cpu_seconds(pid) - (went[0] if went else cpu_seconds(pid))


def compare(rooms: int, viewers: int, seconds: float, rounds: int) -> dict[str, Measured]:
    """Both servers, loaded in turn for ``rounds`` rounds each: what each did.

    Raises SystemExit when ``c4tui serve`` has no §7 limits to turn on (nothing to compare).
    """
    import server_load  # noqa: PLC0415 (bench/ is the script's directory)

    if not server_load.server_has_option("--chat-rate"):
        raise SystemExit("this c4tui serve has no --chat-rate: §7's limits are not in it yet")
    server_load.raise_open_file_limit()
    measured = {name: Measured(name) for name in SERVERS}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name in SERVERS:
            asyncio.run(make_accounts(folder / f"{name}.sqlite3", users_of(rooms, viewers)))
        servers: dict[str, tuple[subprocess.Popen[str], int]] = {}
        try:
            for name in SERVERS:
                command = serve_command(folder / f"{name}.sqlite3", rooms, viewers, name != "plain")
                with (folder / f"{name}.log").open("w") as log:
                    servers[name] = server_load.start_server(command, log)
            for number in range(rounds):
                for name in SERVERS if number % 2 == 0 else SERVERS[::-1]:
                    process, port = servers[name]
                    blocks = BLOCKS if name == "public" else 0
                    manners = Manners(CHAT_SECONDS, blocks, f"{number}-", register=False)
                    tally, cpu = measure_round(process.pid, port, rooms, viewers, seconds, manners)
                    measured[name].add(tally, seconds, cpu)
        finally:
            for process, _ in servers.values():
                server_load.stop_server(process)
    return measured


def report(measured: dict[str, Measured]) -> bool:
    """Print each server's figures and §7's cost; whether it is within the budget."""
    from server_load import milliseconds  # noqa: PLC0415 (bench/ is the script's directory)

    words = {"plain": "plain (as before §7)", "public": "public (blocks, limits on)"}
    for name, run in measured.items():
        tally = run.tally
        broadcast = (
            f"  broadcast p50 {milliseconds(tally.latencies, 0.5)} "
            f"p99 {milliseconds(tally.latencies, 0.99)}"
            if tally.latencies
            else ""
        )
        print(
            f"{words[name]:<27} moves/s {tally.moves / max(run.seconds, 1e-9):7.0f}  "
            f"server CPU {run.cpu_per_move * 1000:.3f} ms a move  "
            f"round trip p50 {milliseconds(tally.round_trips, 0.5)} "
            f"p99 {milliseconds(tally.round_trips, 0.99)}{broadcast}  "
            f"(moves {tally.moves}, chat lines {tally.chat_lines}, room errors {tally.errors})"
        )
        each = " ".join(f"{cpu * 1000:.3f}" for cpu in run.rounds)
        print(f"{'':<27} CPU a move in each round (ms): {each}  (how noisy the machine is)")
    plain, public = measured["plain"], measured["public"]
    cost = public.cpu_per_move / max(plain.cpu_per_move, 1e-12) - 1
    speed = public.tally.moves / max(1, plain.tally.moves)
    passed = cost <= BUDGET and not plain.tally.errors and not public.tally.errors
    print(
        f"cost of §7: server CPU a move {cost:+.1%}, moves/s x{speed:.2f}; "
        f"budget +{BUDGET:.0%}: {'PASS' if passed else 'FAIL'}"
    )
    return passed


def main() -> None:
    """Compare the plain and the public server under the same load (see the module)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=500, help="rooms (two players each)")
    parser.add_argument("--viewers", type=int, default=0, help="viewers per room")
    parser.add_argument("--seconds", type=float, default=10.0, help="one round's length")
    parser.add_argument("--rounds", type=int, default=2, help="rounds on each server")
    args = parser.parse_args()
    print(
        f"lobby with and without §7: {args.rooms} rooms x (2 players + {args.viewers} viewers), "
        f"a chat line from each room every {CHAT_SECONDS:g} s, {BLOCKS} blocks each on the "
        f"public server; {args.rounds} rounds of {args.seconds:g} s on each, alternating"
    )
    measured = compare(args.rooms, args.viewers, args.seconds, args.rounds)
    raise SystemExit(0 if report(measured) else 1)


if __name__ == "__main__":
    main()
