"""The lobby codec's puzzles (PROTOCOL.md §8): PUZZLE and PUZZLESOLVED, line by line."""

from __future__ import annotations

import pytest

from c4tui.engine import Move
from c4tui.protocols import lobby as wire
from c4tui.protocols.puzzles import (
    MAX_PUZZLE_MOVES,
    PuzzleAsk,
    PuzzleOffer,
    PuzzleSolved,
    PuzzleVerdict,
    moves_field,
    parse_puzzle_answer,
    parse_solved_answer,
    puzzle_answer,
    solved_answer,
)

OFFER = PuzzleOffer(
    "64516715342441445",
    "64516715342441445",
    "win",
    ("d3", "d2", "d2"),
    ("winning line", "double threat"),
    1350,
    1500,
)
#: The answer to PUZZLE carrying OFFER, as PROTOCOL.md §8 shows it.
OFFER_LINE = (
    "PUZZLE:ACKSTATUS:0:64516715342441445:64516715342441445:win:d3,d2,d2"
    ":winning line,double threat:1350:1500"
)


def test_puzzle_asks_for_the_daily_puzzle_and_next_for_one_near_the_rating() -> None:
    assert wire.parse_request("PUZZLE") == PuzzleAsk(next=False)
    assert wire.parse_request("PUZZLE:NEXT") == PuzzleAsk(next=True)
    assert wire.parse_request("PUZZLE:next") == wire.BadFormat("PUZZLE:ACKSTATUS:1")
    assert wire.parse_request("PUZZLE:") == wire.BadFormat("PUZZLE:ACKSTATUS:1")


@pytest.mark.parametrize("moves", ["d3,d2", "32"])
def test_puzzlesolved_takes_the_moves_as_notations_or_digits(moves: str) -> None:
    request = wire.parse_request(f"PUZZLESOLVED:4453:{moves}")
    assert request == PuzzleSolved("4453", (Move.drop(2), Move.drop(1)))


def test_puzzlesolved_without_moves_is_a_try_given_up() -> None:
    assert wire.parse_request("PUZZLESOLVED:4453:") == PuzzleSolved("4453", ())


@pytest.mark.parametrize(
    "line",
    [
        "PUZZLESOLVED",
        "PUZZLESOLVED:",
        "PUZZLESOLVED:4453",
        "PUZZLESOLVED::d3",
        "PUZZLESOLVED:44 53:d3",
        "PUZZLESOLVED:4453:d3,",
        "PUZZLESOLVED:4453:p3",
        "PUZZLESOLVED:4453:d0",
        "PUZZLESOLVED:4453:302",
        "PUZZLESOLVED:4453:d3:d4",
        "PUZZLESOLVED:4453:" + ",".join(["d1"] * (MAX_PUZZLE_MOVES + 1)),
        "PUZZLESOLVED:4453:" + "1" * (MAX_PUZZLE_MOVES + 1),
        "PUZZLESOLVED:4453:d٣",  # a digit, but not an ASCII one
    ],
)
def test_unreadable_puzzlesolved_lines_get_status_2(line: str) -> None:
    assert wire.parse_request(line) == wire.BadFormat("PUZZLESOLVED:ACKSTATUS:2")


def test_the_answers_are_written_as_the_page_shows_them() -> None:
    assert puzzle_answer(OFFER) == OFFER_LINE
    verdict = PuzzleVerdict(solved=True, rated=True, rating=1662, change=162, streak=1)
    assert solved_answer(verdict) == "PUZZLESOLVED:ACKSTATUS:0:solved:rated:1662:+162:1"
    retry = PuzzleVerdict(solved=False, rated=False, rating=1662, change=0, streak=0)
    assert solved_answer(retry) == "PUZZLESOLVED:ACKSTATUS:0:failed:retry:1662:+0:0"


def test_a_client_reads_the_answers_back() -> None:
    answer = wire.parse_server_message(OFFER_LINE)
    assert isinstance(answer, wire.Ack) and answer.status == 0
    assert parse_puzzle_answer(answer.extra) == OFFER
    solved = wire.parse_server_message("PUZZLESOLVED:ACKSTATUS:0:failed:rated:1402:-98:0")
    assert isinstance(solved, wire.Ack)
    assert parse_solved_answer(solved.extra) == PuzzleVerdict(False, True, 1402, -98, 0)


@pytest.mark.parametrize(
    "fields",
    [
        [],
        ["4453", "4453", "win", "d3", "", "1350"],
        ["4453", "44x3", "win", "d3", "", "1350", "1500"],
        ["4453", "4453", "win", "", "", "1350", "1500"],
        ["4453", "4453", "win", "d3,x", "", "1350", "1500"],
        ["4453", "4453", "WIN!", "d3", "", "1350", "1500"],
        ["4453", "4453", "", "d3", "", "1350", "1500"],
        ["4453", "4453", "win", "d3", "", "-5", "1500"],
    ],
)
def test_a_client_refuses_a_puzzle_answer_that_is_no_puzzle(fields: list[str]) -> None:
    assert parse_puzzle_answer(fields) is None


@pytest.mark.parametrize(
    "fields",
    [[], ["won", "rated", "1500", "+0", "0"], ["solved", "rated", "1500", "0", "0"]],
)
def test_a_client_refuses_a_verdict_that_is_none(fields: list[str]) -> None:
    assert parse_solved_answer(fields) is None


def test_a_client_sends_its_moves_as_notations() -> None:
    assert moves_field([Move.drop(2), Move.drop(6)]) == "d3,d7"
    with pytest.raises(ValueError, match="drops only"):
        moves_field([Move.pop(2)])
