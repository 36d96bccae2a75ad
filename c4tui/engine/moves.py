"""Moves and the one move notation used everywhere (``d3`` drops, ``p3`` pops, 1-based)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from c4tui.engine.errors import MoveSyntaxError


class MoveKind(Enum):
    """Whether a move drops a disc in or pops one out."""

    DROP = "d"
    POP = "p"


@dataclass(frozen=True, slots=True)
class Move:
    """One move; ``column`` is 0-based (people and wires see it 1-based)."""

    kind: MoveKind
    column: int

    @classmethod
    def drop(cls, column: int) -> Move:
        """A drop into 0-based ``column``."""
        return cls(MoveKind.DROP, column)

    @classmethod
    def pop(cls, column: int) -> Move:
        """A pop from 0-based ``column``."""
        return cls(MoveKind.POP, column)

    def __str__(self) -> str:
        return format_move(self)


# "3", "d3", "d 3", "drop 3", "P 12", "pop12": the kind word is optional and means drop.
_MOVE_PATTERN = re.compile(r"\s*(?:(d|drop|p|pop)\s*)?([0-9]{1,9})\s*", re.IGNORECASE | re.ASCII)

_KIND_BY_WORD = {"d": MoveKind.DROP, "drop": MoveKind.DROP, "p": MoveKind.POP, "pop": MoveKind.POP}


def parse_move(text: str) -> Move:
    """Read a move written as ``3``, ``d3``, ``d 3``, ``drop 3``, ``p3`` or ``pop 3``.

    Columns in the text are 1-based. Raises MoveSyntaxError for anything else;
    whether the column exists is the engine's call, not the parser's.
    """
    if not text.strip():
        raise MoveSyntaxError("no move was entered")
    match = _MOVE_PATTERN.fullmatch(text)
    if match is None:
        shown = text.strip()
        if len(shown) > 20:
            shown = shown[:20] + "…"
        raise MoveSyntaxError(f"{shown!r} is not a move")
    word, digits = match.groups()
    kind = _KIND_BY_WORD[word.lower()] if word else MoveKind.DROP
    return Move(kind, int(digits) - 1)


def format_move(move: Move) -> str:
    """The short notation of ``move``: ``d4`` or ``p4`` (1-based column)."""
    return f"{move.kind.value}{move.column + 1}"


def move_number(ply: int) -> int:
    """The number the move list gives the ``ply``-th move (1-based): a pair a number.

    Red's move and Yellow's answer share it (``10. d1 d3``), as in chess; every front end
    counts moves this way, so "move 10" means the same line of the list everywhere.
    """
    return (ply + 1) // 2


def describe_move(move: Move) -> str:
    """The move in words, for people: ``drop in column 4``."""
    if move.kind is MoveKind.DROP:
        return f"drop in column {move.column + 1}"
    return f"pop from column {move.column + 1}"
