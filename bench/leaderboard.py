"""LEADERBOARD and PROFILE over a real socket: ``python bench/leaderboard.py [--accounts N]``.

The issue's bar: the leaderboard of 100,000 accounts answers in under 50 ms
(spec/protocols.md §5.3). This fills a database in ``--dir`` (default: a temporary
folder) with ``--accounts`` accounts, random ratings and deviations, most of them
provisional (deviation above 110) and some with no rated game, so the partial index
``accounts_by_rating`` holds only a part of them; starts a real server on it
(``c4tui serve --db``, a process of its own); logs in and asks LEADERBOARD and
PROFILE (of random accounts) ``--asks`` times each, one at a time, timing each
answer from the line sent to the line read. Prints the median and the 99th
percentile in milliseconds, and whether the leaderboard was right.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from c4tui.protocols.competition import LEADERBOARD_SIZE, PROVISIONAL_DEVIATION
from c4tui.server.sqlite_store import migrate
from c4tui.server.store import hash_password

#: The account the bench logs in as, and its password.
USER, PASSWORD = "bench", "bench-pw"
BAR_MS = 50.0


def fill(database: Path, accounts: int, seed: int) -> list[tuple[str, float]]:
    """``accounts`` accounts (and the bench's own); the leaderboard they should give."""
    chance = random.Random(seed)
    hashed = hash_password(PASSWORD, 4)  # one hash for all: logging in is not measured
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    migrate(connection)
    rows = []
    for number in range(accounts):
        rated_games = chance.choice((0, 0, chance.randint(1, 400)))
        deviation = chance.uniform(45, 350) if rated_games else 350.0
        games = rated_games + chance.randint(0, 50)
        wins = chance.randint(0, games)
        draws = chance.randint(0, games - wins)
        rating = chance.gauss(1500, 300)
        losses = games - wins - draws
        rows.append(
            (f"p{number}", hashed, 0.0, rating, deviation, rated_games, games, wins, draws, losses)
        )
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO accounts (name, hash, created, rating, deviation, rated_games, games,"
        " wins, draws, losses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    connection.execute(
        "INSERT INTO accounts (name, hash, created) VALUES (?, ?, 0)", (USER, hashed)
    )
    connection.execute("COMMIT")
    connection.close()
    established = [
        (name, rating)
        for name, _, _, rating, deviation, rated_games, *_ in rows
        if deviation < PROVISIONAL_DEVIATION and rated_games > 0
    ]
    return sorted(established, key=lambda entry: -entry[1])[:LEADERBOARD_SIZE]


def serve(database: Path, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``c4tui serve --db database`` on a free port; the process and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "serve", "--port", "0", "--db", str(database)],
        stderr=log.open("w"),
        stdin=subprocess.DEVNULL,
    )
    for _ in range(600):
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())
        if found:
            return process, int(found.group(1))
        time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start: " + log.read_text())


async def timed(
    port: int, asks: int, accounts: int, seed: int
) -> tuple[list[float], list[float], str]:
    """Each LEADERBOARD's and each PROFILE's round trip, in ms; the last leaderboard."""
    chance = random.Random(seed + 1)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def ask(line: str) -> tuple[str, float]:
        began = time.perf_counter()
        writer.write(f"{line}\n".encode())
        await writer.drain()
        answer = (await reader.readline()).decode().rstrip("\n")
        return answer, (time.perf_counter() - began) * 1e3

    answer, _ = await ask(f"LOGIN:{USER}:{PASSWORD}")
    if answer != "LOGIN:ACKSTATUS:0":
        raise SystemExit(f"could not log in: {answer}")
    leaderboard: list[float] = []
    profile: list[float] = []
    board = ""
    for _ in range(asks):
        board, took = await ask("LEADERBOARD")
        leaderboard.append(took)
        shown, took = await ask(f"PROFILE:p{chance.randrange(accounts)}")
        if not shown.startswith("PROFILE:ACKSTATUS:0:"):
            raise SystemExit(f"PROFILE answered {shown}")
        profile.append(took)
    writer.close()
    return leaderboard, profile, board.split(":", 3)[3]


def percentile(samples: list[float], share: float) -> float:
    """The sample below which ``share`` of them lie (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    """Fill, serve, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--asks", type=int, default=500)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        database = Path(folder) / "bench.sqlite3"
        began = time.perf_counter()
        expected = fill(database, args.accounts, args.seed)
        print(f"{args.accounts:,} accounts written in {time.perf_counter() - began:.1f} s")
        process, port = serve(database, Path(folder) / "serve.log")
        try:
            leaderboard, profile, last = asyncio.run(
                timed(port, args.asks, args.accounts, args.seed)
            )
        finally:
            process.terminate()
            process.wait(10)
    wanted = ",".join(f"{name}={round(rating)}" for name, rating in expected)
    print(f"the leaderboard is {'right' if last == wanted else 'WRONG: ' + last}")
    for name, samples in (("LEADERBOARD", leaderboard), ("PROFILE", profile)):
        median, p99 = statistics.median(samples), percentile(samples, 0.99)
        verdict = "under" if p99 < BAR_MS else "OVER"
        print(f"{name:12} median {median:6.2f} ms   p99 {p99:6.2f} ms   ({verdict} {BAR_MS:g} ms)")


if __name__ == "__main__":
    main()
