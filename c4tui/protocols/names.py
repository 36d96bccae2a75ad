"""Who may be called what: the protocols' rules for usernames, passwords and room names.

Light on purpose (only ``re``): the menu's forms, the command line's ``--user`` and the
console check names against these before any codec loads, and the codecs enforce the
same rules from here, so a form can never accept what the server refuses.
"""

from __future__ import annotations

import re

from c4tui.protocols.limits import MAX_USERNAME

#: I32CFSP's usernames (the ICS 32 handout's server).
USERNAME_RULE = f"1-{MAX_USERNAME} printable ASCII characters without spaces"
_USERNAME = re.compile(rf"[!-~]{{1,{MAX_USERNAME}}}")  # printable ASCII, no whitespace

#: The room protocols' (the lobby's and INFO1112's tic-tac-toe) names and passwords, in
#: the words every message and document uses (ASCII, so any terminal can show them).
#: What every guest's name begins with (no account may be registered with it: §7's rule).
#: Here, not with the keys' words, so the lobby's codec loads without hashing (the menu's start).
GUEST_PREFIX = "guest-"
USER_RULE = "1-20 ASCII letters, digits, - or _"
PASSWORD_RULE = "1-128 printable ASCII characters without spaces"
ROOM_RULE = "1-20 ASCII letters, digits, spaces, - or _"
_USER = re.compile(r"[A-Za-z0-9_-]{1,20}")
_PASSWORD = re.compile(r"[!-~]{1,128}")
_ROOM = re.compile(r"[A-Za-z0-9 _-]{1,20}")


def valid_username(name: str) -> bool:
    """1-32 printable characters without whitespace, as I32CFSP requires."""
    return _USERNAME.fullmatch(name) is not None


def parse_username(text: str) -> str:
    """``text`` if it is a valid I32CFSP username; ValueError (saying the rule) if not."""
    if not text:
        raise ValueError("required")
    if not valid_username(text):
        raise ValueError(USERNAME_RULE)
    return text


def valid_user(name: str) -> bool:
    """A room protocol's username by its rules."""
    return _USER.fullmatch(name) is not None


def valid_password(password: str) -> bool:
    """A room protocol's password by its rules."""
    return _PASSWORD.fullmatch(password) is not None


def valid_room(name: str) -> bool:
    """A room name by the room protocols' rules."""
    return _ROOM.fullmatch(name) is not None
