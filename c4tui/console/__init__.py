"""The plain console front end: line-by-line play for scripts, screen readers and dumb terminals."""

from c4tui.console.game import ConsoleGame, run_console

__all__ = ["ConsoleGame", "run_console"]
