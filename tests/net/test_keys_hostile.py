"""A hostile review of §9 (issue 42): what anybody on the lobby's port may send about keys.

A visitor's app is a lobby client like any other, so everything it may say, anybody
may say, with made-up tokens and keys: races of two binds of one visit, a token's
hash offered as the token, malformed and oversized keys. Each is refused, and the
connection (and the server) serve on.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from pathlib import Path

from c4tui.protocols import keys
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_keys import PAGE_KEY, token, visit


def blob_line(*strings: bytes, kind: str = "ssh-ed25519") -> str:
    """``<kind> <base64>`` of ssh wire strings (each a 4-byte length, then its bytes)."""
    blob = b"".join(len(s).to_bytes(4, "big") + s for s in strings)
    return f"{kind} {base64.b64encode(blob).decode()}"


async def test_two_binds_of_one_visit_at_once_bind_it_once(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        for round_ in range(3):
            visiting = await visit(server, PAGE_KEY, token(round_))
            ann = await logged_in(server.port, f"ann{round_}")
            bob = await logged_in(server.port, f"bob{round_}")
            answers = await asyncio.gather(
                ann.ask(f"KEYBIND:{visiting}"), bob.ask(f"KEYBIND:{visiting}")
            )
            assert sorted(answers) == ["KEYBIND:ACKSTATUS:0", "KEYBIND:ACKSTATUS:1"]
            winner = ("ann", "bob")[answers.index("KEYBIND:ACKSTATUS:0")] + str(round_)
            asker = await LobbyClient.connect(server.port)
            assert await asker.ask(f"KEYACCOUNT:{visiting}") == f"KEYACCOUNT:ACKSTATUS:0:{winner}"
            assert [len(await c.ask("KEYS")) > len("KEYS:ACKSTATUS:0:") for c in (ann, bob)] == [
                winner.startswith("ann"),
                winner.startswith("bob"),
            ]
            assert await asker.ask(f"LOGIN:{winner}:{visiting}") == "LOGIN:ACKSTATUS:0"
            for client in (ann, bob, asker):
                await client.close()
            # the key held, the next round's visit of it binds nothing new
            fingerprint = keys.fingerprint_of(PAGE_KEY)
            owner = server.lobby.store
            assert await owner.key_account(fingerprint) == winner
            assert await owner.remove_key(winner, fingerprint)


async def test_two_registrations_by_one_visit_at_once_make_one_account(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        ann, bob = LobbyClient.connect(server.port), LobbyClient.connect(server.port)
        first, second = await asyncio.gather(ann, bob)
        answers = await asyncio.gather(
            first.ask(f"KEYREGISTER:ann:{visiting}"), second.ask(f"KEYREGISTER:bob:{visiting}")
        )
        assert sorted(answers) == ["KEYREGISTER:ACKSTATUS:0", "KEYREGISTER:ACKSTATUS:5"]
        made, lost = ("ann", "bob") if answers[0].endswith(":0") else ("bob", "ann")
        checker = await LobbyClient.connect(server.port)
        assert await checker.ask(f"KEYACCOUNT:{visiting}") == f"KEYACCOUNT:ACKSTATUS:0:{made}"
        assert await checker.ask(f"REGISTER:{lost}:pw") == "REGISTER:ACKSTATUS:0"  # never made


async def test_a_registration_and_a_bind_of_one_visit_at_once_bind_it_once(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        ann = await logged_in(server.port, "ann")
        newcomer = await LobbyClient.connect(server.port)
        registered, bound = await asyncio.gather(
            newcomer.ask(f"KEYREGISTER:zed:{visiting}"), ann.ask(f"KEYBIND:{visiting}")
        )
        assert (registered, bound) in (
            ("KEYREGISTER:ACKSTATUS:0", "KEYBIND:ACKSTATUS:1"),
            ("KEYREGISTER:ACKSTATUS:5", "KEYBIND:ACKSTATUS:0"),
        )
        owner = "zed" if bound.endswith(":1") else "ann"
        assert await server.lobby.store.key_account(keys.fingerprint_of(PAGE_KEY)) == owner
        if owner == "ann":  # no account zed was left behind without its key
            assert await newcomer.ask("REGISTER:zed:pw") == "REGISTER:ACKSTATUS:0"


async def test_a_token_s_hash_or_a_near_miss_is_no_visit(tmp_path: Path) -> None:
    """What the store keeps (the hash) is no token, nor is a token with more after it."""
    async with lobby_server(tmp_path) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        client = await LobbyClient.connect(server.port)
        for made_up in (
            keys.token_hash(visiting),
            keys.VISIT_TOKEN_PREFIX + keys.token_hash(visiting),
            f"{visiting}:x",
            visiting.upper(),
            visiting + " ",
            visiting[:-1],
            keys.VISIT_TOKEN_PREFIX + "%",
        ):
            assert await client.ask(f"KEYACCOUNT:{made_up}") == "KEYACCOUNT:ACKSTATUS:2", made_up
            assert await client.ask(f"KEYREGISTER:eve:{made_up}") == "KEYREGISTER:ACKSTATUS:4"
        assert await client.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"


#: KEYADD lines that are no OpenSSH public key (§9: ``KEYADD:ACKSTATUS:2``).
NOT_KEYS = (
    "",
    "ssh-ed25519",
    "ssh-ed25519 ",
    "ssh-dss AAAAB3NzaC1kc3MAAACBAP",
    "ssh-ed25519 !!!!",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICyfckFSIHQmNbKUUoYpab1a+Z/jb6vqG84XJ5ySP1J5=",
    blob_line(b"ssh-rsa", b"\x01\x00\x01", b"\x00" * 64),  # says ed25519, holds rsa
    blob_line(b"ssh-ed25519"),  # the type, then no key at all
    "ssh-ed25519 " + base64.b64encode(b"\xff\xff\xff\xffssh-ed25519").decode(),
    "ssh-ed25519 " + base64.b64encode(b"\x00\x00").decode(),
    blob_line(b"ssh-ed25519", b"k" * 3100),  # over the 4096 base64 characters
    "ssh-ed25519\tAAAA\x00\x01",
)


async def test_malformed_keys_are_refused_and_the_connection_serves_on(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        for line in NOT_KEYS:
            assert await ann.ask(f"KEYADD:{line}") == "KEYADD:ACKSTATUS:2", line
        assert await ann.ask("KEYS") == "KEYS:ACKSTATUS:0:"


async def test_a_key_line_longer_than_a_line_hangs_up_on_its_sender_only(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        with contextlib.suppress(ConnectionError):  # it may hang up before the line ends
            await ann.send("KEYADD:" + blob_line(b"ssh-ed25519", b"k" * 1_000_000))
        with contextlib.suppress(ConnectionResetError):  # hung up on, the line's rest unread
            assert await ann.closed()
        assert await bob.ask("KEYS") == "KEYS:ACKSTATUS:0:"


async def test_keyremove_of_another_s_key_removes_nothing(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        fingerprint = keys.fingerprint_of(PAGE_KEY)
        assert await ann.ask(f"KEYADD:{PAGE_KEY}") == f"KEYADD:ACKSTATUS:0:{fingerprint}"
        for said in (fingerprint, fingerprint.lower(), f"{fingerprint},x", "%", "SHA256:%"):
            assert await bob.ask(f"KEYREMOVE:{said}") == "KEYREMOVE:ACKSTATUS:1"
        assert await server.lobby.store.key_account(fingerprint) == "ann"
