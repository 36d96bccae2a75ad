"""The move notation and the plain-text board format (spec/console-format.md)."""

from __future__ import annotations

import pytest

from c4tui.engine import (
    Move,
    MoveSyntaxError,
    Rules,
    describe_move,
    format_move,
    parse_move,
    render_board,
    status_line,
)
from tests.engine_helpers import play


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3", Move.drop(2)),
        ("d3", Move.drop(2)),
        ("d 3", Move.drop(2)),
        ("  DROP 3  ", Move.drop(2)),
        ("p12", Move.pop(11)),
        ("Pop 12", Move.pop(11)),
        ("0", Move.drop(-1)),
    ],
)
def test_parse_move_accepts_every_documented_form(text: str, move: Move) -> None:
    assert parse_move(text) == move


@pytest.mark.parametrize("text", ["", "   ", "x", "d", "3 4", "drop three", "d-1", "٣", "q3"])
def test_parse_move_refuses_anything_else(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(text)


def test_format_and_parse_round_trip() -> None:
    for move in (Move.drop(0), Move.pop(19), Move.drop(9)):
        assert parse_move(format_move(move)) == move
    assert format_move(Move.pop(3)) == "p4"
    assert str(Move.drop(6)) == "d7"
    assert describe_move(Move.pop(3)) == "pop from column 4"


def test_render_board_matches_the_spec_example_7x6() -> None:
    state = play("d2 d4 d3 d3 d3 d6 d4", rules=Rules.CLASSIC)
    assert render_board(state) == (
        "1  2  3  4  5  6  7\n"
        ".  .  .  .  .  .  .\n"
        ".  .  .  .  .  .  .\n"
        ".  .  .  .  .  .  .\n"
        ".  .  R  .  .  .  .\n"
        ".  .  Y  R  .  .  .\n"
        ".  R  R  Y  .  Y  ."
    )


def test_render_board_matches_the_spec_example_with_two_digit_columns() -> None:
    state = play("d1 d2 d12", columns=12, rows=4)
    assert render_board(state) == (
        "1  2  3  4  5  6  7  8  9  10 11 12\n"
        ".  .  .  .  .  .  .  .  .  .  .  .\n"
        ".  .  .  .  .  .  .  .  .  .  .  .\n"
        ".  .  .  .  .  .  .  .  .  .  .  .\n"
        "R  Y  .  .  .  .  .  .  .  .  .  R"
    )


def test_status_lines() -> None:
    assert status_line(play("")) == "RED's turn"
    assert status_line(play("d1")) == "YELLOW's turn"
    assert status_line(play("d1 d2 d1 d2 d1 d2 d1")) == "RED wins!"
    draw = play(" ".join(f"d{c}" for c in "1113233214423442"), 4, 4, Rules.CLASSIC)
    assert status_line(draw) == "It's a draw! The board is full."
    repeated = play("d1 d2 p1 p2 d1 d2 p1 p2", 4, 4, Rules.POPOUT)  # issue 40 #17
    assert status_line(repeated) == "It's a draw! The same position arose three times."
