"""The engine protocol (spec §6): a program that chooses moves, over standard input and output.

One command per line from the caller (``c4e``, ``newgame``, ``position``, ``go``,
``isready``, ``quit``), one answer per line from the engine (``id``, ``c4eok``,
``bestmove``, ``readyok``); any other line an engine prints (``info depth 12``) is a
remark the caller ignores. Both directions are parsed and formatted here, so the
caller (``c4tui.outside``) and an engine written with c4tui speak the same words.
Pure, like every codec: lines in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import Move, MoveKind, Rules, format_move
from c4tui.engine.size import MAX_SIZE, MIN_SIZE
from c4tui.net.errors import ProtocolError
from c4tui.net.wire import MAX_LINE_BYTES
from c4tui.protocols.terms import game_fields, parse_game

#: The longest line either side may send (a ``position`` of a full 20 × 20 game fits).
MAX_ENGINE_LINE = MAX_LINE_BYTES
#: A move as the protocol writes it: ``d4`` drops in column 4, ``p3`` pops column 3.
_MOVE = re.compile(r"([dp])([1-9][0-9]?)")
_MILLISECONDS = re.compile(r"[0-9]{1,9}")

# ----- the caller's commands -------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """``c4e``: are you an engine? (answered by ``id`` lines, then ``c4eok``)."""


@dataclass(frozen=True)
class NewGame:
    """``newgame <cols> <rows> <classic|popout>``: the next positions are of this game."""

    columns: int
    rows: int
    rules: Rules


@dataclass(frozen=True)
class Position:
    """``position <moves>``: the game so far from the empty board (empty: the start)."""

    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Go:
    """``go [movetime <ms>]``: choose a move (within ``movetime_ms`` when given)."""

    movetime_ms: int | None = None


@dataclass(frozen=True)
class IsReady:
    """``isready``: answer ``readyok`` once done with what came before."""


@dataclass(frozen=True)
class Quit:
    """``quit``: exit."""


EngineCommand = Hello | NewGame | Position | Go | IsReady | Quit

# ----- the engine's answers --------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    """``id name <name>`` or ``id author <text>``: who the engine is (optional)."""

    field: str
    text: str


@dataclass(frozen=True)
class HelloDone:
    """``c4eok``: the engine speaks the protocol and is ready for a game."""


@dataclass(frozen=True)
class BestMove:
    """``bestmove <move>``: the engine's move."""

    move: Move


@dataclass(frozen=True)
class ReadyOk:
    """``readyok``: the answer to ``isready``."""


@dataclass(frozen=True)
class Remark:
    """Any other line (``info depth 12 score 3``): the caller ignores it."""

    line: str


EngineAnswer = Identity | HelloDone | BestMove | ReadyOk | Remark


def parse_protocol_move(text: str) -> Move | None:
    """``d4`` or ``p3`` as a Move; None for anything else (``4``, ``D4``, ``d0``)."""
    found = _MOVE.fullmatch(text)
    if found is None:
        return None
    kind = MoveKind.DROP if found[1] == "d" else MoveKind.POP
    return Move(kind, int(found[2]) - 1)


def format_command(command: EngineCommand) -> str:  # noqa: PLR0911 (one return per command)
    """The line (without its end) that sends ``command``."""
    match command:
        case Hello():
            return "c4e"
        case NewGame(columns, rows, rules):
            return " ".join(["newgame", *game_fields((columns, rows, rules))])
        case Position(moves):
            return " ".join(["position", *(format_move(move) for move in moves)])
        case Go(None):
            return "go"
        case Go(movetime_ms):
            return f"go movetime {movetime_ms}"
        case IsReady():
            return "isready"
        case Quit():
            return "quit"


def parse_command(line: str) -> EngineCommand:  # noqa: PLR0911 (one return per command)
    """The command on ``line`` (an engine reads these). Raises ProtocolError, quoting it."""
    words = _words(line)
    match words:
        case ["c4e"]:
            return Hello()
        case ["newgame", *fields]:
            game = parse_game(fields)
            if game is None:
                sizes = f"sizes {MIN_SIZE} to {MAX_SIZE}"
                raise _broken(f"a game (newgame <cols> <rows> <classic|popout>, {sizes})", line)
            return NewGame(*game)
        case ["position", *moves]:
            return Position(_moves(moves, line))
        case ["go"]:
            return Go()
        case ["go", "movetime", digits] if _MILLISECONDS.fullmatch(digits):
            return Go(int(digits))
        case ["go", *_]:
            raise _broken("go, or go movetime <milliseconds> (a whole number)", line)
        case ["isready"]:
            return IsReady()
        case ["quit"]:
            return Quit()
    raise _broken("a command", line)


def format_answer(answer: EngineAnswer) -> str:
    """The line (without its end) an engine prints for ``answer``."""
    match answer:
        case Identity(field, text):
            return f"id {field} {text}"
        case HelloDone():
            return "c4eok"
        case BestMove(move):
            return f"bestmove {format_move(move)}"
        case ReadyOk():
            return "readyok"
        case Remark(line):
            return line


def parse_answer(line: str) -> EngineAnswer:
    """The answer on ``line`` (the caller reads these); other lines are remarks.

    Raises ProtocolError for a ``bestmove`` without one move in the notation: the
    engine meant to answer and did not say what.
    """
    words = _words(line)
    match words:
        case ["c4eok"]:
            return HelloDone()
        case ["readyok"]:
            return ReadyOk()
        case ["id", ("name" | "author") as field, *text] if text:
            return Identity(field, " ".join(text))
        case ["bestmove", *rest]:
            move = parse_protocol_move(rest[0]) if len(rest) == 1 else None
            if move is None:
                raise _broken("a move (bestmove d<column> or p<column>)", line)
            return BestMove(move)
    return Remark(line.rstrip("\r\n"))


def _words(line: str) -> list[str]:
    if len(line) > MAX_ENGINE_LINE:
        raise ProtocolError(f"a line of {len(line)} characters (at most {MAX_ENGINE_LINE})")
    return line.split()


def _moves(words: Sequence[str], line: str) -> tuple[Move, ...]:
    moves = tuple(parse_protocol_move(word) for word in words)
    if any(move is None for move in moves):
        raise _broken("moves like d4 or p3", line)
    return tuple(move for move in moves if move is not None)


def _broken(expected: str, line: str) -> ProtocolError:
    shown = line.strip()
    if len(shown) > 60:
        shown = shown[:60] + "…"
    return ProtocolError(f"expected {expected}, got {shown!r}")
