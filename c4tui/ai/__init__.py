"""Computer opponents: pure functions of a game state, no I/O, no UI.

The names below load on first use: the menu lists the levels without loading the
search (and the solver loads only for Perfect and hints). The search itself is
``c4tui.ai.search.search`` (``c4tui.ai.search`` is its module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.lazy import lazy_names

if TYPE_CHECKING:
    from c4tui.ai.levels import AI_LEVELS, AILevel, MovePicker, ai_level
    from c4tui.ai.random_player import RandomPlayer
    from c4tui.ai.search import SearchResult

#: Each name this package offers, loaded from its module on first use.
__getattr__ = lazy_names(
    __name__,
    {
        "AI_LEVELS": "c4tui.ai.levels",
        "AILevel": "c4tui.ai.levels",
        "MovePicker": "c4tui.ai.levels",
        "ai_level": "c4tui.ai.levels",
        "RandomPlayer": "c4tui.ai.random_player",
        "SearchResult": "c4tui.ai.search",
    },
)


__all__ = [
    "AI_LEVELS",
    "AILevel",
    "MovePicker",
    "RandomPlayer",
    "SearchResult",
    "ai_level",
]
