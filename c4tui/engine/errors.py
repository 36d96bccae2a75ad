"""Exceptions the engine raises, each with a message a person can read."""

from __future__ import annotations


class C4Error(Exception):
    """Base class of every error c4tui raises on purpose."""


class IllegalMoveError(C4Error, ValueError):
    """A move that the rules forbid in this position ("column 3 is full")."""


class MoveSyntaxError(C4Error, ValueError):
    """Text that is not a move at all ("banana")."""


class BoardSizeError(C4Error, ValueError):
    """A board dimension outside the allowed range."""


class PositionError(C4Error, ValueError):
    """A position no game can reach: a disc off the board, or one floating above an empty cell."""
