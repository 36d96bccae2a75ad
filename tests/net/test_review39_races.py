"""Review of §7 (issue 39): a ban or a deletion racing a login, over real sockets.

A login whose password check began before a ban (or the account's deletion) was
committed must not end logged in: once ``BAN:ACKSTATUS:0`` (``DELETEACCOUNT:ACKSTATUS:0``)
has been answered and the change feed read, no connection of that user may go on
acting in the lobby. The password check is held in its bcrypt thread (``Hold``) so
that the race is won every time, not one time in four as with bcrypt's real cost.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from c4tui.server import sql_store
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_moderation import moderator


@dataclass
class Hold:
    """Once ``armed``, the next password check waits (``entered`` set) until ``release``."""

    armed: threading.Event = field(default_factory=threading.Event)
    entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    async def checking(self) -> None:
        """Wait until the armed check is being held."""
        assert await asyncio.to_thread(self.entered.wait, 10)


@pytest.fixture
def hold(monkeypatch: pytest.MonkeyPatch) -> Iterator[Hold]:
    held = Hold()
    real: Callable[[str, bytes], bool] = sql_store.password_matches

    def check(password: str, hashed: bytes) -> bool:
        if held.armed.is_set():
            held.armed.clear()
            held.entered.set()
            held.release.wait(10)
        return real(password, hashed)

    monkeypatch.setattr(sql_store, "password_matches", check)
    yield held
    held.release.set()


async def _locked_out(client: LobbyClient, reason: str, refusal: str) -> None:
    """``client``'s LOGIN was refused (``refusal``), or it was let in and at once told BYE."""
    answer = await client.line()
    if answer == refusal:
        return
    assert answer == "LOGIN:ACKSTATUS:0", answer
    try:
        after = await asyncio.wait_for(client.line(), 4)
    except TimeoutError:
        after = "(nothing: still logged in)"
    assert after == f"BYE:{reason}", f"logged in after the {reason} was committed, then {after}"


async def test_a_ban_while_a_login_checks_its_password_locks_it_out(
    tmp_path: Path, hold: Hold
) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator(server)
        ann = await logged_in(server.port, "ann")
        mal = await LobbyClient.connect(server.port)
        assert await mal.ask("REGISTER:mallory:pw") == "REGISTER:ACKSTATUS:0"
        hold.armed.set()
        await mal.send("LOGIN:mallory:pw")
        await hold.checking()
        assert await mod.ask("BAN:mallory:0:spam") == "BAN:ACKSTATUS:0"
        await asyncio.sleep(2.5)  # the feed's BAN has been read and acted on meanwhile
        hold.release.set()
        await _locked_out(mal, "banned", "LOGIN:ACKSTATUS:4")
        # and in any case mallory takes no seat
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        await mal.send("JOIN:r1:PLAYER")
        assert await ann.quiet(0.5)


async def test_an_account_deleted_while_another_login_checks_its_password_stays_out(
    tmp_path: Path, hold: Hold
) -> None:
    async with lobby_server(tmp_path) as server:
        first = await logged_in(server.port, "mallory")
        second = await LobbyClient.connect(server.port)
        hold.armed.set()
        await second.send("LOGIN:mallory:pw")
        await hold.checking()
        assert await first.ask("DELETEACCOUNT:pw") == "DELETEACCOUNT:ACKSTATUS:0"
        assert await first.line() == "BYE:deleted"
        await asyncio.sleep(2.5)  # the feed's deletion has been read and acted on meanwhile
        hold.release.set()
        await _locked_out(second, "deleted", "LOGIN:ACKSTATUS:1")
