"""An ssh key as an account (§9) in words, for the app (and any front end) alike.

KEYREGISTER's, KEYBIND's and KEYADD's refusals (``key_words.KEYREGISTER.said(outcome,
Voice.APP)``), split from ``words`` as ``public_words`` is (one table of words, by
concern); the handout's voice has none of these requests, so its words are empty. A
name taken, against the rules or one too many from here is said as REGISTER says it.
"""

from __future__ import annotations

from c4tui.client.outcomes import (
    KeyAddOutcome,
    KeyBindOutcome,
    KeyRegisterOutcome,
    RegisterOutcome,
)
from c4tui.client.words import REGISTER, Refusals, Words
from c4tui.protocols.keys import KEY_TYPES, MAX_KEYS

_same = Words.same  # the console's and the app's (the handout has none of §9)
#: What a visit unknown to the lobby means (KEYACCOUNT's ``visit_known`` False, too).
VISIT_ENDED = "This ssh visit has ended: connect again with ssh."
_NO_VISIT = _same(VISIT_ENDED)
#: KEYGUEST refused: the server takes no guests now, or the visit is over.
GUEST_REFUSED = "You can no longer watch here as a guest: connect again with ssh."
_ANOTHER_ACCOUNT = _same("That key logs in another account.")
_TOO_MANY_KEYS = _same(f"Your account has {MAX_KEYS} keys already: remove one first.")
_UNKNOWN = _same("Refused ({status}).")
_TYPES = ", ".join(sorted(KEY_TYPES))

KEYREGISTER = Refusals[KeyRegisterOutcome](
    {
        KeyRegisterOutcome.NAME_TAKEN: REGISTER.known[RegisterOutcome.NAME_TAKEN],
        KeyRegisterOutcome.AGAINST_THE_RULES: REGISTER.known[RegisterOutcome.AGAINST_THE_RULES],
        KeyRegisterOutcome.TOO_MANY_FROM_HERE: REGISTER.known[RegisterOutcome.TOO_MANY_FROM_HERE],
        KeyRegisterOutcome.NO_SUCH_VISIT: _NO_VISIT,
        KeyRegisterOutcome.KEY_HAS_ACCOUNT: _same(
            "Your key logs in an account already: connect again to be logged in."
        ),
    },
    unknown=_UNKNOWN,
)
KEYBIND = Refusals[KeyBindOutcome](
    {
        KeyBindOutcome.ANOTHER_ACCOUNT: _same(
            "Your ssh key logs in another account: it stays that account's."
        ),
        KeyBindOutcome.NO_SUCH_VISIT: _NO_VISIT,
        KeyBindOutcome.TOO_MANY_KEYS: _TOO_MANY_KEYS,
    },
    unknown=_UNKNOWN,
)
KEYADD = Refusals[KeyAddOutcome](
    {
        KeyAddOutcome.ANOTHER_ACCOUNT: _ANOTHER_ACCOUNT,
        KeyAddOutcome.NOT_A_KEY: _same(
            f"That is not an OpenSSH public key (paste a line of a .pub file: {_TYPES})."
        ),
        KeyAddOutcome.TOO_MANY_KEYS: _TOO_MANY_KEYS,
    },
    unknown=_UNKNOWN,
)
#: KEYREMOVE's refusal (``key_remove`` answered False).
NO_SUCH_KEY = "Your account has no such key."


def key_added(fingerprint: str) -> str:
    """What a key added is, in words: its fingerprint, as ``ssh-keygen -lf`` shows it."""
    return f"Key {fingerprint} added: it logs you in over ssh."


#: An ssh visitor's password dialog: why it asks for no current password, and a change.
KEY_VISIT_PASSWORD = (
    "Your ssh key logged you in: no current password is needed. With this one you can "
    "also log in from other clients."
)
PASSWORD_SET = "Password set: now you can also log in with this password from other clients."
