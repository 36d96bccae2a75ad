"""Words a person types that go to the wire, checked against the protocol's rules first.

A name or a chat line the lobby's codec cannot carry (``zoë``, ``a:b``, 300
characters) would raise as it is framed, or break the protocol; each is refused
here instead, in the rule's own words (``protocols.names``), and nothing is sent.
"""

from __future__ import annotations

from c4tui.client import words
from c4tui.client.outcomes import CreateOutcome
from c4tui.client.words import Voice
from c4tui.console.lines import printable
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import USER_RULE, valid_room, valid_user

#: Whether this c4tui's lobby wire carries chat beyond ASCII (spec §5.6 adds it).
_UNICODE_CHAT = wire.valid_chat("é")
_CHAT_RULE = f"1-{wire.MAX_CHAT} printable characters{'' if _UNICODE_CHAT else ' (ASCII)'}"


def room_refused(name: str) -> str | None:
    """Why ``name`` cannot be a room's (said by the room rule); None when it can."""
    return None if valid_room(name) else words.CREATE.said(CreateOutcome.BAD_NAME, Voice.CONSOLE)


def user_refused(name: str) -> str | None:
    """Why nobody can be called ``name`` (said by the user rule); None when somebody can."""
    return (
        None
        if valid_user(name)
        else f"No such user: {printable(name)} (a user name is {USER_RULE})."
    )


def chat_refused(text: str) -> str | None:
    """Why ``text`` cannot go as a chat line; None when it can."""
    return None if wire.valid_chat(text) else f"Not sent: a chat line is {_CHAT_RULE}."
