"""The game-record format: a few ``Key: value`` lines, a blank line, then the moves.

A record reads like this (``#`` starts a comment; keys are case-insensitive)::

    # c4tui game record
    Game: Connect Four
    Rules: classic
    Size: 7x6
    Date: 2026-11-22 10:31
    Red: You
    Yellow: Computer (Hard)
    Opponent: computer level=hard
    You: red
    Result: red wins (four in a row)
    Digits: 4453

    1. d4 d4
    2. d5 d3

    # The solver's review: the best outcome each move's player could force, before → after
    # Red kept the best outcome with 1 of 2 moves (50 %)
    # Yellow kept the best outcome with 2 of 2 moves (100 %)
    # move 3 (Red, d5): win → loss

Only ``Rules`` and ``Size`` are needed to read the moves; the moves are the app's
notation (``d4`` drops in column 4, ``p4`` pops from it; a bare ``4`` drops), in
any layout, move numbers (``12.``) ignored. Every move is checked with the engine
when the record is read. ``Opponent`` (a registry key and its options) and ``You``
let a game be continued against the same opponent (a value with spaces is quoted as a
shell would: ``Opponent: program program='engine:python3 deep4.py' seconds=1``);
``Digits`` repeats a classic game in the solvers' notation when it can be written that way.

Annotations (a tournament's review of the moves) are ``#`` lines after the moves:
older readers skip them as comments, and the moves above them stay a plain
scoresheet, two to a line, that a person or another program reads as before. Every
whole ``#`` line after the headers reads back as an annotation, in order.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from enum import Enum

from c4tui.engine import (
    C4Error,
    GameState,
    Move,
    MoveKind,
    Player,
    Rules,
    format_move,
    parse_move,
)
from c4tui.engine.sequence import MAX_SEQUENCE_COLUMNS, play_sequence
from c4tui.engine.size import check_size
from c4tui.numbers import ascii_digits

#: The file name ending of saved games.
RECORD_SUFFIX = ".c4g"

_RULES_WORDS = {"classic": Rules.CLASSIC, "popout": Rules.POPOUT, "pop out": Rules.POPOUT}
_SIZE_PATTERN = re.compile(r"\s*([0-9]{1,2})\s*[x×]\s*([0-9]{1,2})\s*", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"[0-9]+\.")
#: Longest record read: far more than any game (a 20 x 20 Pop Out game is cut at 4,000 moves).
MAX_RECORD_CHARS = 200_000


class RecordError(C4Error):
    """A record that cannot be read; the message names the line."""


class Result(Enum):
    """How a recorded game stands."""

    RED = "red wins"
    YELLOW = "yellow wins"
    DRAW = "draw"
    UNFINISHED = "unfinished"

    @classmethod
    def for_winner(cls, winner: Player | None) -> Result:
        """The result in which ``winner`` won (None: a draw)."""
        if winner is None:
            return cls.DRAW
        return cls.RED if winner is Player.RED else cls.YELLOW


@dataclass(frozen=True)
class GameRecord:
    """One game as saved: the board, who played, how it went."""

    columns: int
    rows: int
    rules: Rules
    moves: tuple[Move, ...] = ()
    red: str = "Red"
    yellow: str = "Yellow"
    date: str = ""
    result: Result = Result.UNFINISHED
    #: Why the game ended, in words ("four in a row", "YELLOW left").
    reason: str = ""
    #: The opponent's registry key and option values, to play on against the same one.
    opponent: str = ""
    options: dict[str, str] = field(default_factory=dict)
    #: The colour the person here played (None: two people, or not known).
    person: Player | None = None
    #: Annotations, one line each, written as ``#`` lines after the moves.
    comments: tuple[str, ...] = ()

    def positions(self) -> tuple[GameState, ...]:
        """Every position of the game, the empty board first (the moves were checked)."""
        state = GameState.new(self.columns, self.rows, self.rules)
        states = [state]
        for move in self.moves:
            state = state.play(move)
            states.append(state)
        return tuple(states)

    def final_state(self) -> GameState:
        """The position after the last move."""
        return self.positions()[-1]


# ----- writing -------------------------------------------------------------------------


def format_record(record: GameRecord) -> str:
    """The text of ``record`` (it reads back equal with ``parse_record``)."""
    rules = "popout" if record.rules is Rules.POPOUT else "classic"
    result = record.result.value + (f" ({record.reason})" if record.reason else "")
    headers = [
        ("Game", "Connect Four"),
        ("Rules", rules),
        ("Size", f"{record.columns}x{record.rows}"),
        ("Date", record.date),
        ("Red", record.red),
        ("Yellow", record.yellow),
        ("Opponent", _opponent_text(record.opponent, record.options)),
        ("You", record.person.name.lower() if record.person else ""),
        ("Result", result),
        ("Digits", moves_to_digits(record.columns, record.rules, record.moves) or ""),
    ]
    lines = ["# c4tui game record"]
    lines += [f"{key}: {_one_line(value)}" for key, value in headers if value]
    lines.append("")
    pairs = [record.moves[index : index + 2] for index in range(0, len(record.moves), 2)]
    lines += [
        f"{number}. {' '.join(format_move(move) for move in pair)}"
        for number, pair in enumerate(pairs, start=1)
    ]
    if record.comments:
        lines.append("")
        lines += [f"# {_one_line(comment)}".rstrip() for comment in record.comments]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """A header value cannot hold a line break (a name typed by someone else might)."""
    return " ".join(text.split())


def _opponent_text(key: str, options: dict[str, str]) -> str:
    """``computer level=hard``: values quoted when they need it (a program's command)."""
    words = (f"{name}={shlex.quote(value)}" for name, value in options.items())
    return " ".join([key, *words]) if key else ""


def moves_to_digits(columns: int, rules: Rules, moves: tuple[Move, ...]) -> str | None:
    """The game as the solvers write it (``4453``: 1-based columns, drops only), or None.

    Only classic games of at most nine columns, all drops, can be written this way.
    """
    if rules is not Rules.CLASSIC or columns > MAX_SEQUENCE_COLUMNS:
        return None
    if any(move.kind is not MoveKind.DROP for move in moves):
        return None
    return "".join(str(move.column + 1) for move in moves)


# ----- reading -------------------------------------------------------------------------


def record_from_digits(text: str, columns: int = 7, rows: int = 6) -> GameRecord:
    """A classic game from a solver's digit string; RecordError says what is wrong."""
    digits = "".join(text.split())
    try:
        state = play_sequence(digits, columns, rows)
    except C4Error as error:
        raise RecordError(f"not a position: {error}") from None
    moves = tuple(Move.drop(int(digit) - 1) for digit in digits)
    result = Result.for_winner(state.winner) if state.is_over else Result.UNFINISHED
    return GameRecord(columns, rows, Rules.CLASSIC, moves, result=result)


def parse_record(text: str) -> GameRecord:
    """Read a record (or a bare digit string); every move is checked with the engine."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"too long for a game record ({len(text):,} characters)")
    stripped = text.strip()
    if ascii_digits("".join(stripped.split())):
        return record_from_digits(stripped)
    headers, move_lines, comments = _split(text)
    columns, rows = _size(headers)
    rules = _rules(headers)
    moves = _moves(move_lines, GameState.new(columns, rows, rules))
    opponent, options = _opponent(headers)
    result, reason = _result(headers)
    return GameRecord(
        columns,
        rows,
        rules,
        moves,
        red=headers.get("red", (0, "Red"))[1],
        yellow=headers.get("yellow", (0, "Yellow"))[1],
        date=headers.get("date", (0, ""))[1],
        result=result,
        reason=reason,
        opponent=opponent,
        options=options,
        person=_person(headers),
        comments=comments,
    )


Headers = dict[str, tuple[int, str]]  # key → (line number, value)


def _split(text: str) -> tuple[Headers, list[tuple[int, str]], tuple[str, ...]]:
    """The header lines (up to the first blank line), the numbered move lines, the annotations.

    An annotation is a whole ``#`` line after the headers, kept without its ``#``.
    """
    headers: Headers = {}
    moves: list[tuple[int, str]] = []
    comments: list[str] = []
    in_headers = True
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            in_headers = in_headers and not headers
            if not in_headers and raw.strip():
                comments.append(_one_line(raw.strip().removeprefix("#")))
            continue
        if in_headers and ":" in line:
            key, value = line.split(":", 1)
            value = " ".join(value.split())  # as format_record writes it: one line, single spaces
            if value:  # an empty value is as good as none (format_record leaves it out)
                headers[key.strip().lower()] = (number, value)
        else:
            in_headers = False
            moves.append((number, line))
    return headers, moves, tuple(comments)


def _size(headers: Headers) -> tuple[int, int]:
    if "size" not in headers:
        raise RecordError("the record has no Size line (like Size: 7x6)")
    number, value = headers["size"]
    match = _SIZE_PATTERN.fullmatch(value)
    if match is None:
        raise RecordError(f"line {number}: the size must read like 7x6, not {value!r}")
    columns, rows = int(match[1]), int(match[2])
    try:
        check_size(columns, rows)
    except C4Error as error:
        raise RecordError(f"line {number}: {error}") from None
    return columns, rows


def _rules(headers: Headers) -> Rules:
    number, value = headers.get("rules", (0, "classic"))
    try:
        return _RULES_WORDS[value.lower()]
    except KeyError:
        problem = f"the rules are classic or popout, not {value!r}"
        raise RecordError(f"line {number}: {problem}") from None


def _moves(lines: list[tuple[int, str]], state: GameState) -> tuple[Move, ...]:
    moves: list[Move] = []
    for number, line in lines:
        for word in line.split():
            if _MOVE_NUMBER.fullmatch(word):
                continue
            try:
                move = parse_move(word)
            except C4Error as error:
                raise RecordError(f"line {number}: {error}") from None
            reason = "the game was already over" if state.is_over else state.refusal(move)
            if reason is not None:
                shown = format_move(move)
                raise RecordError(f"line {number}: move {len(moves) + 1} ({shown}): {reason}")
            state = state.play(move)
            moves.append(move)
    return tuple(moves)


def _opponent(headers: Headers) -> tuple[str, dict[str, str]]:
    number, value = headers.get("opponent", (0, ""))
    try:
        words = shlex.split(value)
    except ValueError:
        raise RecordError(f"line {number}: the opponent has an unclosed quote") from None
    if not words:
        return "", {}
    options: dict[str, str] = {}
    for word in words[1:]:
        name, equals, option = word.partition("=")
        if not equals or not name:
            raise RecordError(f"line {number}: an option reads name=value, not {word!r}")
        options[name] = option
    return words[0], options


def _result(headers: Headers) -> tuple[Result, str]:
    number, value = headers.get("result", (0, Result.UNFINISHED.value))
    for result in Result:
        if value.lower().startswith(result.value):
            reason = value[len(result.value) :].strip()
            return result, reason.removeprefix("(").removesuffix(")")
    words = ", ".join(result.value for result in Result)
    raise RecordError(f"line {number}: the result is one of {words}, not {value!r}")


def _person(headers: Headers) -> Player | None:
    number, value = headers.get("you", (0, ""))
    if not value:
        return None
    try:
        return Player[value.upper()]
    except KeyError:
        raise RecordError(f"line {number}: You: is red or yellow, not {value!r}") from None
