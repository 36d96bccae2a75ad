"""Review of §7 (issue 39): the change feed a running server reads (``moderation.py``).

One change it cannot read (a kind a newer ``c4tui admin`` wrote, or a row it cannot
decode) must not stop every later one: a ban by ``c4tui admin`` after it must still
reach the running server within §7's 5 seconds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.net.lobby_client import lobby_server, logged_in
from tests.net.stores import run_sql


async def test_a_change_the_server_cannot_read_does_not_stop_the_bans_after_it(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        mallory = await logged_in(server.port, "mallory")
        db = str(tmp_path / "accounts.sqlite3")
        run_sql(db, "UPDATE moderation_feed SET last = last + 1")
        run_sql(
            db,
            "INSERT INTO moderation_events (number, kind, name, at)"
            " SELECT last, 'warn', 'mallory', 0 FROM moderation_feed",
        )
        assert await server.lobby.store.ban("mallory", None, "spam", "admin:root")  # as admin does
        try:
            said = await asyncio.wait_for(mallory.line(), 5)
        except TimeoutError:
            said = "(nothing within 5 s: the ban never reached the server)"
        assert said == "BYE:banned"
