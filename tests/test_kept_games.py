"""A kept game as a client reads GAME's answer and says it: results from each side, records."""

from __future__ import annotations

import pytest

from c4tui.client.kept import (
    colour_of,
    record_of,
    result_for,
    result_line,
    started_at,
    terms_of,
)
from c4tui.engine import Player
from c4tui.protocols.past import KeptGame, game_record, parse_history_answer, parse_kept_game
from c4tui.protocols.terms import Clock
from c4tui.records import Result, format_record, parse_record


def kept(winner: str, reason: str, moves: str = "d4 d1 d4 d1 d4 d1 d4") -> KeptGame:
    """GAME's answer (as the server writes it, then read back) for alice (RED) and bob."""
    answer = f"1:alice:bob:7:6:classic:{winner}:{reason}:{moves}:0:2026-11-26T23:05:16Z"
    game = parse_kept_game(answer.split(":"))
    assert game is not None
    return game


def test_the_answer_reads_back_what_the_server_wrote() -> None:
    game = kept("alice", "four")
    written = game_record(
        number=1,
        red="alice",
        yellow="bob",
        game=game.game,
        winner="alice",
        reason="four",
        moves=game.moves,
        rated=False,
        started=game.started,
        clock=None,
    )
    assert written.endswith(":0:2026-11-26T23:05:16Z:-")  # the clock's field, last
    assert parse_kept_game(written.split(":")[3:]) == game
    assert started_at(game) == "2026-11-26 23:05"


def test_the_clock_is_read_from_the_last_field_and_an_answer_without_it_still_reads() -> None:
    before = "1:alice:bob:7:6:classic:alice:four:d4:1:2026-11-26T23:05:16Z"
    old = parse_kept_game(before.split(":"))  # a server before the clock's field
    timed = parse_kept_game(f"{before}:3+2".split(":"))
    untimed = parse_kept_game(f"{before}:-".split(":"))
    assert old is not None and timed is not None and untimed is not None
    assert {old.started, timed.started, untimed.started} == {"2026-11-26T23:05:16Z"}
    assert (old.clock, untimed.clock) == (None, None)
    assert timed.clock == Clock(3, 2)
    assert (terms_of(timed), terms_of(untimed)) == ("rated 3+2", "rated")


@pytest.mark.parametrize(
    ("winner", "reason", "alice", "bob", "line"),
    [
        (
            "alice",
            "four",
            "won (four in a row)",
            "lost (four in a row)",
            "alice (RED) wins (four in a row).",
        ),
        ("bob", "forfeit", "lost (forfeit)", "won (forfeit)", "bob (YELLOW) wins (forfeit)."),
        (
            "bob",
            "disconnect",
            "lost (disconnect)",
            "won (disconnect)",
            "bob (YELLOW) wins (disconnect).",
        ),
        ("", "full", "draw (board full)", "draw (board full)", "A draw (board full)."),
        ("", "repetition", "draw (repetition)", "draw (repetition)", "A draw (repetition)."),
        ("", "", "not over yet", "not over yet", "Not over yet."),
        ("", "agreement", "draw (agreed)", "draw (agreed)", "A draw (agreed)."),
        (  # §5.6: called off, it is nobody's draw
            "",
            "aborted",
            "aborted",
            "aborted",
            "Aborted: called off before both players had moved, or after a restart.",
        ),
    ],
)
def test_results_are_said_from_each_players_side(
    winner: str, reason: str, alice: str, bob: str, line: str
) -> None:
    game = kept(winner, reason)
    assert (result_for(game, Player.RED), result_for(game, Player.YELLOW)) == (alice, bob)
    assert result_line(game) == line


def test_a_record_of_it_reads_back_with_its_result_and_who_you_were() -> None:
    game = kept("bob", "forfeit", "d4 d1 d4")
    record = parse_record(format_record(record_of(game, "bob")))
    assert (record.red, record.yellow, record.person) == ("alice", "bob", Player.YELLOW)
    assert (record.result, record.reason, record.date) == (
        Result.YELLOW,
        "forfeit",
        "2026-11-26 23:05",
    )
    assert record.moves == game.moves
    assert colour_of(game, "vic") is None and record_of(game, "vic").person is None


@pytest.mark.parametrize(
    "answer",
    [
        "x:alice:bob:7:6:classic::full::0:t",
        "1:alice:bob:7:6:chess::full::0:t",
        "1:a:b:7:6:classic::full:z9:0:t",
        "1:a:b",
    ],
)
def test_answers_that_make_no_game_are_none(answer: str) -> None:
    assert parse_kept_game(answer.split(":")) is None


def test_history_ids_newest_first_and_none() -> None:
    assert parse_history_answer(["3,2,1"]) == [3, 2, 1]
    assert parse_history_answer([""]) == parse_history_answer([]) == []
