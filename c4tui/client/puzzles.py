"""The lobby's puzzles as a client asks for them (§8, issue 41), and what came of a try in words.

``fetch_puzzle`` asks for the daily puzzle (or the next near the account's puzzle
rating) and ``report_try`` says which moves the player chose; the server judges them
and keeps the account's puzzle rating, so it follows the player from machine to
machine. A front end plays the puzzle with ``puzzles.attempt`` (the same judge the
server uses) between the two. A server from before §8 hangs up on PUZZLE (an unknown
command): ask only one that serves puzzles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from c4tui.client.link import LobbyLink
from c4tui.engine import Move
from c4tui.net.errors import ProtocolError
from c4tui.protocols.puzzles import (
    NEXT,
    PuzzleOffer,
    PuzzleVerdict,
    moves_field,
    parse_puzzle_answer,
    parse_solved_answer,
)

T = TypeVar("T")


async def fetch_puzzle(link: LobbyLink, following: bool = False) -> PuzzleOffer | None:
    """The daily puzzle, or (``following``) the next near our puzzle rating; None: none to give.

    Raises ProtocolError for an answer that is no puzzle, and what ``LobbyLink.ask`` raises.
    """
    line = f"PUZZLE:{NEXT}" if following else "PUZZLE"
    return await _asked(link, line, parse_puzzle_answer, "the server's puzzle is no puzzle")


async def report_try(
    link: LobbyLink, puzzle_id: str, moves: Sequence[Move]
) -> PuzzleVerdict | None:
    """Tell the server the moves we played (ours only, in order): its verdict; None: no such one.

    Raises ProtocolError for an answer that is no verdict, and what ``LobbyLink.ask`` raises.
    """
    line = f"PUZZLESOLVED:{puzzle_id}:{moves_field(moves)}"
    return await _asked(link, line, parse_solved_answer, "the server's verdict is no verdict")


async def _asked(
    link: LobbyLink, line: str, read: Callable[[Sequence[str]], T | None], unreadable: str
) -> T | None:
    """``line``'s answer as ``read`` reads its fields; None for a status but 0.

    Raises ProtocolError (saying ``unreadable``) when a status 0 carries what ``read`` refuses.
    """
    answer = await link.ask(line)
    if answer.status != 0:
        return None
    value = read(answer.extra)
    if value is None:
        raise ProtocolError(unreadable)
    return value


def verdict_words(verdict: PuzzleVerdict) -> str:
    """What came of a try, said alike by every front end.

    ``Solved! Your puzzle rating: 1617 (+117); streak 1.`` — a retry says it was not rated.
    """
    said = "Solved!" if verdict.solved else "Not solved."
    if not verdict.rated:
        return f"{said} A retry is not rated: your puzzle rating stays {verdict.rating}."
    rating = f"{verdict.rating} ({verdict.change:+d})"
    return f"{said} Your puzzle rating: {rating}; streak {verdict.streak}."
