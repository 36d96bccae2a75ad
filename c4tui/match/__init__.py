"""The adapter between a game and whoever plays it: the match controller and its backends.

Pure Python (asyncio-friendly but no Textual, no sockets here): the UI drives it,
and every kind of opponent — a person at this keyboard, an AI, later a network
server — is a Backend.
"""

from c4tui.match.backends import AIBackend, Backend, HumanBackend
from c4tui.match.controller import MatchController
from c4tui.match.settings import AI_LEVELS, AILevel, MatchSettings, Mode

__all__ = [
    "AI_LEVELS",
    "AIBackend",
    "AILevel",
    "Backend",
    "HumanBackend",
    "MatchController",
    "MatchSettings",
    "Mode",
]
