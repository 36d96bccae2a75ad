"""What a chat line may hold (spec/protocols.md §4, §5.6), for the codec and for clients."""

from __future__ import annotations

import re

#: The most characters a chat line holds.
MAX_CHAT = 200
_CHAT = re.compile(rf"[ -~]{{1,{MAX_CHAT}}}")


def valid_chat(text: str) -> bool:
    """A chat line by the protocol's rules (1-200 printable characters)."""
    return _CHAT.fullmatch(text) is not None
