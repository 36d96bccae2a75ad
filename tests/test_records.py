"""Game records: the text format reads back what it wrote, refuses bad records by line,
and the solvers' digit strings go both ways."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.records import (
    GameRecord,
    RecordError,
    Result,
    format_record,
    moves_to_digits,
    parse_record,
    record_from_digits,
)
from c4tui.records.store import (
    keep_unfinished,
    read_record,
    save_game,
    saved_games,
    unfinished_game,
    unfinished_game_path,
)


def random_game(seed: int, columns: int, rows: int, rules: Rules, length: int) -> tuple[Move, ...]:
    chooser = random.Random(seed)
    state = GameState.new(columns, rows, rules)
    moves = []
    while len(moves) < length and not state.is_over:
        move = chooser.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return tuple(moves)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    columns=st.integers(4, 20),
    rows=st.integers(4, 20),
    rules=st.sampled_from(list(Rules)),
    length=st.integers(0, 80),
    result=st.sampled_from(list(Result)),
    person=st.sampled_from([None, Player.RED, Player.YELLOW]),
)
def test_a_record_reads_back_as_written(
    *,
    seed: int,
    columns: int,
    rows: int,
    rules: Rules,
    length: int,
    result: Result,
    person: Player | None,
) -> None:
    moves = random_game(seed, columns, rows, rules, length)
    record = GameRecord(
        columns,
        rows,
        rules,
        moves,
        red="You",
        yellow="Computer (Hard)",
        date="2026-11-22 10:31",
        result=result,
        reason="four in a row" if result in (Result.RED, Result.YELLOW) else "",
        opponent="computer",
        options={"level": "hard"},
        person=person,
    )
    assert parse_record(format_record(record)) == record


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    length=st.integers(0, 42),
    comments=st.lists(st.text(st.characters(blacklist_categories=["Cs"]), max_size=40), max_size=5),
)
def test_annotations_read_back_after_the_moves(
    *, seed: int, length: int, comments: list[str]
) -> None:
    one_line = tuple(" ".join(comment.split()) for comment in comments)  # as they are written
    moves = random_game(seed, 7, 6, Rules.CLASSIC, length)
    record = GameRecord(7, 6, Rules.CLASSIC, moves, comments=one_line)
    text = format_record(record)
    assert parse_record(text) == record
    assert parse_record(text).moves == moves
    plain = format_record(GameRecord(7, 6, Rules.CLASSIC, moves))
    assert text.startswith(plain)  # the moves as before, the annotations after them


def test_whole_comment_lines_after_the_headers_are_annotations() -> None:
    text = """# c4tui game record
Size: 7x6

# before the moves
1. d4 d4  # the end of a line is no annotation
#between
2. d5 d3
# move 3 (Red, d5): win → loss
"""
    record = parse_record(text)
    assert record.moves == (Move.drop(3), Move.drop(3), Move.drop(4), Move.drop(2))
    assert record.comments == ("before the moves", "between", "move 3 (Red, d5): win → loss")


def test_the_documented_example_reads() -> None:
    text = """# c4tui game record
Game: Connect Four
Rules: classic
Size: 7x6
Date: 2026-11-22 10:31
Red: You
Yellow: Computer (Hard)
Opponent: computer level=hard
You: red
Result: unfinished
Digits: 4453

1. d4 d4
2. d5 d3
"""
    record = parse_record(text)
    assert record.moves == (Move.drop(3), Move.drop(3), Move.drop(4), Move.drop(2))
    assert (record.opponent, record.options, record.person) == (
        "computer",
        {"level": "hard"},
        Player.RED,
    )
    assert record.final_state().cell(3, 1) is Player.YELLOW
    assert "Digits: 4453" in format_record(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Rules: classic\n\n1. d4", "no Size line"),
        ("Size: 7 by 6\n\n1. d4", "line 1: the size must read like 7x6"),
        ("Size: 3x6\n\n1. d4", "line 1: columns must be a whole number from 4 to 20"),
        ("Size: 7x6\nRules: chess\n", "line 2: the rules are classic or popout"),
        ("Size: 7x6\n\n1. d4 d4\n2. banana", "line 4: 'banana' is not a move"),
        ("Size: 7x6\n\n1. d8", "line 3: move 1 (d8)"),
        ("Size: 4x4\n\n1 1 1 1 1", "line 3: move 5 (d1): column 1 is full"),
        ("Size: 7x6\n\n1. d1 d2 d1 d2 d1 d2 d1 d2", "move 8 (d2): the game was already over"),
        ("Size: 7x6\n\n1. p1", "line 3: move 1 (p1)"),
        ("Size: 7x6\nResult: lost\n", "line 2: the result is one of"),
        ("Size: 7x6\nOpponent: computer level\n", "line 2: an option reads name=value"),
        ("Size: 7x6\nYou: blue\n", "line 2: You: is red or yellow"),
        ("4453x", "no Size line"),
        ("12345678", "not a position: move 8: '8' is not a column"),
    ],
)
def test_a_bad_record_says_what_and_where(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_record(text)


def test_a_huge_record_is_refused_before_it_is_read() -> None:
    with pytest.raises(RecordError, match="too long"):
        parse_record("Size: 7x6\n\n" + "d1 " * 100_000)


def test_digit_strings_go_both_ways() -> None:
    record = record_from_digits("4453 4")  # spaces, as pasted from a web page, are ignored
    assert record.moves == tuple(Move.drop(c - 1) for c in (4, 4, 5, 3, 4))
    assert moves_to_digits(7, Rules.CLASSIC, record.moves) == "44534"
    assert parse_record("44534") == record
    won = record_from_digits("1212121")
    assert won.result is Result.RED
    # Pops, Pop Out and boards wider than nine columns have no digit string.
    assert moves_to_digits(7, Rules.CLASSIC, (Move.pop(0),)) is None
    assert moves_to_digits(7, Rules.POPOUT, (Move.drop(0),)) is None
    assert moves_to_digits(10, Rules.CLASSIC, (Move.drop(0),)) is None


def test_names_cannot_break_the_header_lines() -> None:
    record = GameRecord(7, 6, Rules.CLASSIC, red="evil\nSize: 4x4", yellow="Yellow")
    assert parse_record(format_record(record)).columns == 7


def test_a_record_read_reads_the_same_once_written_again() -> None:
    """Found by fuzzing: an empty header (here a value of carriage returns, which end lines)
    and runs of spaces read one way, then another once written back."""
    text = "Size: 7x6\nRed:   two   spaces\nYellow:\r\r\rd3 d3\n4. d4\n"
    record = parse_record(text)
    assert record.red == "two spaces" and record.yellow == "Yellow"  # empty: the default
    assert parse_record(format_record(record)) == record


def test_saved_games_are_listed_newest_first(tmp_path: Path) -> None:
    record = record_from_digits("4453")
    first = save_game(record, tmp_path, datetime(2026, 11, 21, 9, 0))
    second = save_game(record, tmp_path, datetime(2026, 11, 22, 9, 0))
    same_second = save_game(record, tmp_path, datetime(2026, 11, 22, 9, 0))
    assert saved_games(tmp_path) == [same_second, second, first]
    assert read_record(second) == record
    assert list(tmp_path.glob(".*")) == []  # no temporary file left behind


def test_the_unfinished_game_is_kept_and_a_corrupt_one_set_aside() -> None:
    assert unfinished_game() is None
    record = record_from_digits("44")
    keep_unfinished(record)
    assert unfinished_game() == record
    unfinished_game_path().write_text("Size: 7x6\n\n1. d9\n")
    assert unfinished_game() is None
    assert not unfinished_game_path().exists()
    assert unfinished_game_path().with_suffix(".unreadable").exists()
    keep_unfinished(record)
    keep_unfinished(None)
    assert unfinished_game() is None
