"""Columns, the falling-jewels game of the course handouts: a pure engine and its test shell."""

from c4tui.columns.game import COLOURS, ColumnsError, Faller, Field

__all__ = ["COLOURS", "ColumnsError", "Faller", "Field"]
