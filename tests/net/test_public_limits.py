"""§7's limits attacked over real sockets: a flood of REGISTERs from one address, a chat flood.

Each hostile client tries as hard as it can; the tests show what got through (never
more than the limit), that a refusal is answered in §7's words and delivered to
nobody, and that everyone else — another address, another user — is untouched.
Time is the server's ``now``, moved by hand for the windows (an hour, ten seconds).
``c4tui serve`` itself is tried once, for its defaults (5 and 5).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from c4tui.cli import build_parser
from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in
from tests.net.test_lobby_table_talk import exchange
from tests.net.test_serve_command import start
from tests.test_lobby_challenges import FakeClock

#: Another machine, as far as the server can tell (Linux answers all of 127/8 on loopback).
ELSEWHERE = "127.0.0.2"


@contextlib.asynccontextmanager
async def limited_server(
    tmp_path: Path, clock: FakeClock, **limits: int
) -> AsyncIterator[C4Server]:
    """A server whose limits' windows run on ``clock`` (with ``limits``: §7's options)."""
    config = ServerConfig(
        port=0, db=tmp_path / "accounts.sqlite3", bcrypt_rounds=TEST_ROUNDS, **limits
    )
    server = C4Server(config, now=clock)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def connect_from(port: int, address: str = "127.0.0.1") -> LobbyClient:
    """A lobby client whose connection comes from ``address``."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, local_addr=(address, 0), limit=2**20
    )
    return LobbyClient(reader, writer)


# ----- REGISTER ------------------------------------------------------------------------


async def test_the_sixth_register_from_an_address_is_refused_and_others_are_not(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with limited_server(tmp_path, clock, max_registrations=5) as server:
        here, there = await connect_from(server.port), await connect_from(server.port, ELSEWHERE)
        clients = {"here": here, "there": there}
        await exchange(
            clients,
            """
            here> REGISTER:u1:pw
            here< REGISTER:ACKSTATUS:0
            here> REGISTER:a b:pw
            here< REGISTER:ACKSTATUS:2
            here> REGISTER:u2:pw
            here< REGISTER:ACKSTATUS:0
            here> REGISTER:u1:other
            here< REGISTER:ACKSTATUS:1
            here> REGISTERBOT:bot1:pw
            here< REGISTERBOT:ACKSTATUS:0
            here> REGISTER:u3:pw
            here< REGISTER:ACKSTATUS:0
            here> REGISTER:u4:pw
            here< REGISTER:ACKSTATUS:3
            here> REGISTERBOT:bot2:pw
            here< REGISTERBOT:ACKSTATUS:3
            there> REGISTER:far:pw
            there< REGISTER:ACKSTATUS:0
            here> LOGIN:u4:pw
            here< LOGIN:ACKSTATUS:1
            here> LOGIN:u3:pw
            here< LOGIN:ACKSTATUS:0
            here> REGISTER:u4:pw
            here< REGISTER:ACKSTATUS:3
            """,
        )  # the taken name counted; the bad format did not; logged in, still limited
        again = await connect_from(server.port)  # the address counts, not the connection
        assert await again.ask("REGISTER:u5:pw") == "REGISTER:ACKSTATUS:3"
        clock.time += 3599
        assert await again.ask("REGISTER:u5:pw") == "REGISTER:ACKSTATUS:3"
        clock.time += 1  # the five left the hour together: five more
        for n in range(5, 10):
            assert await again.ask(f"REGISTER:u{n}:pw") == "REGISTER:ACKSTATUS:0"
        assert await again.ask("REGISTER:u10:pw") == "REGISTER:ACKSTATUS:3"


async def test_a_parallel_flood_gets_exactly_the_limit_through(tmp_path: Path) -> None:
    """Thirty connections from one address REGISTER at once: five accounts, no more."""
    async with limited_server(tmp_path, FakeClock(), max_registrations=5) as server:
        flood = [await connect_from(server.port) for _ in range(30)]
        for n, client in enumerate(flood):
            await client.send(f"REGISTER:f{n}:pw")
        answers = [await client.line() for client in flood]
        created = [f"f{n}" for n, answer in enumerate(answers) if answer == "REGISTER:ACKSTATUS:0"]
        assert len(created) == 5 and answers.count("REGISTER:ACKSTATUS:3") == 25, answers
        for n in range(30):  # each on a connection of its own (failures are slowed per one)
            checker = await connect_from(server.port, ELSEWHERE)
            login = await checker.ask(f"LOGIN:f{n}:pw")
            assert login == ("LOGIN:ACKSTATUS:0" if f"f{n}" in created else "LOGIN:ACKSTATUS:1")
            await checker.close()
        neighbour = await connect_from(server.port, ELSEWHERE)
        assert await neighbour.ask("REGISTER:neighbour:pw") == "REGISTER:ACKSTATUS:0"


async def test_zero_registrations_means_no_limit(tmp_path: Path) -> None:
    async with limited_server(tmp_path, FakeClock(), max_registrations=0) as server:
        client = await connect_from(server.port)
        for n in range(12):
            assert await client.ask(f"REGISTER:n{n}:pw") == "REGISTER:ACKSTATUS:0"


# ----- CHAT ----------------------------------------------------------------------------


async def a_room(port: int) -> dict[str, LobbyClient]:
    """ann and bob playing in r1, vic watching."""
    clients = {name: await logged_in(port, name) for name in ("ann", "bob", "vic")}
    await exchange(
        clients,
        """
        ann> CREATE:r1:4:4:classic
        ann< CREATE:ACKSTATUS:0
        vic> JOIN:r1:VIEWER
        vic< JOIN:ACKSTATUS:0
        bob> JOIN:r1:PLAYER
        bob< JOIN:ACKSTATUS:0
        ann< BEGIN:ann:bob:4:4:classic
        bob< BEGIN:ann:bob:4:4:classic
        vic< BEGIN:ann:bob:4:4:classic
        """,
    )
    return clients


async def test_a_chat_flood_says_five_lines_and_the_rest_reach_nobody(tmp_path: Path) -> None:
    clock = FakeClock()
    async with limited_server(tmp_path, clock, chat_rate=5) as server:
        clients = await a_room(server.port)
        ann, bob, vic = clients["ann"], clients["bob"], clients["vic"]
        await ann.send("\n".join(f"CHAT:line {n}" for n in range(1, 41)))  # one write: 40 lines
        for n in range(1, 6):
            for client in (ann, bob, vic):
                assert await client.line() == f"CHAT:ann:line {n}"
        for _ in range(35):
            assert await ann.line() == "CHAT:ACKSTATUS:2"
        assert await bob.quiet() and await vic.quiet()  # the flood reached nobody
        await exchange(
            clients,
            """
            bob> CHAT:calm down
            ann< CHAT:bob:calm down
            bob< CHAT:bob:calm down
            vic< CHAT:bob:calm down
            ann> CHAT:sorry
            ann< CHAT:ACKSTATUS:2
            """,
        )  # the others' chat is untouched; ann's stays refused while its window is full
        clock.time += 10  # its five lines left the window: five more, one at a time
        await exchange(
            clients,
            """
            ann> CHAT:sorry
            ann< CHAT:ann:sorry
            bob< CHAT:ann:sorry
            vic< CHAT:ann:sorry
            """,
        )
        assert await ann.ask("DROP:1") == "BOARDSTATUS:" + "0" * 12 + "1000"  # the game goes on


async def test_a_chat_flood_by_a_second_login_counts_for_the_same_user(tmp_path: Path) -> None:
    """The rate is the user's: logging in again (the newest login wins) gives no new five."""
    async with limited_server(tmp_path, FakeClock(), chat_rate=5) as server:
        clients = await a_room(server.port)
        for n in range(3):
            await exchange(clients, f"vic> CHAT:{n}\nann< CHAT:vic:{n}")
            await clients["bob"].line(), await clients["vic"].line()
        second = await connect_from(server.port)
        assert await second.ask("LOGIN:vic:pw") == "LOGIN:ACKSTATUS:0"
        assert await clients["vic"].line() == "BYE:elsewhere"
        assert await second.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        await second.line(), await second.line()  # INPROGRESS, BOARDSTATUS
        for n in (3, 4):
            assert await second.ask(f"CHAT:{n}") == f"CHAT:vic:{n}"
        assert await second.ask("CHAT:5") == "CHAT:ACKSTATUS:2"


async def test_a_chat_refused_for_its_format_or_from_nowhere_is_answered_as_before(
    tmp_path: Path,
) -> None:
    """An unreadable CHAT is INVALID and a CHAT from no room NOROOM (§4), limit or not."""
    async with limited_server(tmp_path, FakeClock(), chat_rate=5) as server:
        ann = await logged_in(server.port, "ann")
        for _ in range(5):
            assert (await ann.ask("CHAT:" + "x" * 201)).startswith("INVALID:")
        for _ in range(5):
            assert await ann.ask("CHAT:hello?") == "NOROOM"
        assert await ann.ask("CHAT:hello?") == "CHAT:ACKSTATUS:2"
        stranger = await LobbyClient.connect(server.port)
        assert await stranger.ask("REGISTER:eve:pw") == "REGISTER:ACKSTATUS:0"
        assert await stranger.ask("CHAT:hi") == "BADAUTH"  # not logged in


# ----- c4tui serve's defaults, and its options --------------------------------------


def test_c4tui_serve_limits_by_default(tmp_path: Path) -> None:
    """Without an option, ``c4tui serve`` allows 5 registrations an hour and 5 lines in 10 s."""

    async def flood(port: int) -> None:
        clients = {name: await connect_from(port) for name in ("ann", "bob", "c", "d", "e", "f")}
        for name, client in clients.items():
            expected = 3 if name == "f" else 0
            assert await client.ask(f"REGISTER:{name}:pw") == f"REGISTER:ACKSTATUS:{expected}"
        ann, bob = clients["ann"], clients["bob"]
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()  # BEGIN
        await ann.send("\n".join(["CHAT:hi"] * 6))
        assert [await ann.line() for _ in range(6)] == ["CHAT:ann:hi"] * 5 + ["CHAT:ACKSTATUS:2"]

    process, port = start(tmp_path / "serve.log", "--db", str(tmp_path / "lobby.sqlite3"))
    try:
        asyncio.run(flood(port))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(20)
    assert (
        "refused REGISTER: 5 from 127.0.0.1 in the last hour"
        in (tmp_path / "serve.log").read_text()
    )


@pytest.mark.parametrize(
    ("options", "registrations", "chat"),
    [([], 5, 5), (["--max-registrations", "0", "--chat-rate", "0"], 0, 0)],
)
def test_serve_reads_the_limits(options: list[str], registrations: int, chat: int) -> None:
    args = build_parser().parse_args(["serve", *options])
    assert (args.max_registrations, args.chat_rate) == (registrations, chat)


@pytest.mark.parametrize("value", ["-1", "x", "2.5", "inf"])
def test_serve_refuses_a_limit_that_is_no_count(value: str) -> None:
    for option in ("--max-registrations", "--chat-rate"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", option, value])
