"""Computer opponents: pure functions of a game state, no I/O, no UI."""

from c4tui.ai.levels import AI_LEVELS, AILevel, MovePicker, ai_level
from c4tui.ai.random_player import RandomPlayer
from c4tui.ai.search import SearchResult, search

__all__ = [
    "AI_LEVELS",
    "AILevel",
    "MovePicker",
    "RandomPlayer",
    "SearchResult",
    "ai_level",
    "search",
]
