"""What committing a lobby move costs: ``python bench/store_commit.py [--moves N] [--dir D]``.

The lobby commits every move before it announces it (spec/protocols.md §5.1). This
times the store on a real file in ``--dir`` (default: the current directory; a
tmpfs would hide the fsync) with SQLite's ``synchronous`` FULL and NORMAL (WAL):
``move_played`` awaited one at a time (one commit and one trip to the database
thread each), and ``keep`` with a journal of 20 moves (one commit for all, as when
20 rooms' moves wait together).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import GameBegan, MoveMade
from c4tui.server.sqlite_store import SqliteStore

BATCH = 20


async def measure(folder: Path, synchronous: str, moves: int) -> tuple[float, float]:
    """Milliseconds per move: one commit each, and grouped by BATCH."""
    store = SqliteStore(folder / f"{synchronous}.sqlite3", 4, synchronous)
    await store.open()
    try:
        game = await store.game_started("r", "ann", "bob", (7, 6, Rules.POPOUT))
        began = time.perf_counter()
        for ply in range(1, moves + 1):
            await store.move_played(game, ply, Move.drop(ply % 7))
        single = (time.perf_counter() - began) / moves
        await store.keep([GameBegan("g", "ann", "bob", (7, 6, Rules.POPOUT))])
        began = time.perf_counter()
        for first in range(1, moves + 1, BATCH):
            await store.keep(
                [MoveMade("g", ply, Move.drop(0)) for ply in range(first, first + BATCH)]
            )
        grouped = (time.perf_counter() - began) / moves
    finally:
        await store.close()
    return single * 1e3, grouped * 1e3


async def main() -> None:
    """Both settings, twice each (the first run warms the file system up)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=Path.cwd())
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for synchronous in ("FULL", "NORMAL", "FULL", "NORMAL"):
            single, grouped = await measure(Path(folder), synchronous, args.moves)
            print(
                f"synchronous={synchronous:6}  {single:.3f} ms per move committed alone,"
                f"  {grouped:.3f} ms per move in commits of {BATCH}"
            )


if __name__ == "__main__":
    asyncio.run(main())
