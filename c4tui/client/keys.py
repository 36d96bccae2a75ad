"""An ssh key as an account (PROTOCOL.md §9, issue 42), as ``LobbyLink``'s methods.

The visitor's app (``c4tui --ssh-visitor``) holds its visit's token
(``C4TUI_SSH_TOKEN``): it asks which account its key logs in (``key_account``), makes
one bound to the key (``key_register``) or binds the key to the account it logged in
to with a password (``key_bind``), then logs in with the token as the password. A
logged-in player adds a pasted public key (``key_add``), lists its keys (``keys``) and
removes one (``key_remove``). A key without an account may watch as a guest on a
server that takes them (``key_guest``). The outcomes in words are ``key_words``'.

Every request is first read by our own codec, as the server reads it: a token, a name
or a key line the server would refuse is answered that status here, and never sent.
A pasted key goes without its comment (the server keeps none), so nothing a person
pastes after the key, a newline among it, reaches the wire.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from c4tui.client.outcomes import (
    KeyAddOutcome,
    KeyBindOutcome,
    KeyRegisterOutcome,
    UnknownStatus,
    outcome_of,
)
from c4tui.net.errors import ProtocolError
from c4tui.protocols import keys as wire_keys
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import valid_user


@dataclass(frozen=True)
class KeyAccount:
    """KEYACCOUNT's answer: the account the visit's key logs in (None: none yet).

    ``visit_known`` False: no such visit (unknown, ended, or no token): ``user`` is None.
    """

    user: str | None
    visit_known: bool


class Keys(ABC):
    """KEYACCOUNT, KEYREGISTER, KEYBIND, KEYADD, KEYS, KEYREMOVE and KEYGUEST, typed."""

    user: str  # whom we are logged in as (``LobbyLink``'s; a guest's name after KEYGUEST)

    @abstractmethod
    async def ask(self, line: str) -> wire.Ack:
        """Send a request and wait for its ACKSTATUS (``LobbyLink.ask``)."""

    @abstractmethod
    async def _checked(self, line: str) -> wire.Ack:
        """``ask``, unless our codec finds a bad format (``Public._checked``)."""

    async def key_account(self, token: str) -> KeyAccount:
        """Which account the visit's key logs in (asked before a login too).

        Raises ProtocolError for an account's name no account can have.
        """
        answer = await self._checked(f"KEYACCOUNT:{token}")
        if answer.status == 0:
            user = ":".join(answer.extra)
            if not valid_user(user):
                raise ProtocolError(f"KEYACCOUNT answered no user name: {user[:30]!r}")
            return KeyAccount(user, True)
        return KeyAccount(None, answer.status == wire_keys.NO_ACCOUNT)

    async def key_register(self, user: str, token: str) -> KeyRegisterOutcome | UnknownStatus:
        """Make ``user``'s account, bound to the visit's key (it does not log in)."""
        answer = await self._checked(f"KEYREGISTER:{user}:{token}")
        return outcome_of(KeyRegisterOutcome, answer.status)

    async def key_bind(self, token: str) -> KeyBindOutcome | UnknownStatus:
        """The visit's key logs in our account from now on."""
        return outcome_of(KeyBindOutcome, (await self._checked(f"KEYBIND:{token}")).status)

    async def key_add(self, line: str) -> tuple[KeyAddOutcome | UnknownStatus, str | None]:
        """Add a public key pasted as OpenSSH writes it: the outcome, and its fingerprint.

        Raises ProtocolError for a status 0 without a fingerprint.
        """
        key = wire_keys.public_key_of(line)
        if key is None:
            return KeyAddOutcome.NOT_A_KEY, None
        answer = await self.ask(f"KEYADD:{key}")
        outcome = outcome_of(KeyAddOutcome, answer.status)
        if outcome is not KeyAddOutcome.ADDED:
            return outcome, None
        fingerprint = wire_keys.fingerprint_field(answer.extra)
        if fingerprint is None:
            raise ProtocolError(f"KEYADD answered no fingerprint: {answer.extra!r}")
        return outcome, fingerprint

    async def keys(self) -> list[str]:
        """Our keys' fingerprints, oldest first (none if the server refuses to say).

        Raises ProtocolError for a list that holds what is no fingerprint.
        """
        answer = await self.ask("KEYS")
        if answer.status != 0:
            return []
        found = wire_keys.fingerprints_field(answer.extra)
        if found is None:
            raise ProtocolError(f"KEYS answered what is no fingerprint: {answer.extra!r}")
        return found

    async def key_guest(self, token: str) -> str | None:
        """Log in as a guest who only watches (``--ssh-guests``); its name, or None if refused.

        Refused: the server takes no guests, the visit is over, or we are logged in already.
        Raises ProtocolError for a name that is no guest's.
        """
        answer = await self._checked(f"KEYGUEST:{token}")
        if answer.status != 0:
            return None
        name = wire_keys.guest_field(answer.extra)
        if name is None:
            raise ProtocolError(f"KEYGUEST answered no guest's name: {answer.extra!r}")
        self.user = name
        return name

    async def key_remove(self, fingerprint: str) -> bool:
        """Remove one of our keys; False: no such key on our account."""
        return (await self._checked(f"KEYREMOVE:{fingerprint}")).status == 0
