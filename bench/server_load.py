"""Load on ``c4tui serve``: N concurrent clients play random legal games for T seconds.

Run: ``python bench/server_load.py --clients 100 --seconds 10``. Everything stays on
127.0.0.1; the run is bounded by --seconds (plus a short grace period) and stops
the server itself. Reports games/s, moves/s, move round-trip p50/p99, the peak
number of simultaneous connections, and the server's peak memory (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import TextIO

from c4tui.engine import GameState, Rules
from c4tui.protocols import i32cfsp
from c4tui.server.core import raise_open_file_limit

GRACE_SECONDS = 15


@dataclass
class Tally:
    """What all clients did together."""

    games: int = 0
    moves: int = 0
    errors: int = 0
    open_now: int = 0
    peak_open: int = 0
    round_trips: list[float] = field(default_factory=list)


async def read_line(reader: asyncio.StreamReader) -> str:
    return (await reader.readline()).decode().rstrip("\r\n")


async def play_one_game(port: int, rng: random.Random, tally: Tally, number: int) -> None:
    """One connection, one game to its end (random legal moves, random size and rules)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    tally.open_now += 1
    tally.peak_open = max(tally.peak_open, tally.open_now)
    try:
        columns, rows = rng.choice([(7, 6), (7, 6), (9, 7), (5, 4)])
        rules = rng.choice([Rules.CLASSIC, Rules.POPOUT])
        state = GameState.new(columns, rows, rules)
        writer.write(f"I32CFSP_HELLO load{number}\r\n".encode())
        writer.write((i32cfsp.format_ai_game(columns, rows, rules) + "\r\n").encode())
        await writer.drain()
        if await read_line(reader) != f"WELCOME load{number}" or await read_line(reader) != "READY":
            raise RuntimeError("bad greeting")
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            began = time.perf_counter()
            writer.write((i32cfsp.format_move(move) + "\r\n").encode())
            await writer.drain()
            state = state.play(move)
            answer = await read_line(reader)
            if answer == "OKAY":
                reply = i32cfsp.parse_move(await read_line(reader))
                if reply is None:
                    raise RuntimeError("bad server move")
                state = state.play(reply)
                answer = await read_line(reader)
            tally.round_trips.append(time.perf_counter() - began)
            tally.moves += 1
            if answer != (i32cfsp.result_line(state) or "READY"):
                raise RuntimeError(f"unexpected {answer!r}")
        tally.games += 1
    finally:
        tally.open_now -= 1
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def client(port: int, deadline: float, tally: Tally, number: int) -> None:
    """Play games back to back until the deadline."""
    rng = random.Random(number)
    while time.monotonic() < deadline:
        try:
            await play_one_game(port, rng, tally, number)
        except (OSError, RuntimeError, ValueError):
            tally.errors += 1
            await asyncio.sleep(0.1)


def start_server(clients: int, log: TextIO) -> tuple[subprocess.Popen[str], int]:
    """``c4tui serve`` on a free port, logging to ``log``; returns the process and the port.

    The log goes to a file, not a pipe: a pipe nobody reads fills up and stalls the server.
    """
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "c4tui",
            "serve",
            "--port",
            "0",
            "--max-connections",
            str(clients + 100),
            "--idle-timeout",
            "60",
        ],
        stderr=log,
        text=True,
    )
    for _ in range(200):
        with open(log.name, encoding="utf-8") as written:
            match = re.search(r"listening on [0-9.]+:(\d+)", written.read())
        if match is not None:
            return server, int(match.group(1))
        time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not start within 10 s")


def peak_memory_mib(pid: int) -> float:
    """The process's peak resident memory (Linux /proc VmHWM), in MiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def load(port: int, clients: int, seconds: float) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    tasks = [asyncio.create_task(client(port, deadline, tally, n)) for n in range(clients)]
    await asyncio.wait(tasks, timeout=seconds + GRACE_SECONDS)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=100, help="concurrent clients (N)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long they play (T)")
    args = parser.parse_args()
    raise_open_file_limit()
    with tempfile.NamedTemporaryFile(
        "w", prefix="c4tui-serve-", suffix=".log", delete=False
    ) as log:
        run(args.clients, args.seconds, log)


def run(clients: int, seconds: float, log: TextIO) -> None:
    """Start the server, load it, stop it, print the figures."""
    server, port = start_server(clients, log)
    try:
        began = time.perf_counter()
        tally = asyncio.run(load(port, clients, seconds))
        elapsed = time.perf_counter() - began
        memory = peak_memory_mib(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            exit_code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            exit_code = "killed"
    rtt = tally.round_trips
    print(f"clients {clients}, {elapsed:.1f} s on 127.0.0.1")
    print(
        f"games/s {tally.games / elapsed:.1f}  moves/s {tally.moves / elapsed:.0f}  "
        f"(games {tally.games}, moves {tally.moves}, client errors {tally.errors})"
    )
    print(
        f"move round trip p50 {percentile(rtt, 0.5) * 1000:.1f} ms  "
        f"p99 {percentile(rtt, 0.99) * 1000:.1f} ms"
    )
    print(
        f"peak concurrent connections {tally.peak_open}  server peak memory {memory:.1f} MiB  "
        f"server exit {exit_code}"
    )


if __name__ == "__main__":
    main()
