"""§9's codec (issue 42): public keys, their fingerprints as ssh-keygen prints them, the words."""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest

from c4tui.net.wire import MAX_LINE_BYTES
from c4tui.protocols import keys
from c4tui.protocols import lobby as wire
from c4tui.protocols.registry import Recognition

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")


def made_key(folder: Path, kind: str, *bits: str) -> tuple[str, str]:
    """A new key's public line (with its comment) and ssh-keygen's own fingerprint of it."""
    path = folder / f"id_{kind}{''.join(bits)}"
    command = ["ssh-keygen", "-q", "-t", kind, *bits, "-N", "", "-C", "ann@home", "-f", str(path)]
    subprocess.run(command, check=True, capture_output=True)
    listed = subprocess.run(
        ["ssh-keygen", "-lf", f"{path}.pub"], check=True, capture_output=True, text=True
    ).stdout
    return (folder / f"{path.name}.pub").read_text().strip(), listed.split()[1]


@needs_ssh_keygen
@pytest.mark.parametrize(
    ("kind", "bits"), [("ed25519", ()), ("rsa", ("-b", "4096")), ("ecdsa", ("-b", "384"))]
)
def test_the_fingerprint_is_ssh_keygens(tmp_path: Path, kind: str, bits: tuple[str, ...]) -> None:
    line, expected = made_key(tmp_path, kind, *bits)
    assert keys.fingerprint_of(line) == expected
    key = keys.public_key_of(line)
    assert key is not None and " " in key and "ann@home" not in key
    assert line.startswith(key)
    assert keys.FINGERPRINT.fullmatch(expected)
    request = wire.parse_request(f"KEYADD:{line}")
    assert request == keys.KeyAdd(key)
    assert len(f"KEYADD:{line}\n".encode()) < MAX_LINE_BYTES  # an RSA 4096 line fits (~740)


def key_line(kind: str, blob: bytes) -> str:
    return f"{kind} {base64.b64encode(blob).decode()}"


def ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


@pytest.mark.parametrize(
    "line",
    [
        "",
        "ssh-ed25519",
        "ssh-dss " + base64.b64encode(ssh_string(b"ssh-dss") + b"x").decode(),  # not allowed
        key_line("ssh-ed25519", ssh_string(b"ssh-rsa") + b"x" * 32),  # the blob says another
        key_line("ssh-ed25519", b"\x00\x00"),  # too short for a string
        key_line("ssh-ed25519", b"\x00\x00\x01\x00ssh-ed25519"),  # a length past the end
        "ssh-ed25519 AAAA!!!!",
        key_line("ssh-ed25519", ssh_string(b"ssh-ed25519")),  # the type, and no key
        key_line("ssh-ed25519", ssh_string(b"ssh-ed25519") + b"k").rstrip("="),  # unpadded
        "ssh-ed25519 " + "A" * (keys.MAX_KEY_BASE64 + 4),
    ],
)
def test_what_is_no_public_key(line: str) -> None:
    assert keys.public_key_of(line) is None
    with pytest.raises(ValueError, match="not an OpenSSH public key"):
        keys.fingerprint_of(line)
    assert wire.parse_request(f"KEYADD:{line}") == wire.BadFormat("KEYADD:ACKSTATUS:2")


def test_a_sk_key_and_its_comment() -> None:
    kind = "sk-ssh-ed25519@openssh.com"
    line = key_line(kind, ssh_string(kind.encode()) + ssh_string(b"k" * 32)) + " my key: yes"
    assert keys.public_key_of(line) == line.rsplit(" ", 3)[0]


TOKEN = keys.VISIT_TOKEN_PREFIX + "A" * 43


def test_the_requests_and_their_bad_formats() -> None:
    parse = wire.parse_request
    assert parse(f"KEYACCOUNT:{TOKEN}") == keys.KeyAccountAsk(TOKEN)
    assert parse(f"KEYREGISTER:ann:{TOKEN}") == keys.KeyRegister("ann", TOKEN)
    assert parse(f"KEYBIND:{TOKEN}") == keys.KeyBind(TOKEN)
    assert parse("KEYS") == keys.KeyList()
    fingerprint = "SHA256:" + "a" * 43
    assert parse(f"KEYREMOVE:{fingerprint}") == keys.KeyRemove(fingerprint)
    assert parse("KEYACCOUNT:password") == wire.BadFormat("KEYACCOUNT:ACKSTATUS:2", account=True)
    assert parse(f"KEYREGISTER:a b:{TOKEN}") == wire.BadFormat(
        "KEYREGISTER:ACKSTATUS:2", account=True
    )
    assert parse("KEYREGISTER:ann:x") == wire.BadFormat("KEYREGISTER:ACKSTATUS:4", account=True)
    assert parse("KEYREGISTER:ann") == wire.BadFormat("KEYREGISTER:ACKSTATUS:2", account=True)
    assert parse("KEYBIND:sshvisit-") == wire.BadFormat("KEYBIND:ACKSTATUS:2")
    assert parse("KEYREMOVE:SHA256:short") == wire.BadFormat("KEYREMOVE:ACKSTATUS:1")
    assert parse("KEYS:all") == wire.BadFormat("KEYS:ACKSTATUS:1")


def test_a_connection_may_open_with_keyaccount_or_keyregister() -> None:
    for opening in (f"KEYACCOUNT:{TOKEN}", f"KEYREGISTER:ann:{TOKEN}"):
        assert wire.SPEC.recognise(opening.encode()) is Recognition.YES
    assert wire.SPEC.recognise(b"KEYACC") is Recognition.MORE
    assert wire.SPEC.recognise(b"KEYS") is Recognition.NO


def test_the_answers_read_back() -> None:
    fingerprints = ["SHA256:" + "a" * 43, "SHA256:" + "b/+" * 14 + "c"]
    answer = wire.parse_server_message(keys.keys_answer(fingerprints))
    assert isinstance(answer, wire.Ack) and answer.status == 0
    assert keys.fingerprints_field(answer.extra) == fingerprints
    empty = wire.parse_server_message(keys.keys_answer([]))
    assert isinstance(empty, wire.Ack) and keys.fingerprints_field(empty.extra) == []
    added = wire.parse_server_message(keys.key_added_answer(fingerprints[1]))
    assert isinstance(added, wire.Ack) and keys.fingerprint_field(added.extra) == fingerprints[1]
    assert keys.fingerprint_field(("SHA256", "x")) is None
    assert keys.fingerprints_field(("SHA256", "a,b")) is None
    assert keys.key_account_answer("ann") == "KEYACCOUNT:ACKSTATUS:0:ann"
    assert keys.key_account_answer(None) == "KEYACCOUNT:ACKSTATUS:1"


def test_keyguest_and_a_guests_name() -> None:
    assert wire.parse_request(f"KEYGUEST:{TOKEN}") == keys.KeyGuest(TOKEN)
    refused = wire.BadFormat("KEYGUEST:ACKSTATUS:2", account=True)
    assert wire.parse_request("KEYGUEST:hunter2") == refused
    assert wire.SPEC.recognise(f"KEYGUEST:{TOKEN}".encode()) is Recognition.YES  # a first line
    assert keys.guest_name(set()) == "guest-1"
    assert keys.guest_name({"guest-1", "guest-3", "ann"}) == "guest-2"
    assert keys.guest_field(("guest-12",)) == "guest-12"
    for not_a_guest in [("guest-0",), ("ann",), ("guest-1", "x"), ("guest-" + "9" * 15,)]:
        assert keys.guest_field(not_a_guest) is None
