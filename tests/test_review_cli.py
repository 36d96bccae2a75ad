"""``c4tui review FILE|DIGITS [--json]``: every move of 30 random games agrees with the solver
(solved here, position by position), the plain lines, the estimates off 7 × 6 classic, and
bad input refused with a message and status 2.

Run as a user runs it, in a process of its own, except for the 30 games: those go through
the same command line (``c4tui.cli.main``) in this process, so that the solver loads once
and not 30 times (a second or two each).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import time
from functools import lru_cache
from pathlib import Path

import pytest

from c4tui.ai.solver import Position, Solver
from c4tui.cli import main
from c4tui.engine import GameState, Move, Rules
from c4tui.records import GameRecord, format_record, parse_record
from tests.process_helpers import run_c4tui, started_c4tui

GAMES = 30
#: A review on this machine takes a few seconds a game (the solver's start included).
REVIEW_SECONDS = 120


@lru_cache(maxsize=1)
def solver() -> Solver:
    return Solver(7, 6)


def random_game(seed: int) -> str:
    """A 7 × 6 classic game of random legal drops to its end, as digits."""
    chooser = random.Random(seed)
    state = GameState.new(7, 6, Rules.CLASSIC)
    digits = ""
    while not state.is_over:
        move = chooser.choice(state.legal_moves())
        state = state.play(move)
        digits += str(move.column + 1)
    return digits


def mover_score(before: GameState, column: int) -> int:
    """The mover's proven score after dropping in ``column`` (Pons's convention)."""
    after = before.drop(column)
    if after.winner is not None:
        return (before.columns * before.rows + 1 - before.disc_count) // 2
    if after.is_over:
        return 0
    return -solver().solve(Position.of(after))


def expected_verdict(before: int, after: int) -> str:
    """The issue's words: a slower win or a faster loss, a win to a draw or a draw to a loss…"""
    if after == before:
        return "best"
    if (before > 0 and after > 0) or (before < 0 and after < 0):
        return "inaccuracy"
    if before > 0 and after < 0:
        return "blunder"
    return "mistake"


def reviewed(*args: str) -> dict[str, object]:
    """``c4tui review ARGS --json``'s answer, from a process of its own."""
    done = run_c4tui("review", *args, "--json", timeout=REVIEW_SECONDS)
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def reviewed_here(*args: str) -> dict[str, object]:
    """``c4tui review ARGS --json``'s answer, from its command line run in this process."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["review", *args, "--json"]) == 0
    answer: dict[str, object] = json.loads(printed.getvalue())
    return answer


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_move_of_a_random_game_agrees_with_the_solver(seed: int) -> None:
    digits = random_game(seed)
    answer = reviewed_here(digits)
    moves = answer["moves"]
    assert isinstance(moves, list) and len(moves) == len(digits)
    state = GameState.new(7, 6, Rules.CLASSIC)
    credit: dict[str, list[float]] = {"red": [], "yellow": []}
    for ply, (digit, move) in enumerate(zip(digits, moves, strict=True), start=1):
        column = int(digit) - 1
        best_score = solver().solve(Position.of(state))
        scores = {m.column: mover_score(state, m.column) for m in state.legal_moves()}
        assert max(scores.values()) == best_score
        mover = "red" if ply % 2 else "yellow"
        verdict = expected_verdict(best_score, scores[column])
        assert move == {
            "ply": ply,
            "move": f"d{digit}",
            "mover": mover,
            "verdict": verdict,
            "score_before": best_score,
            "score_after": scores[column],
            "best": [f"d{c + 1}" for c in sorted(scores) if scores[c] == best_score],
        }, (digits, ply)
        credit[mover].append({"best": 1.0, "inaccuracy": 0.5}.get(verdict, 0.0))
        state = state.play(Move.drop(column))
    assert answer["accuracy"] == {
        player: round(sum(shares) / len(shares), 2) for player, shares in credit.items()
    }


def test_the_plain_review_is_a_line_a_move_and_the_accuracies() -> None:
    # Red throws its win away at once (1), then both play on in the centre.
    done = run_c4tui("review", "1444", timeout=REVIEW_SECONDS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "1. d1  red  blunder (best: d4)",
        "2. d4  yellow  best",
        "3. d4  red  best",
        "4. d4  yellow  best",
        "Accuracy: red 50 %, yellow 100 %",
    ]


def test_a_saved_record_is_reviewed_and_a_player_without_moves_has_no_accuracy(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.c4g"
    path.write_text(format_record(GameRecord(7, 6, Rules.CLASSIC, (Move.drop(3),))))
    answer = reviewed(str(path))
    assert answer["accuracy"] == {"red": 1.0, "yellow": None}
    done = run_c4tui("review", str(path), timeout=REVIEW_SECONDS)
    assert done.stdout.splitlines()[-1] == "Accuracy: red 100 %, yellow no moves"


def test_a_pop_out_game_is_judged_by_the_search_and_marked_as_estimates(tmp_path: Path) -> None:
    # RED can win along the bottom with 4 but plays 6: YELLOW wins up column 7.
    moves = tuple(Move.drop(int(d) - 1) for d in "1727376")
    path = tmp_path / "popout.c4g"
    path.write_text(format_record(GameRecord(7, 6, Rules.POPOUT, moves)))
    answer = reviewed(str(path))
    last = answer["moves"][-1]  # type: ignore[index]
    assert last["verdict"] == "blunder" and last["best"] == ["d4"]
    assert all(m["score_before"] is None for m in answer["moves"])  # type: ignore[attr-defined]
    done = run_c4tui("review", str(path), timeout=REVIEW_SECONDS)
    assert done.stdout.splitlines()[-1] == "(estimates: not proven by the solver)"


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("no-such-game.c4g", "no such file: no-such-game.c4g"),
        ("12345678", "not a position"),
        ("1111111", "column 1 is full"),
    ],
)
def test_a_game_that_cannot_be_read_is_refused_with_its_reason(game: str, message: str) -> None:
    done = run_c4tui("review", game, timeout=REVIEW_SECONDS)
    assert done.returncode == 2
    assert done.stderr.startswith("c4tui review: error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_an_illegal_move_in_a_record_is_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.c4g"
    path.write_text("Rules: classic\nSize: 7x6\n\n1. d1 d1 d1 d1 d1 d1 d1\n")
    done = run_c4tui("review", str(path), timeout=REVIEW_SECONDS)
    assert done.returncode == 2
    assert "bad.c4g: line 4: move 7 (d1): column 1 is full" in done.stderr
    assert "Traceback" not in done.stderr


def test_annotate_saves_the_record_with_the_moves_that_were_not_best_and_the_accuracies(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "reviewed.c4g"
    done = run_c4tui("review", "14445", "--annotate", str(saved), timeout=REVIEW_SECONDS)
    assert done.returncode == 0, done.stderr
    record = parse_record(saved.read_text(encoding="utf-8"))
    assert record.moves == tuple(Move.drop(int(d) - 1) for d in "14445")
    assert record.comments == (
        "c4tui review: the moves that were not best, and each player's accuracy",
        "1. d1 red blunder (best: d4)",
        "5. d5 red inaccuracy (best: d4)",
        "Accuracy: red 50 %, yellow 100 %",
    )


def test_a_record_reviewed_again_keeps_one_review_and_the_annotations_above_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.c4g"
    moves = tuple(Move.drop(int(d) - 1) for d in "14")
    kept = ("The solver's review: a tournament's", "move 1 (Red, d1): win → loss")
    path.write_text(format_record(GameRecord(7, 6, Rules.CLASSIC, moves, comments=kept)))
    for _ in range(2):
        done = run_c4tui("review", str(path), "--annotate", str(path), "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["accuracy"] == {"red": 0.0, "yellow": 1.0}
    comments = parse_record(path.read_text(encoding="utf-8")).comments
    assert comments[:2] == kept
    assert [line.startswith("c4tui review:") for line in comments].count(True) == 1
    assert comments[-1] == "Accuracy: red 0 %, yellow 100 %"


def test_a_record_that_cannot_be_saved_is_said_with_status_1(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = run_c4tui("review", "4", "--annotate", str(blocker / "x.c4g"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"c4tui review: cannot save {blocker / 'x.c4g'}: ")
    assert "Traceback" not in done.stderr


def test_ctrl_c_ends_a_long_review_with_one_line_and_status_130(tmp_path: Path) -> None:
    # A Pop Out game is searched position by position: long enough to be interrupted.
    chooser, state, moves = random.Random(1), GameState.new(7, 6, Rules.POPOUT), []
    while not state.is_over and len(moves) < 40:
        moves.append(chooser.choice(state.legal_moves()))
        state = state.play(moves[-1])
    path = tmp_path / "long.c4g"
    path.write_text(format_record(GameRecord(7, 6, Rules.POPOUT, tuple(moves))))
    review = started_c4tui("review", str(path))
    time.sleep(3)  # started, and reviewing
    os.killpg(review.pid, signal.SIGINT)
    out, err = review.communicate(timeout=REVIEW_SECONDS)
    assert review.returncode == 130
    assert err == "c4tui review: interrupted; nothing was reviewed.\n" and out == ""
