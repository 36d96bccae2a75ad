"""An ssh key as a lobby account (§9, issue 42), as work (``sql_work``) both engines run.

Two tables. ``account_keys`` binds each key (by its fingerprint, the primary key, so
a key logs in one account at most) to the account it logs in, with its public key
line and when it was added. ``ssh_visits`` holds the visits the ssh door opens: the
SHA-256 of the visit's token (never the token), the visiting key and its expiry. A
visit names a key, not an account, so a key bound or removed while it visits changes
what its token logs in at once; a deleted account's keys go with it
(``erase_keys``), and its visits then log in nothing. Visits live in the store, not in
a server's memory, so that on a cluster the node leading the lobby checks the visits
another node's ssh door opened.
"""

from __future__ import annotations

from c4tui.protocols.keys import ADD_ELSEWHERE, ADD_TOO_MANY, MAX_KEYS, REGISTER_TAKEN, Visit
from c4tui.server.moderation_store import iso_utc
from c4tui.server.sql_games import insert_account
from c4tui.server.sql_public import account_exists, login_record
from c4tui.server.sql_work import Work


def key_migration(real: str) -> tuple[str, ...]:
    """§9's tables, in one engine's types (``real``: a double)."""
    return (
        "CREATE TABLE account_keys (fingerprint TEXT PRIMARY KEY, account TEXT NOT NULL,"
        f" public_key TEXT NOT NULL, added {real} NOT NULL)",
        "CREATE INDEX account_keys_by_account ON account_keys (account)",
        "CREATE TABLE ssh_visits (token_hash TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,"
        f" public_key TEXT NOT NULL, expires {real} NOT NULL, address TEXT NOT NULL)",
        "CREATE INDEX ssh_visits_by_expiry ON ssh_visits (expires)",
    )


class KeyTaken(Exception):
    """The key was bound to an account meanwhile (rolls a registration back)."""


# ----- visits ----------------------------------------------------------------------------


def begin_visit(token_hash: str, visit: Visit, expires: float) -> Work[None]:
    """Keep a visit the ssh door opened."""
    yield (
        "INSERT INTO ssh_visits (token_hash, fingerprint, public_key, expires, address)"
        " VALUES (?, ?, ?, ?, ?)",
        (token_hash, visit.fingerprint, visit.public_key, expires, visit.address),
    )


def end_visit(token_hash: str) -> Work[None]:
    """The visit is over (its ssh connection closed): its token logs in nothing more."""
    yield ("DELETE FROM ssh_visits WHERE token_hash = ?", (token_hash,))


def end_expired_visits(now: float) -> Work[int]:
    """End every visit whose expiry is past at ``now``: how many."""
    rows = yield ("DELETE FROM ssh_visits WHERE expires <= ? RETURNING token_hash", (now,))
    return len(rows)


def visit(token_hash: str, now: float) -> Work[Visit | None]:
    """The live visit of that token's hash at ``now``; None: none (unknown, ended, expired)."""
    rows = yield (
        "SELECT fingerprint, public_key, address FROM ssh_visits"
        " WHERE token_hash = ? AND expires > ?",
        (token_hash, now),
    )
    return Visit(str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None


def visit_login(user: str, token_hash: str, now: float) -> Work[bool | None]:
    """Whether a ban holds on ``user``, if a live visit's key logs it in; None: no such visit.

    The cheap path of a LOGIN (or PASSWORD) whose password is a token: one indexed look,
    no bcrypt.
    """
    rows = yield (
        "SELECT 1 FROM ssh_visits JOIN account_keys"
        " ON account_keys.fingerprint = ssh_visits.fingerprint"
        " WHERE ssh_visits.token_hash = ? AND ssh_visits.expires > ? AND account_keys.account = ?",
        (token_hash, now, user),
    )
    if not rows:
        return None
    record = yield from login_record(user, now)
    return None if record is None else record[1]


# ----- keys --------------------------------------------------------------------------------


def key_account(fingerprint: str) -> Work[str | None]:
    """The account the key logs in; None: none."""
    rows = yield ("SELECT account FROM account_keys WHERE fingerprint = ?", (fingerprint,))
    return str(rows[0][0]) if rows else None


def bind_key(user: str, key: Visit, now: float) -> Work[int]:
    """KEYADD's (and KEYBIND's) status: 0 bound (or already), 1 another's, 3 MAX_KEYS already.

    Run in one transaction. An account deleted meanwhile binds nothing: 1.
    """
    owner = yield from key_account(key.fingerprint)
    if owner is not None:
        return 0 if owner == user else ADD_ELSEWHERE
    if not (yield from account_exists(user)):
        return ADD_ELSEWHERE
    if len((yield from keys_of(user))) >= MAX_KEYS:
        return ADD_TOO_MANY
    return 0 if (yield from _insert_key(user, key, now)) else ADD_ELSEWHERE


def register_with_key(user: str, hashed: bytes, key: Visit, now: float) -> Work[int]:
    """KEYREGISTER's account, bound to ``key``: 0 made, 1 the name taken (perhaps meanwhile).

    Run in one transaction. Raises KeyTaken if another account took the key meanwhile,
    so that the transaction rolls back and no account is left without its key.
    """
    if not (yield from insert_account(user, hashed, False)):
        return REGISTER_TAKEN
    if not (yield from _insert_key(user, key, now)):
        raise KeyTaken(key.fingerprint)
    return 0


def _insert_key(user: str, key: Visit, now: float) -> Work[bool]:
    """Bind ``key`` to ``user``; False if an account holds it already (perhaps meanwhile)."""
    added = yield (
        "INSERT INTO account_keys (fingerprint, account, public_key, added) VALUES (?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING RETURNING account",
        (key.fingerprint, user, key.public_key, now),
    )
    return bool(added)


def keys_of(user: str) -> Work[list[str]]:
    """The fingerprints of ``user``'s keys, oldest first."""
    rows = yield (
        "SELECT fingerprint FROM account_keys WHERE account = ? ORDER BY added, fingerprint",
        (user,),
    )
    return [str(fingerprint) for (fingerprint,) in rows]


def remove_key(user: str, fingerprint: str) -> Work[bool]:
    """Whether ``user`` had that key (and now no longer has: its visits log in nothing)."""
    rows = yield (
        "DELETE FROM account_keys WHERE account = ? AND fingerprint = ? RETURNING fingerprint",
        (user, fingerprint),
    )
    return bool(rows)


def erase_keys(user: str) -> Work[None]:
    """An account's deletion takes its keys (``sql_erasure.delete_account``)."""
    yield ("DELETE FROM account_keys WHERE account = ?", (user,))


def exported_keys(user: str) -> Work[list[dict[str, object]]]:
    """The account's keys as its export holds them: fingerprint, key, when added."""
    rows = yield (
        "SELECT fingerprint, public_key, added FROM account_keys WHERE account = ?"
        " ORDER BY added, fingerprint",
        (user,),
    )
    return [
        {"fingerprint": str(fp), "key": str(key), "added": iso_utc(added)}
        for fp, key, added in rows
    ]
