"""Computer opponents: pure functions of a game state, no I/O, no UI."""

from c4tui.ai.random_player import RandomPlayer

__all__ = ["RandomPlayer"]
