"""What keeping one lobby move costs on each engine: ``python bench/store_engines.py``.

Each move is its own ``keep`` (one transaction, one commit), as when a single room's
move waits to be announced. SQLite (WAL, synchronous=FULL) writes a file in ``--dir``
(default: the current directory; a tmpfs would hide the fsync); PostgreSQL is the
server at ``--postgres URL`` or, by default, one started for the run by
``tests/dbservers.py`` (run from the repository's root) with fsync on, as in production.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import GameBegan, MoveMade
from c4tui.server.store import LobbyStore
from c4tui.server.stores import open_store


async def per_move(store: LobbyStore, moves: int) -> float:
    """Milliseconds per move, each kept in a transaction of its own."""
    await store.open()
    try:
        await store.keep([GameBegan("bench", "ann", "bob", (7, 6, Rules.POPOUT))])
        began = time.perf_counter()
        for ply in range(1, moves + 1):
            await store.keep([MoveMade("bench", ply, Move.drop(ply % 7))])
        return (time.perf_counter() - began) / moves * 1e3
    finally:
        await store.close()


async def main() -> None:
    """SQLite, then PostgreSQL, twice each (the first run warms up)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=Path.cwd())
    parser.add_argument("--postgres", metavar="URL", help="an existing server's database")
    args = parser.parse_args()
    server = None
    if args.postgres is None:
        from tests.dbservers import start_postgres  # noqa: PLC0415 (only when none is given)

        server = start_postgres(fsync=True)
    try:
        with tempfile.TemporaryDirectory(dir=args.dir) as folder:
            for run in range(2):
                databases = {
                    "SQLite": str(Path(folder) / f"{run}.sqlite3"),
                    "PostgreSQL": args.postgres if server is None else server.database(),
                }
                for engine, db in databases.items():
                    milliseconds = await per_move(open_store(db, 4), args.moves)
                    print(f"{engine:10}  {milliseconds:.3f} ms per move ({args.moves} moves)")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
