"""The lobby's puzzles (PROTOCOL.md §8, c4tui's own, issue 41): PUZZLE and PUZZLESOLVED.

Part of the lobby codec: ``c4tui.protocols.lobby`` parses these requests with the
others. A client asks for the daily puzzle (``PUZZLE``) or the next one near its
puzzle rating (``PUZZLE:NEXT``); the answer carries the whole puzzle, its solution
too (as lichess sends it: a client can cheat only its own puzzle rating, which nothing
else uses). The client plays it where it likes and says which moves its player chose
(``PUZZLESOLVED``); the server judges them against the proven solution and answers
the account's new puzzle rating. The codec knows only the words: the puzzles, their
judging and their ratings are ``c4tui.puzzles``' and the server's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import Move, MoveKind, format_move
from c4tui.protocols.rooms import BadFormat, ack

#: PUZZLE's argument for the next puzzle near the account's rating (bare: the daily one).
NEXT = "NEXT"
#: PUZZLE's statuses beyond 0: an argument that is not NEXT; no puzzle to give.
PUZZLE_BAD_FORMAT, NO_PUZZLE = 1, 2
#: PUZZLESOLVED's statuses beyond 0: no such puzzle; moves or an id that cannot be read.
NO_SUCH_PUZZLE, SOLVED_BAD_FORMAT = 1, 2
#: PUZZLESOLVED's first answer field, and its second: a first try is rated, a retry not.
SOLVED, FAILED = "solved", "failed"
RATED, RETRY = "rated", "retry"
#: The most moves PUZZLESOLVED may carry: a 7 × 6 board's cells.
MAX_PUZZLE_MOVES = 42
#: A puzzle's id on the wire (the shipped ones are the position's digits).
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DIGITS = re.compile(r"[1-9]{1,42}")
_POSITION = re.compile(r"[1-9]{0,42}")
_STEP = re.compile(r"[dp][1-9]")
_NOTATION = re.compile(r"d([1-9])")
_NUMBER = re.compile(r"[0-9]{1,9}")
_SIGNED = re.compile(r"[+-][0-9]{1,9}")
_WORDS = re.compile(r"[a-z0-9 ]{0,40}")
_GOAL = re.compile(r"[a-z]{1,20}")


@dataclass(frozen=True)
class PuzzleAsk:
    """PUZZLE (the daily puzzle) or, with ``next``, PUZZLE:NEXT."""

    next: bool = False


@dataclass(frozen=True)
class PuzzleSolved:
    """PUZZLESOLVED:<id>:<moves>: the solver side's moves the player played, in order."""

    puzzle_id: str
    moves: tuple[Move, ...]


PuzzleRequest = PuzzleAsk | PuzzleSolved


def parse_puzzle(rest: str) -> PuzzleAsk | BadFormat:
    """PUZZLE:NEXT (the bare PUZZLE is the codec's); any other argument: status 1."""
    return PuzzleAsk(next=True) if rest == NEXT else BadFormat(ack("PUZZLE", PUZZLE_BAD_FORMAT))


def parse_puzzle_solved(rest: str) -> PuzzleSolved | BadFormat:
    """PUZZLESOLVED:<id>:<moves>, the moves as digits (``363``) or notations (``d3,d6,d3``).

    No moves at all (``PUZZLESOLVED:<id>:``) is a try given up: failed.
    """
    puzzle_id, colon, text = rest.partition(":")
    moves = _moves(text)
    if not colon or not _ID.fullmatch(puzzle_id) or moves is None:
        return BadFormat(ack("PUZZLESOLVED", SOLVED_BAD_FORMAT))
    return PuzzleSolved(puzzle_id, moves)


def _moves(text: str) -> tuple[Move, ...] | None:
    """The drops in ``text``: digits or comma-separated notations; None if it is neither."""
    if not text:
        return ()
    if _DIGITS.fullmatch(text):
        return tuple(Move.drop(int(digit) - 1) for digit in text)
    notations = text.split(",")
    found = [_NOTATION.fullmatch(notation) for notation in notations]
    if len(found) > MAX_PUZZLE_MOVES or not all(found):
        return None
    return tuple(Move.drop(int(match[1]) - 1) for match in found if match)


#: Each command's parser, and the command that may come bare.
PARSERS = {"PUZZLE": parse_puzzle, "PUZZLESOLVED": parse_puzzle_solved}
BARE = {"PUZZLE": PuzzleAsk()}


def moves_field(moves: Sequence[Move]) -> str:
    """PUZZLESOLVED's moves as a client sends them: notations, comma-separated."""
    if any(move.kind is not MoveKind.DROP for move in moves):
        raise ValueError("a puzzle is solved with drops only")
    return ",".join(format_move(move) for move in moves)


# ----- what the server sends ----------------------------------------------------------


@dataclass(frozen=True)
class PuzzleOffer:
    """PUZZLE's answer: the puzzle in the export's shape, its rating and the account's.

    ``moves`` the position's column digits from the empty board, ``solution`` the
    notations (the solver side's moves and the best defences, solver side first).
    """

    puzzle_id: str
    moves: str
    goal: str
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    rating: int
    player_rating: int


@dataclass(frozen=True)
class PuzzleVerdict:
    """PUZZLESOLVED's answer: solved or not, rated or not, the new rating, the change, streak."""

    solved: bool
    rated: bool
    rating: int
    change: int
    streak: int


def puzzle_answer(offer: PuzzleOffer) -> str:
    """PUZZLE:ACKSTATUS:0:<id>:<moves>:<goal>:<solution>:<themes>:<rating>:<your rating>."""
    return ack(
        "PUZZLE",
        0,
        offer.puzzle_id,
        offer.moves,
        offer.goal,
        ",".join(offer.solution),
        ",".join(offer.themes),
        str(offer.rating),
        str(offer.player_rating),
    )


def solved_answer(verdict: PuzzleVerdict) -> str:
    """PUZZLESOLVED:ACKSTATUS:0:<solved|failed>:<rated|retry>:<rating>:<change>:<streak>."""
    return ack(
        "PUZZLESOLVED",
        0,
        SOLVED if verdict.solved else FAILED,
        RATED if verdict.rated else RETRY,
        str(verdict.rating),
        f"{verdict.change:+d}",
        str(verdict.streak),
    )


# ----- what clients receive -----------------------------------------------------------


def parse_puzzle_answer(extra: Sequence[str]) -> PuzzleOffer | None:
    """PUZZLE:ACKSTATUS:0's seven fields; None if they make no puzzle."""
    if len(extra) != 7 or not _ID.fullmatch(extra[0]) or not _POSITION.fullmatch(extra[1]):
        return None
    puzzle_id, moves, goal, solution, themes, rating, player_rating = extra
    steps = tuple(solution.split(",")) if solution else ()
    names = tuple(themes.split(",")) if themes else ()
    if not steps or not all(_STEP.fullmatch(step) for step in steps):
        return None
    if not _GOAL.fullmatch(goal) or not all(_WORDS.fullmatch(name) for name in names):
        return None
    if not (_NUMBER.fullmatch(rating) and _NUMBER.fullmatch(player_rating)):
        return None
    return PuzzleOffer(puzzle_id, moves, goal, steps, names, int(rating), int(player_rating))


def parse_solved_answer(extra: Sequence[str]) -> PuzzleVerdict | None:
    """PUZZLESOLVED:ACKSTATUS:0's five fields; None if they make no verdict."""
    if len(extra) != 5 or extra[0] not in (SOLVED, FAILED) or extra[1] not in (RATED, RETRY):
        return None
    if not (_NUMBER.fullmatch(extra[2]) and _SIGNED.fullmatch(extra[3])):
        return None
    if not _NUMBER.fullmatch(extra[4]):
        return None
    return PuzzleVerdict(
        extra[0] == SOLVED, extra[1] == RATED, int(extra[2]), int(extra[3]), int(extra[4])
    )
