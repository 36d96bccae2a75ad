"""Review of §7 (issue 39): what an account's deletion leaves of its name.

§7: "The account … erased; its finished games stay, the name replaced by
``deleted-<n>``". The name itself must stay somewhere so that it is never registered
again (``deleted_accounts``), but nowhere else the account's owner did not write:
here the change feed's deletion keeps the name in clear for ever, long after every
running server has read it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.net.lobby_client import lobby_server, logged_in
from tests.net.test_moderation import moderator


async def test_no_table_but_the_reserved_names_keeps_a_deleted_accounts_name(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator(server)
        alice = await logged_in(server.port, "alice")
        assert await mod.ask("MUTE:alice:5") == "MUTE:ACKSTATUS:0"  # in the feed, and the log
        assert await alice.ask("DELETEACCOUNT:pw") == "DELETEACCOUNT:ACKSTATUS:0"
        assert await alice.line() == "BYE:deleted"
        await asyncio.sleep(2.5)  # the running server has read the feed's deletion
    with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        left = []
        for table in tables:
            for column in [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]:
                query = f'SELECT count(*) FROM "{table}" WHERE lower(CAST("{column}" AS TEXT)) = ?'
                if db.execute(query, ("alice",)).fetchone()[0]:
                    left.append(f"{table}.{column}")
    assert left == ["deleted_accounts.folded"]
