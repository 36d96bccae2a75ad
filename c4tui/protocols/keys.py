"""An ssh key as a lobby account (PROTOCOL.md §9, c4tui's own, issue 42): the words and the keys.

Part of the lobby codec: ``c4tui.protocols.lobby`` parses these requests with the
others. The ssh door (``c4tui serve --ssh-port``) opens a *visit* for each key that
authenticates and gives the visitor's app a token (``sshvisit-…``); the app asks the
lobby which account that key logs in (KEYACCOUNT), registers one bound to it
(KEYREGISTER) or binds it to the account it logged in to with a password (KEYBIND),
and then logs in with the token as its password. A logged-in player may also add a
public key by pasting its line (KEYADD), list its keys (KEYS) and remove one
(KEYREMOVE). On a server started with ``--ssh-guests`` a visit's key without an account
may watch as a guest (KEYGUEST): a name of the server's choosing (``guest-<n>``), no
account, nothing stored.

Also here, pure (the standard library's base64 and hashlib only, so the ssh door
uses the same rule): what an OpenSSH public key line is (``public_key_of``) and its
fingerprint as ``ssh-keygen -lf`` prints it (``fingerprint_of``). A fingerprint holds
one ``:`` (``SHA256:…``); it is always the last thing on its line, so a reader joins
the fields after the status again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import count

from c4tui.protocols.names import GUEST_PREFIX, valid_user
from c4tui.protocols.rooms import BadFormat, ack

#: What every visit's token begins with: only such a password is looked up as a token.
VISIT_TOKEN_PREFIX = "sshvisit-"
#: The most keys one account may have.
MAX_KEYS = 10
#: How long a visit may last at most (its expiry: opened + this), seconds.
VISIT_SECONDS = 24 * 3600
#: The key types a player may add (OpenSSH's names; the blob's first string says it too).
KEY_TYPES = frozenset(
    {
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com",
        "sk-ecdsa-sha2-nistp256@openssh.com",
    }
)
#: The longest key's base64 that is read (RSA 16384's is about 2,800 characters).
MAX_KEY_BASE64 = 4096
#: KEYACCOUNT's statuses: 0 the key's account follows; 1 the key has none; 2 no such visit.
NO_ACCOUNT, NO_VISIT = 1, 2
#: KEYREGISTER's: 1 taken, 2 against the rules, 3 too many from here, 4 no visit, 5 key bound.
(
    REGISTER_TAKEN,
    REGISTER_AGAINST_RULES,
    REGISTER_TOO_MANY,
    REGISTER_NO_VISIT,
    REGISTER_KEY_BOUND,
) = (1, 2, 3, 4, 5)
#: KEYBIND's: 1 the key logs in another account; 2 no such visit; 3 MAX_KEYS already.
BIND_ELSEWHERE, BIND_NO_VISIT, BIND_TOO_MANY = 1, 2, 3
#: KEYADD's: 1 another account's key; 2 not an OpenSSH public key; 3 MAX_KEYS already.
ADD_ELSEWHERE, ADD_NOT_A_KEY, ADD_TOO_MANY = 1, 2, 3
#: KEYREMOVE's: 1 no such key on this account.
REMOVE_NO_SUCH_KEY = 1
#: KEYGUEST's: 1 this server takes no guests; 2 no such visit; 3 logged in already.
GUESTS_NOT_TAKEN, GUEST_NO_VISIT, GUEST_LOGGED_IN = 1, 2, 3
_TOKEN = re.compile(re.escape(VISIT_TOKEN_PREFIX) + r"[A-Za-z0-9_-]{1,119}")
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
_GUEST = re.compile(re.escape(GUEST_PREFIX) + r"[1-9][0-9]{0,13}")


# ----- the keys themselves ----------------------------------------------------------------


def public_key_of(line: str) -> str | None:
    """``<type> <base64>`` of an OpenSSH public key line (its comment dropped); None if none.

    The type must be one of ``KEY_TYPES``, the base64 canonical, and the blob's first
    string the type again, as OpenSSH writes every public key.
    """
    fields = line.strip().split(None, 2)
    if len(fields) < 2 or fields[0] not in KEY_TYPES:
        return None
    kind, text = fields[0], fields[1]
    blob = _blob(text)
    if blob is None or _first_string(blob) != kind.encode("ascii"):
        return None
    return f"{kind} {text}"


def fingerprint_of(line: str) -> str:
    """The key's fingerprint as ``ssh-keygen -lf`` prints it: ``SHA256:`` + base64, no padding.

    Raises ValueError for a line that is no OpenSSH public key (``public_key_of``).
    """
    key = public_key_of(line)
    if key is None:
        raise ValueError("not an OpenSSH public key")
    blob = base64.b64decode(key.split(" ")[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii").rstrip("=")


def _blob(text: str) -> bytes | None:
    """The bytes of a key's canonical base64; None if it is not that."""
    if len(text) > MAX_KEY_BASE64 or not _BASE64.fullmatch(text):
        return None
    try:
        blob = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return blob if base64.b64encode(blob).decode("ascii") == text else None


def _first_string(blob: bytes) -> bytes | None:
    """The ssh wire format's first string of ``blob`` (a 4-byte length, then the bytes).

    None if ``blob`` is too short for it, or holds nothing after it (no key at all).
    """
    if len(blob) < 4:
        return None
    length = int.from_bytes(blob[:4], "big")
    return blob[4 : 4 + length] if 4 + length < len(blob) else None


def is_token(text: str) -> bool:
    """Whether ``text`` could be a visit's token (the prefix, then URL-safe base64)."""
    return _TOKEN.fullmatch(text) is not None


@dataclass(frozen=True)
class Visit:
    """A live visit as the store keeps it: its key's fingerprint and ``<type> <base64>``.

    ``address``: the visitor's, as its ssh door saw it ("" for a key added, not visiting):
    a visitor's app reaches the lobby from the server's own machine.
    """

    fingerprint: str
    public_key: str
    address: str = ""


# ----- what clients send --------------------------------------------------------------


@dataclass(frozen=True)
class KeyAccountAsk:
    """KEYACCOUNT:<token>: which account the visit's key logs in (before LOGIN too)."""

    token: str


@dataclass(frozen=True)
class KeyRegister:
    """KEYREGISTER:<user>:<token>: a new account, bound to the visit's key (before LOGIN too)."""

    user: str
    token: str


@dataclass(frozen=True)
class KeyBind:
    """KEYBIND:<token>: the visit's key logs in this account from now on."""

    token: str


@dataclass(frozen=True)
class KeyAdd:
    """KEYADD:<type> <base64>: a key pasted by the player (``key`` without its comment)."""

    key: str


@dataclass(frozen=True)
class KeyList:
    """KEYS: this account's keys' fingerprints."""


@dataclass(frozen=True)
class KeyRemove:
    """KEYREMOVE:<fingerprint>."""

    fingerprint: str


@dataclass(frozen=True)
class KeyGuest:
    """KEYGUEST:<token>: watch as a guest, without an account (``--ssh-guests`` only)."""

    token: str


KeyRequest = KeyAccountAsk | KeyRegister | KeyBind | KeyAdd | KeyList | KeyRemove | KeyGuest
#: The requests answered before a login (a connection's first line may be one).
BEFORE_LOGIN = (KeyAccountAsk, KeyRegister, KeyGuest)


def parse_key_account(rest: str) -> KeyAccountAsk | BadFormat:
    """KEYACCOUNT:<token>; what cannot be a token is no such visit (status 2)."""
    if not is_token(rest):
        return BadFormat(ack("KEYACCOUNT", NO_VISIT), account=True)
    return KeyAccountAsk(rest)


def parse_key_register(rest: str) -> KeyRegister | BadFormat:
    """KEYREGISTER:<user>:<token>; a name against the rules is 2, a token that is none 4."""
    user, colon, token = rest.partition(":")
    if not colon or not valid_user(user):
        return BadFormat(ack("KEYREGISTER", REGISTER_AGAINST_RULES), account=True)
    if not is_token(token):
        return BadFormat(ack("KEYREGISTER", REGISTER_NO_VISIT), account=True)
    return KeyRegister(user, token)


def parse_key_guest(rest: str) -> KeyGuest | BadFormat:
    """KEYGUEST:<token>; what cannot be a token is no such visit (status 2)."""
    if not is_token(rest):
        return BadFormat(ack("KEYGUEST", GUEST_NO_VISIT), account=True)
    return KeyGuest(rest)


def parse_key_bind(rest: str) -> KeyBind | BadFormat:
    """KEYBIND:<token>; what cannot be a token is no such visit (status 2)."""
    return KeyBind(rest) if is_token(rest) else BadFormat(ack("KEYBIND", BIND_NO_VISIT))


def parse_key_add(rest: str) -> KeyAdd | BadFormat:
    """KEYADD:<openssh public key line>; anything else is status 2."""
    key = public_key_of(rest)
    return KeyAdd(key) if key is not None else BadFormat(ack("KEYADD", ADD_NOT_A_KEY))


def parse_key_remove(rest: str) -> KeyRemove | BadFormat:
    """KEYREMOVE:<fingerprint>; what cannot be a fingerprint is no such key (status 1)."""
    if not FINGERPRINT.fullmatch(rest):
        return BadFormat(ack("KEYREMOVE", REMOVE_NO_SUCH_KEY))
    return KeyRemove(rest)


#: Each command's parser, and the command that comes bare.
PARSERS = {
    "KEYACCOUNT": parse_key_account,
    "KEYREGISTER": parse_key_register,
    "KEYBIND": parse_key_bind,
    "KEYADD": parse_key_add,
    "KEYS": lambda _: BadFormat(ack("KEYS", 1)),  # KEYS takes no argument
    "KEYREMOVE": parse_key_remove,
    "KEYGUEST": parse_key_guest,
}
BARE = {"KEYS": KeyList()}
#: The words a connection's first line may begin with, besides LOGIN and REGISTER.
OPENINGS = (b"KEYACCOUNT:", b"KEYREGISTER:", b"KEYGUEST:")


# ----- what the server sends, and clients read ---------------------------------------


def key_account_answer(user: str | None) -> str:
    """KEYACCOUNT:ACKSTATUS:0:<user>, or :1 (the key has no account)."""
    return ack("KEYACCOUNT", 0, user) if user is not None else ack("KEYACCOUNT", NO_ACCOUNT)


def guest_name(taken: Collection[str]) -> str:
    """The first ``guest-<n>`` (n from 1) not in ``taken``: short names, none twice at once."""
    return next(name for n in count(1) if (name := f"{GUEST_PREFIX}{n}") not in taken)


def guest_field(extra: Sequence[str]) -> str | None:
    """The guest's name after KEYGUEST's status 0; None if it is no guest's name."""
    name = ":".join(extra)
    return name if _GUEST.fullmatch(name) else None


def key_added_answer(fingerprint: str) -> str:
    """KEYADD:ACKSTATUS:0:<fingerprint>."""
    return ack("KEYADD", 0, fingerprint)


def keys_answer(fingerprints: Sequence[str]) -> str:
    """KEYS:ACKSTATUS:0:<fp>,<fp>… (nothing after ``0:`` when none)."""
    return ack("KEYS", 0, ",".join(fingerprints))


def fingerprint_field(extra: Sequence[str]) -> str | None:
    """The fingerprint after an ACKSTATUS's status (its one ``:`` joined again); None if none."""
    text = ":".join(extra)
    return text if FINGERPRINT.fullmatch(text) else None


def fingerprints_field(extra: Sequence[str]) -> list[str] | None:
    """KEYS's fingerprints after its status; None if any is no fingerprint."""
    text = ":".join(extra)
    found = text.split(",") if text else []
    return found if all(FINGERPRINT.fullmatch(fp) for fp in found) else None


def token_hash(token: str) -> str:
    """What the store keeps of a visit's token: its SHA-256, in hex (never the token)."""
    return hashlib.sha256(token.encode()).hexdigest()
