"""ssh guests (§9, issue 42): a visit's key without an account watches, over real sockets.

The ssh door's part is played by the store (``visit``, as in ``test_lobby_keys``); the
server's ``--ssh-guests`` by its lobby's flag, which ``C4Server`` sets from it (the ssh
tests start a real door with it: ``tests/ssh/test_guests.py``).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from c4tui.client.link import LobbyLink
from c4tui.protocols import keys
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_keys import PAGE_KEY, PAGE_TOKEN, page_section, token, visit


def guest_exchange() -> list[tuple[str, str]]:
    """§9's guest's exchange: (what the guest sends, what it is answered), comments cut."""
    lines = re.findall(r"^guest [→←] (.+?)(?: {2,}#.*)?$", page_section(), re.M)
    return list(zip(lines[::2], lines[1::2], strict=True))


async def guest_server(server: C4Server) -> C4Server:
    server.lobby.guests = True  # as ``serve --ssh-guests`` does
    return server


async def test_the_protocol_pages_guest_exchange_is_what_a_server_answers(tmp_path: Path) -> None:
    exchange = guest_exchange()
    assert len(exchange) == 6
    async with lobby_server(tmp_path) as server:
        await guest_server(server)
        await visit(server, PAGE_KEY, PAGE_TOKEN)
        alice = await logged_in(server.port, "alice")
        assert await alice.ask("CREATE:friday:7:6:classic") == "CREATE:ACKSTATUS:0"
        guest = await LobbyClient.connect(server.port)  # KEYGUEST is its first line
        for sent, answer in exchange:
            assert await guest.ask(sent) == answer, sent


async def test_a_guest_asks_only_what_watching_needs(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await guest_server(server)
        visiting = await visit(server, PAGE_KEY, token(1))
        guest = await LobbyClient.connect(server.port)
        assert await guest.ask(f"KEYGUEST:{visiting}") == "KEYGUEST:ACKSTATUS:0:guest-1"
        assert await guest.ask(f"KEYGUEST:{visiting}") == "BADAUTH"
        refused = ["CREATE:mine", "QUICKPLAY", "DROP:4", "FORFEIT", "BLOCK:ann"]
        refused += ["REPORT:ann:chat:rude", "PASSWORD:x", "LOGIN:ann:pw", "REGISTER:ann:pw"]
        refused += [
            "CHALLENGE:ann:7:6:classic:casual",
            "ACCEPT:ann",
            "CHAT:hi",
            "REMATCH",
            "KEYS",
            f"KEYREGISTER:ann:{visiting}",
            f"KEYACCOUNT:{visiting}",
            "DRAW",
        ]
        for line in refused:
            assert await guest.ask(line) == "BADAUTH", line
        assert await guest.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"
        assert await guest.ask("ROOMINFO:gone") == "ROOMINFO:ACKSTATUS:1"
        assert await guest.ask("LEADERBOARD") == "LEADERBOARD:ACKSTATUS:0:"
        assert await guest.ask("HISTORY") == "HISTORY:ACKSTATUS:1"  # no account, no games
        assert await guest.ask("GAME:1") == "GAME:ACKSTATUS:1"
        assert await guest.ask("BLOCKS") == "BLOCKS:ACKSTATUS:0:"
        assert await guest.ask("PLAYERS") == "PLAYERS:ACKSTATUS:0:"
        assert await guest.ask("JOIN:no room:VIEWER") == "JOIN:ACKSTATUS:1"
        assert await guest.ask("ROOMINFO:a:b") == "ROOMINFO:ACKSTATUS:1"  # a bad format, as ever
        ann = await logged_in(server.port, "ann")  # the guest is no one's to challenge
        assert await ann.ask("CHALLENGE:guest-1:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:1"
        assert await ann.ask("PLAYERS") == "PLAYERS:ACKSTATUS:0:ann=1500=free=human"
        assert await ann.ask("REGISTER:Guest-7:pw") == "REGISTER:ACKSTATUS:1"  # reserved
        assert await ann.ask(f"KEYREGISTER:guest-x:{visiting}") == "KEYREGISTER:ACKSTATUS:1"


async def test_guests_need_the_servers_leave_and_a_live_visit(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        client = await LobbyClient.connect(server.port)
        assert await client.ask(f"KEYGUEST:{visiting}") == "KEYGUEST:ACKSTATUS:1"  # no guests
        await guest_server(server)
        assert await client.ask(f"KEYGUEST:{token(2)}") == "KEYGUEST:ACKSTATUS:2"  # no visit
        assert await client.ask("KEYGUEST:hunter2") == "KEYGUEST:ACKSTATUS:2"  # no token
        await server.lobby.store.end_visit(keys.token_hash(visiting))
        assert await client.ask(f"KEYGUEST:{visiting}") == "KEYGUEST:ACKSTATUS:2"  # ended
        assert await client.ask("ROOMLIST:VIEWER") == "BADAUTH"  # still nobody
        ann = await logged_in(server.port, "ann")
        fresh = await visit(server, PAGE_KEY, token(3))
        assert await ann.ask(f"KEYGUEST:{fresh}") == "KEYGUEST:ACKSTATUS:3"  # logged in already


async def test_guests_take_the_first_free_names(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await guest_server(server)
        visiting = await visit(server, PAGE_KEY, token(1))
        guests = [await LobbyClient.connect(server.port) for _ in range(3)]
        names = [await guest.ask(f"KEYGUEST:{visiting}") for guest in guests]
        assert names == [f"KEYGUEST:ACKSTATUS:0:guest-{n}" for n in (1, 2, 3)]
        await guests[0].close()
        again = await LobbyClient.connect(server.port)
        while (answer := await again.ask(f"KEYGUEST:{visiting}")) != "KEYGUEST:ACKSTATUS:0:guest-1":
            assert answer == "KEYGUEST:ACKSTATUS:0:guest-4"  # guest-1's close not seen yet
            again = await LobbyClient.connect(server.port)
        assert await guests[1].ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"  # not elsewhere


async def test_a_guest_watches_a_game_to_its_end(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await guest_server(server)
        visiting = await visit(server, PAGE_KEY, token(1))
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:friday:4:4:classic") == "CREATE:ACKSTATUS:0"
        link = await LobbyLink.open("127.0.0.1", server.port)
        assert await link.key_guest(visiting) == "guest-1"
        assert link.user == "guest-1"
        await link.close()
        guest = await LobbyClient.connect(server.port)
        assert await guest.ask(f"KEYGUEST:{visiting}") == "KEYGUEST:ACKSTATUS:0:guest-1"
        assert await guest.ask("JOIN:friday:VIEWER") == "JOIN:ACKSTATUS:0"
        assert await bob.ask("JOIN:friday:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await guest.line() == "BEGIN:ann:bob:4:4:classic"
        for mover, column in [(ann, 1), (bob, 2), (ann, 1), (bob, 2), (ann, 1), (bob, 2)]:
            await mover.send(f"DROP:{column}")
            assert (await guest.line()).startswith("BOARDSTATUS:")
        await ann.send("DROP:1")
        end = await guest.line()  # the winning move's board is in GAMEEND
        assert end.startswith("GAMEEND:") and end.endswith(":0:ann")


async def test_a_guest_is_never_named_as_an_account_from_before_the_rule(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await guest_server(server)
        await (await logged_in(server.port, "zed")).close()
        with sqlite3.connect(tmp_path / "accounts.sqlite3") as db:  # as an old server made it
            db.execute("UPDATE accounts SET name = 'guest-1' WHERE name = 'zed'")
        db.close()
        visiting = await visit(server, PAGE_KEY, token(1))
        guest = await LobbyClient.connect(server.port)
        assert await guest.ask(f"KEYGUEST:{visiting}") == "KEYGUEST:ACKSTATUS:0:guest-2"
