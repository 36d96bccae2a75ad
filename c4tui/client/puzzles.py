"""The lobby's puzzles as a client asks for them (§8, issue 41), and what came of a try in words.

``fetch_puzzle`` asks for the daily puzzle (or the next near the account's puzzle
rating) and ``report_try`` says which moves the player chose; the server judges them
and keeps the account's puzzle rating, so it follows the player from machine to
machine. A front end plays the puzzle with ``puzzles.attempt`` (the same judge the
server uses) between the two. A server from before §8 hangs up on PUZZLE (an unknown
command): ask only one that serves puzzles.
"""

from __future__ import annotations

from collections.abc import Sequence

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


async def fetch_puzzle(link: LobbyLink, following: bool = False) -> PuzzleOffer | None:
    """The daily puzzle, or (``following``) the next near our puzzle rating; None: none to give.

    Raises ProtocolError for an answer that is no puzzle, and what ``LobbyLink.ask`` raises.
    """
    answer = await link.ask(f"PUZZLE:{NEXT}" if following else "PUZZLE")
    if answer.status != 0:
        return None
    offer = parse_puzzle_answer(answer.extra)
    if offer is None:
        raise ProtocolError("the server's puzzle is no puzzle")
    return offer


async def report_try(
    link: LobbyLink, puzzle_id: str, moves: Sequence[Move]
) -> PuzzleVerdict | None:
    """Tell the server the moves we played (ours only, in order): its verdict; None: no such one.

    Raises ProtocolError for an answer that is no verdict, and what ``LobbyLink.ask`` raises.
    """
    answer = await link.ask(f"PUZZLESOLVED:{puzzle_id}:{moves_field(moves)}")
    if answer.status != 0:
        return None
    verdict = parse_solved_answer(answer.extra)
    if verdict is None:
        raise ProtocolError("the server's verdict on a puzzle is no verdict")
    return verdict


def verdict_words(verdict: PuzzleVerdict) -> str:
    """What came of a try, said alike by every front end.

    ``Solved! Your puzzle rating: 1617 (+117); streak 1.`` — a retry says it was not rated.
    """
    said = "Solved!" if verdict.solved else "Not solved."
    if not verdict.rated:
        return f"{said} A retry is not rated: your puzzle rating stays {verdict.rating}."
    rating = f"{verdict.rating} ({verdict.change:+d})"
    return f"{said} Your puzzle rating: {rating}; streak {verdict.streak}."
