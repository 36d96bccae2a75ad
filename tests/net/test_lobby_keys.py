"""An ssh key as a lobby account (§9, issue 42) over real sockets, on SQLite and PostgreSQL.

The ssh door's part is played by the store: a visit is begun there as the door begins
one (``LobbyStore.begin_visit``), and the lobby is then asked as the visitor's app asks it.
"""

from __future__ import annotations

import base64
import json
import re
import time
from pathlib import Path

import c4tui
from c4tui.client import key_words
from c4tui.client.keys import KeyAccount
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import KeyAddOutcome, KeyBindOutcome, KeyRegisterOutcome, LoginOutcome
from c4tui.client.words import Voice
from c4tui.protocols import keys
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in

PAGE = Path(c4tui.__file__).parent / "protocols" / "PROTOCOL.md"


def page_section() -> str:
    """PROTOCOL.md's §9."""
    page = PAGE.read_text("utf-8")
    return page.split("## An ssh key as an account (§9)")[1].split("\n## ")[0]


def page_exchange() -> list[tuple[str, str]]:
    """§9's exchanges: (what alice sends, what she is answered), comments cut."""
    lines = re.findall(r"^alice [→←] (.+?)(?: {2,}#.*)?$", page_section(), re.M)
    return list(zip(lines[::2], lines[1::2], strict=True))


#: The page's token and the key it visits with (alice@home's).
PAGE_TOKEN = "sshvisit-QDZJ-MBzjC-KtaEJ3VafKXMpoBBWEgBLsZlg1vTzU5w"
PAGE_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICyfckFSIHQmNbKUUoYpab1a+Z/jb6vqG84XJ5ySP1J5"
OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBBb93KM8Ml8SjLVYjcOX4jLzwJ/TYZJCbC/3Waq+nVM"


async def visit(server: C4Server, key: str, token: str, seconds: float = 60.0) -> str:
    """Begin a visit of ``key`` as the ssh door does; its token."""
    store = server.lobby.store
    expires = time.time() + seconds
    await store.begin_visit(
        keys.token_hash(token), keys.Visit(keys.fingerprint_of(key), key), expires
    )
    return token


def token(n: int) -> str:
    return f"{keys.VISIT_TOKEN_PREFIX}{n:043d}"


async def zoe_by_key(server: C4Server) -> tuple[LobbyClient, str]:
    """zoe, registered by a visit of the page's key and logged in with its token."""
    visiting = await visit(server, PAGE_KEY, token(1))
    zoe = await LobbyClient.connect(server.port)
    assert await zoe.ask(f"KEYREGISTER:zoe:{visiting}") == "KEYREGISTER:ACKSTATUS:0"
    assert await zoe.ask(f"LOGIN:zoe:{visiting}") == "LOGIN:ACKSTATUS:0"
    return zoe, visiting


async def test_the_protocol_pages_exchange_is_what_a_server_answers(
    tmp_path: Path, lobby_db: str
) -> None:
    exchange = page_exchange()
    assert len(exchange) == 10
    async with lobby_server(tmp_path, lobby_db) as server:
        await visit(server, PAGE_KEY, PAGE_TOKEN)
        alice = await LobbyClient.connect(server.port)  # KEYACCOUNT is its first line
        for sent, answer in exchange:
            assert await alice.ask(sent) == answer, sent


async def test_a_comeback_logs_in_while_the_visit_lasts_and_not_after(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        first, visiting = await zoe_by_key(server)
        await first.close()
        again = await LobbyClient.connect(server.port)  # the drop's comeback
        assert await again.ask(f"LOGIN:zoe:{visiting}") == "LOGIN:ACKSTATUS:0"
        await server.lobby.store.end_visit(keys.token_hash(visiting))
        late = await LobbyClient.connect(server.port)
        assert await late.ask(f"LOGIN:zoe:{visiting}") == "LOGIN:ACKSTATUS:2"
        assert await late.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:2"
        assert await late.ask(f"KEYREGISTER:zed:{visiting}") == "KEYREGISTER:ACKSTATUS:4"
        fresh = await visit(server, PAGE_KEY, token(2))  # the same key's next visit
        assert await late.ask(f"KEYACCOUNT:{fresh}") == "KEYACCOUNT:ACKSTATUS:0:zoe"
        assert await late.ask(f"KEYREGISTER:zed:{fresh}") == "KEYREGISTER:ACKSTATUS:5"
        assert await late.ask(f"LOGIN:zoe:{fresh}") == "LOGIN:ACKSTATUS:0"


async def test_names_taken_and_against_the_rules(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        await (await logged_in(server.port, "Ann")).close()
        client = await LobbyClient.connect(server.port)
        assert await client.ask(f"KEYREGISTER:ann:{visiting}") == "KEYREGISTER:ACKSTATUS:1"
        assert await client.ask(f"KEYREGISTER:ACKSTATUS:{visiting}") == "KEYREGISTER:ACKSTATUS:1"
        assert await client.ask(f"KEYREGISTER:a.b:{visiting}") == "KEYREGISTER:ACKSTATUS:2"
        assert await client.ask("KEYREGISTER:bob:hunter2") == "KEYREGISTER:ACKSTATUS:4"
        assert await client.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"


async def test_registrations_by_key_count_with_registers(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, max_registrations=2) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        client = await LobbyClient.connect(server.port)
        assert await client.ask("REGISTER:ann:pw") == "REGISTER:ACKSTATUS:0"
        assert await client.ask(f"KEYREGISTER:ann:{visiting}") == "KEYREGISTER:ACKSTATUS:1"
        assert await client.ask(f"KEYREGISTER:bob:{visiting}") == "KEYREGISTER:ACKSTATUS:3"
        assert await client.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"


async def test_a_password_login_binds_its_visits_key(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"
        assert await ann.ask(f"KEYBIND:{visiting}") == "BADAUTH"  # before LOGIN
        assert await ann.ask("KEYS") == "BADAUTH"
        assert await ann.ask(f"KEYADD:{OTHER_KEY}") == "BADAUTH"
        assert await ann.ask(f"KEYREMOVE:{keys.fingerprint_of(PAGE_KEY)}") == "BADAUTH"
        await ann.close()
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask(f"KEYBIND:{token(9)}") == "KEYBIND:ACKSTATUS:2"
        assert await ann.ask(f"KEYBIND:{visiting}") == "KEYBIND:ACKSTATUS:0"
        assert await bob.ask(f"KEYBIND:{visiting}") == "KEYBIND:ACKSTATUS:1"
        assert await bob.ask(f"KEYADD:{PAGE_KEY} stolen") == "KEYADD:ACKSTATUS:1"
        assert await bob.ask(f"LOGIN:ann:{visiting}") == "LOGIN:ACKSTATUS:3"  # logged in already
        visitor = await LobbyClient.connect(server.port)
        assert await visitor.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:0:ann"
        assert await visitor.ask(f"LOGIN:bob:{visiting}") == "LOGIN:ACKSTATUS:2"  # not bob's key
        assert await visitor.ask(f"LOGIN:ann:{visiting}") == "LOGIN:ACKSTATUS:0"
        assert await ann.line() == "BYE:elsewhere"  # the newest login wins, as ever
        assert await visitor.ask(f"PASSWORD:{visiting}") == "PASSWORD:ACKSTATUS:0"
        assert await visitor.ask("NEWPASSWORD:new-pw") == "NEWPASSWORD:ACKSTATUS:0"
        assert (
            await bob.ask(f"KEYREMOVE:{keys.fingerprint_of(PAGE_KEY)}") == "KEYREMOVE:ACKSTATUS:1"
        )


async def test_ten_keys_at_most(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        for n in range(keys.MAX_KEYS):
            blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + n.to_bytes(32, "big")
            line = f"ssh-ed25519 {base64.b64encode(blob).decode()} key {n}"
            assert (
                await ann.ask(f"KEYADD:{line}") == f"KEYADD:ACKSTATUS:0:{keys.fingerprint_of(line)}"
            )
        assert await ann.ask(f"KEYADD:{OTHER_KEY}") == "KEYADD:ACKSTATUS:3"
        visiting = await visit(server, PAGE_KEY, token(1))
        assert await ann.ask(f"KEYBIND:{visiting}") == "KEYBIND:ACKSTATUS:3"
        listed = (await ann.ask("KEYS")).removeprefix("KEYS:ACKSTATUS:0:").split(",")
        assert len(listed) == keys.MAX_KEYS


async def test_guessed_tokens_are_wrong_passwords_and_slowed(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await zoe_by_key(server)
        guesser = await LobbyClient.connect(server.port)
        for n in range(2, 4):  # the first two failures are answered at once
            assert await guesser.ask(f"LOGIN:zoe:{token(n)}") == "LOGIN:ACKSTATUS:2"
        began = time.monotonic()
        assert await guesser.ask(f"LOGIN:zoe:{token(4)}") == "LOGIN:ACKSTATUS:2"
        assert time.monotonic() - began >= 0.9  # the third waits a second, as any password's
        assert await guesser.ask("LOGIN:zoe:sshvisit-") == "LOGIN:ACKSTATUS:2"  # a password


async def test_keys_go_with_the_account_and_are_in_its_export(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        client, visiting = await zoe_by_key(server)
        exported = await server.lobby.store.export("zoe")
        assert exported is not None
        [kept] = json.loads(json.dumps(exported))["keys"]
        assert (kept["fingerprint"], kept["key"]) == (keys.fingerprint_of(PAGE_KEY), PAGE_KEY)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", kept["added"])
        assert await client.ask(f"DELETEACCOUNT:{visiting}") == "DELETEACCOUNT:ACKSTATUS:0"
        assert await client.line() == "BYE:deleted"
        assert await server.lobby.store.key_account(keys.fingerprint_of(PAGE_KEY)) is None
        other = await LobbyClient.connect(server.port)
        assert await other.ask(f"KEYACCOUNT:{visiting}") == "KEYACCOUNT:ACKSTATUS:1"
        assert await other.ask(f"LOGIN:zoe:{visiting}") == "LOGIN:ACKSTATUS:1"


async def test_the_link_registers_by_key_logs_in_and_keeps_keys(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        visiting = await visit(server, PAGE_KEY, token(1))
        link = await LobbyLink.open("127.0.0.1", server.port)
        try:
            assert await link.key_account(visiting) == KeyAccount(None, True)
            assert await link.key_account(token(2)) == KeyAccount(None, False)
            assert await link.key_account("not a token") == KeyAccount(None, False)  # unsent
            assert await link.key_register("a b", visiting) is KeyRegisterOutcome.AGAINST_THE_RULES
            assert await link.key_register("zoe", visiting) is KeyRegisterOutcome.CREATED
            refused = await link.key_register("zed", visiting)
            assert refused is KeyRegisterOutcome.KEY_HAS_ACCOUNT
            assert key_words.KEYREGISTER.said(refused, Voice.APP).startswith("Your key logs in")
            assert await link.key_account(visiting) == KeyAccount("zoe", True)
            assert await link.login("zoe", visiting) is LoginOutcome.LOGGED_IN
            assert await link.key_bind(visiting) is KeyBindOutcome.BOUND
            pasted = f"{OTHER_KEY} zoe@laptop\nKEYREMOVE:{keys.fingerprint_of(PAGE_KEY)}"
            added = await link.key_add(pasted)  # the comment, newline and all, is not sent
            assert added == (KeyAddOutcome.ADDED, keys.fingerprint_of(OTHER_KEY))
            assert await link.key_add("ssh-rsa nonsense") == (KeyAddOutcome.NOT_A_KEY, None)
            said = key_words.KEYADD.said(KeyAddOutcome.NOT_A_KEY, Voice.APP)
            assert said.startswith("That is not an OpenSSH public key")
            both = [keys.fingerprint_of(PAGE_KEY), keys.fingerprint_of(OTHER_KEY)]
            assert sorted(await link.keys()) == sorted(both)
            assert await link.key_remove(both[1]) is True
            assert await link.key_remove(both[1]) is False
            assert await link.key_remove("SHA256:nonsense") is False
            assert await link.keys() == both[:1]
        finally:
            await link.close()


async def test_a_server_start_ends_the_expired_visits(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        old = await visit(server, PAGE_KEY, token(1), seconds=0.0)
        live = await visit(server, OTHER_KEY, token(2))
    async with lobby_server(tmp_path, lobby_db) as server:
        store = server.lobby.store
        assert await store.end_expired_visits(time.time()) == 0  # the start ended it
        assert await store.live_visit(keys.token_hash(old)) is None
        assert await store.live_visit(keys.token_hash(live)) is not None


def rsa_4096_line() -> str:
    """An RSA key line of 4096 bits' size, as ssh-keygen writes one (about 740 characters)."""
    modulus = b"\x00" + bytes(range(256)) * 2  # 513 bytes: a 4096-bit modulus with its sign
    blob = b"".join(
        len(part).to_bytes(4, "big") + part for part in (b"ssh-rsa", b"\x01\x00\x01", modulus)
    )
    return f"ssh-rsa {base64.b64encode(blob).decode()} ann@a-long-host-name.example.org"


async def test_an_rsa_4096_key_is_added_over_the_wire(tmp_path: Path) -> None:
    line = rsa_4096_line()
    assert len(line) > 700
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        fingerprint = keys.fingerprint_of(line)
        assert await ann.ask(f"KEYADD:{line}") == f"KEYADD:ACKSTATUS:0:{fingerprint}"
        assert await ann.ask("KEYS") == f"KEYS:ACKSTATUS:0:{fingerprint}"
