"""What a chat line may hold (spec/protocols.md §4, §5.6), for the codec and for clients.

Any printable Unicode, spaces too, up to ``MAX_CHAT`` characters: no control or
format characters, no line or paragraph separators, nothing private or unassigned.
So a chat line can never carry a terminal's escape sequence (ESC is a control
character) nor hide text (a bidirectional override is a format character); a
client refuses to show a line a server sent that breaks the rule, and any other line
with anything but printable ASCII (``fit_to_show``).
"""

from __future__ import annotations

import unicodedata

from c4tui.protocols.names import valid_user

#: The most characters (not bytes) a chat line holds.
MAX_CHAT = 200
#: Unicode's general categories a chat line may not hold: control, format, line and
#: paragraph separators, private use, unassigned, surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"})


def valid_chat(text: str) -> bool:
    """A chat line by the protocol's rules (1-200 printable characters, any script)."""
    return 0 < len(text) <= MAX_CHAT and all(
        unicodedata.category(character) not in REFUSED_CATEGORIES for character in text
    )


def fit_to_show(line: str) -> bool:
    """True if a server's ``line`` is printable ASCII, so a client may read it field by field.

    Every field is printable ASCII (§5.6) but a chat's text (and a report's, §7): a line with
    more is read only as one of those, whose parsers check the text (``chat_parts``).
    """
    return line.isascii() and line.isprintable()


def chat_parts(line: str) -> tuple[str, str] | None:
    """The user and text of a server's ``CHAT:<user>:<text>``; None unless both are by the rules.

    A client shows nothing else: a hostile server's control characters never reach a terminal.
    """
    _, user, text = [*line.split(":", 2), "", ""][:3]
    return (user, text) if valid_user(user) and valid_chat(text) else None
