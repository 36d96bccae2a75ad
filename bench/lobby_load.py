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
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
    latencies: list[float] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)


class Line:
    """A lobby connection for the bench: lines out, lines in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def logged_in(cls, port: int, user: str) -> Line:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = cls(reader, writer)
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
    ports: Sequence[int], number: int, viewers: int, start: Start, tally: LobbyTally, terms: Terms
) -> None:
    """One room's players and viewers, games back to back until the deadline.

    Its members take the ``ports`` in turn, starting at the room's number: with two
    nodes, red on one and yellow on the other, the rooms alternating.
    """

    def port(member: int) -> int:
        return ports[(number + member) % len(ports)]

    red = await Line.logged_in(port(0), f"r{number}")
    yellow = await Line.logged_in(port(1), f"y{number}")
    watchers = [await Line.logged_in(port(2 + k), f"v{number}x{k}") for k in range(viewers)]
    rng = random.Random(number)
    game_number = 0
    deadline = await start.arrived()
    try:
        while time.monotonic() < deadline:
            game_number += 1
            name = f"{number}-{game_number}"
            fields = wire.game_fields(GAME) + (terms_fields(terms) if terms != CASUAL else [])
            await red.send(":".join(["CREATE", name, *fields]))
            await red.until("CREATE:ACKSTATUS:0")
            for watcher in watchers:
                await watcher.send(f"JOIN:{name}:VIEWER")
                await watcher.until("JOIN:ACKSTATUS:0")
            await yellow.send(f"JOIN:{name}:PLAYER")
            for line in (yellow, red, *watchers):
                await line.until("BEGIN")
            await play_one_game(red, yellow, watchers, rng, deadline, tally)
            tally.games += 1
    except (OSError, RuntimeError):
        tally.errors += 1
    finally:
        for line in (red, yellow, *watchers):
            line.close()


async def play_one_game(  # noqa: PLR0917 (a bench helper: one room's whole cast)
    red: Line,
    yellow: Line,
    watchers: list[Line],
    rng: random.Random,
    deadline: float,
    tally: LobbyTally,
) -> None:
    """Random moves until the game ends (or the deadline: then forfeit)."""
    state = GameState.new(*GAME)
    players = {state.turn: red, state.turn.other: yellow}
    while not state.is_over:
        if time.monotonic() >= deadline:
            await red.send("FORFEIT")
            for line in (red, yellow, *watchers):
                await line.until("GAMEEND")
            return
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
) -> LobbyTally:
    """Set every room up (timed with ``clock``), then play until the deadline; what they did.

    ``on_go`` is called once every room is in, as the clock of the run starts.
    """
    tally = LobbyTally()
    start = Start(rooms, seconds, on_go)
    terms = Terms(clock=clock)
    tasks = [
        asyncio.create_task(room(ports, n, viewers, start, tally, terms)) for n in range(rooms)
    ]
    _, pending = await asyncio.wait(tasks, timeout=seconds + 120)
    for task in pending:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*pending, return_exceptions=True)
    return tally
