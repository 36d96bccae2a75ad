"""What the server answers about puzzles (§8, issue 41): the daily one, the next one, a try.

``answers.answer`` hands a logged-in member's PUZZLE, PUZZLE:NEXT and PUZZLESOLVED
here. The puzzles are the shipped set (``puzzles.collection``) and those found in the
lobby's finished games (``server.puzzle_harvest``, kept in the store); a try is judged
by ``puzzles.attempt.Attempt`` against the proven solution, the one judge the app and
the console use, and rated in the store by ``PuzzleProgress`` (only a first try counts).
The day is UTC's, so every node and every player share the daily puzzle.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, TypeVar

from c4tui.engine import Move, MoveKind
from c4tui.lobby import Member
from c4tui.protocols import puzzles as wire
from c4tui.protocols.rooms import ack
from c4tui.puzzles.attempt import Attempt, Verdict
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, puzzle_by_id, shipped_puzzles
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService

log = logging.getLogger("c4tui.server")

#: The requests answered here.
PUZZLE_REQUESTS = (wire.PuzzleAsk, wire.PuzzleSolved)
S = TypeVar("S")
M = TypeVar("M")


async def answer_puzzle(
    service: LobbyService[S, M],
    connection: LobbyConnection,
    member: Member,
    request: wire.PuzzleRequest,
) -> None:
    """Answer one puzzle request from the store."""
    if isinstance(request, wire.PuzzleAsk):
        connection.offer(await _offer(service, member, request.next))
    else:
        connection.offer(await _tried(service, member, request))


async def _offer(service: LobbyService[S, M], member: Member, following: bool) -> str:
    """PUZZLE's answer: the daily puzzle, or (``following``) the next near the account's rating."""
    store, shipped = service.store, _shipped()
    if not shipped:
        return ack("PUZZLE", wire.NO_PUZZLE)
    daily = daily_puzzle(shipped, today())
    progress = await store.puzzle_progress(member.name, None if following else daily.id)
    if progress is None:  # the account was deleted meanwhile
        return ack("PUZZLE", wire.NO_PUZZLE)
    puzzle = next_puzzle([*shipped, *await store.found_puzzles()], progress) if following else daily
    return wire.puzzle_answer(offer_of(puzzle, progress))


def offer_of(puzzle: Puzzle, progress: PuzzleProgress) -> wire.PuzzleOffer:
    """The puzzle as PUZZLE sends it, its rating as this store has it, the account's."""
    return wire.PuzzleOffer(
        puzzle.id,
        puzzle.moves,
        puzzle.goal,
        puzzle.solution,
        puzzle.themes,
        round(progress.puzzle_rating(puzzle).rating),
        round(progress.rating.rating),
    )


async def _tried(service: LobbyService[S, M], member: Member, request: wire.PuzzleSolved) -> str:
    """PUZZLESOLVED's answer: the try judged, rated (a first try) and kept."""
    puzzle = puzzle_by_id(_shipped(), request.puzzle_id)
    if puzzle is None:
        puzzle = await service.store.found_puzzle(request.puzzle_id)
    if puzzle is None:
        return ack("PUZZLESOLVED", wire.NO_SUCH_PUZZLE)
    solved = solved_by(puzzle, request.moves)
    verdict = await service.store.puzzle_tried(member.name, puzzle, solved, today().isoformat())
    if verdict is None:  # the account was deleted meanwhile
        return ack("PUZZLESOLVED", wire.NO_SUCH_PUZZLE)
    log.info("%s %s puzzle %s", member.name, "solved" if solved else "failed", puzzle.id)
    return wire.solved_answer(verdict)


def solved_by(puzzle: Puzzle, moves: Sequence[Move]) -> bool:
    """Whether ``moves`` (the solver side's, in order) solve ``puzzle``, judged by ``Attempt``.

    Every move must be right and the solution played out: too few moves, a wrong one,
    one past the end, a pop or a drop the board refuses is a failed try.
    """
    attempt = Attempt(puzzle)
    for move in moves:
        if attempt.finished or move.kind is not MoveKind.DROP:
            return False
        try:
            verdict, _ = attempt.play(move.column)
        except ValueError:  # a full or missing column: not the solution's move
            return False
        if verdict is Verdict.WRONG:
            return False
    return attempt.solved


def today() -> date:
    """The day as the server counts it: UTC's, the same on every node."""
    return datetime.now(UTC).date()


def _shipped() -> tuple[Puzzle, ...]:
    """The shipped set; none if it cannot be read (the server serves on, PUZZLE says :2)."""
    try:
        return shipped_puzzles()
    except (OSError, ValueError) as error:
        log.error("the shipped puzzles cannot be read: %s", error)
        return ()
