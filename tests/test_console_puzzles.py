"""``c4tui console --puzzles`` run as a real process, typed lines in, its record in tmp_path.

The puzzles are the shipped set's, the wrong move's explanation the solver's (asked
here directly, to compare with what the console's search pool proved).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from c4tui.engine import Player, format_move, parse_move
from c4tui.puzzles.attempt import Attempt, task_words
from c4tui.puzzles.collection import daily_puzzle, shipped_puzzles
from c4tui.puzzles.keeping import RECORD_NAME
from c4tui.puzzles.progress import PuzzleProgress, progress_from_json
from c4tui.puzzles.puzzle import Puzzle

#: A win in two solver moves (solution: move, defence, the four), the first such in the set.
TWO_MOVES = next(p for p in shipped_puzzles() if "win in 2" in p.themes)
#: A puzzle of another length, for ``open`` and ``history``.
ONE_MOVE = next(p for p in shipped_puzzles() if len(p.solution) == 1)
#: Generous: the first wrong move starts the solver (and its compiling) in a worker.
TIMEOUT = 240


def side(player: Player) -> str:
    return player.name.capitalize()


def train(
    tmp_path: Path, *lines: str, puzzle: Puzzle | None = TWO_MOVES, args: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """The trainer at ``puzzle`` with ``lines`` typed, its data folder in ``tmp_path``."""
    start = ("--puzzle", puzzle.id) if puzzle is not None else ("--puzzles",)
    return subprocess.run(
        [sys.executable, "-m", "c4tui", "console", *start, *args],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"},
    )


def record(tmp_path: Path) -> PuzzleProgress:
    """The player's record as the trainer saved it."""
    text = (tmp_path / "c4tui" / RECORD_NAME).read_text(encoding="utf-8")
    return progress_from_json(json.loads(text))


def rating_change(output: str) -> int:
    """The change in the last ``Rating 1512 (+12)`` said."""
    return int(re.findall(r"Rating \d+ \(([+-]\d+)\)", output)[-1])


def wrong_column(puzzle: Puzzle) -> int:
    """A legal drop that is not the solution's first move."""
    attempt = Attempt(puzzle)
    expected = parse_move(puzzle.solution[0])
    return next(
        column
        for column in range(7)
        if column != expected.column and attempt.state.column_height(column) < 6
    )


def test_right_moves_solve_it_the_rating_goes_up_and_the_record_is_written(
    tmp_path: Path,
) -> None:
    first, defence, last = TWO_MOVES.solution
    result = train(tmp_path, first, last)
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    solver = Attempt(TWO_MOVES).solver_side
    assert f"Puzzle {TWO_MOVES.id} (rated {TWO_MOVES.rating}). {task_words(TWO_MOVES)}" in out
    assert "Your puzzle rating: 1500, streak 0 (best 0)." in out
    assert f"Right! {side(solver.other)} answers {defence}." in out
    assert "Solved! Rating " in out and ", streak 1." in out
    assert rating_change(out) > 0
    kept = record(tmp_path)
    assert [(t.puzzle_id, t.solved, t.rated) for t in kept.history] == [(TWO_MOVES.id, True, True)]
    assert kept.rating.rating > 1500 and kept.streak == 1
    assert out.endswith("End of input: goodbye.\n")


def test_a_wrong_move_is_answered_by_the_solvers_reply_with_why(tmp_path: Path) -> None:
    from c4tui.puzzles.making import refutation  # the solver, here in the test

    column = wrong_column(TWO_MOVES)
    attempt = Attempt(TWO_MOVES)
    attempt.play(column)
    refuted = refutation(attempt.state)
    assert refuted.reply is not None
    defender = side(attempt.solver_side.other)
    outcome = "draw" if refuted.winner is None else "win"
    expected = (
        f"d{column + 1} lets {defender} {outcome}: {defender} answers {format_move(refuted.reply)}."
    )

    result = train(tmp_path, str(column + 1), "solution")
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert f"Checking…\n{expected}\n" in out
    after = out.split(expected)[1]
    assert "Failed. Rating " in after and ", streak 0." in after
    assert rating_change(out) < 0
    assert "Type solution to see the way" in after
    assert "Solution: " in after  # offered, and shown when asked
    assert [(t.solved, t.rated) for t in record(tmp_path).history] == [(False, True)]


def test_a_hint_gives_the_column_and_the_try_no_longer_counts_as_solved(tmp_path: Path) -> None:
    first, _, last = TWO_MOVES.solution
    result = train(tmp_path, "hint", first, last)
    out = result.stdout
    column = parse_move(first).column + 1
    assert f"Hint: column {column} ({first}). This try no longer counts as solved." in out
    assert "Solved, with a hint: counted as failed. Rating " in out
    assert rating_change(out) < 0
    assert [t.solved for t in record(tmp_path).history] == [False]


def test_the_solution_is_shown_with_who_plays_each_move_and_counts_as_failed(
    tmp_path: Path,
) -> None:
    result = train(tmp_path, "solution", "4")
    out = result.stdout
    solver = Attempt(TWO_MOVES).solver_side
    sides = [side(solver), side(solver.other), side(solver)]
    moves = ", ".join(f"{who} {move}" for who, move in zip(sides, TWO_MOVES.solution, strict=True))
    assert f"Solution: {moves}." in out
    assert "(The winning four are marked *.)" in out  # the board it ends on
    assert "Failed. Rating " in out
    assert "This puzzle is over" in out  # a move after it is not taken
    assert [t.solved for t in record(tmp_path).history] == [False]


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("banana", "Invalid move: 'banana' is not a move; type a column number like 3"),
        ("9", "Invalid move: column 9 does not exist."),
        ("p 4", "Invalid move: puzzles are classic Connect Four: drop a disc, no pops."),
        ("", "Invalid move: no move was entered"),
    ],
)
def test_bad_input_is_refused_with_the_reason_and_asked_again(
    tmp_path: Path, typed: str, reason: str
) -> None:
    first, _, last = TWO_MOVES.solution
    out = train(tmp_path, typed, first, last).stdout
    assert reason in out
    assert "Solved! " in out  # the try went on as if nothing was typed


def test_a_full_column_is_refused(tmp_path: Path) -> None:
    puzzle = next(
        p
        for p in shipped_puzzles()
        if any(Attempt(p).state.column_height(c) == 6 for c in range(7))
    )
    full = next(c for c in range(7) if Attempt(puzzle).state.column_height(c) == 6)
    out = train(tmp_path, str(full + 1), puzzle=puzzle).stdout
    assert f"Invalid move: column {full + 1} is full" in out
    assert not (tmp_path / "c4tui" / RECORD_NAME).exists()  # nothing tried, nothing recorded


def test_the_end_of_input_ends_cleanly_and_a_try_begun_counts_as_failed(tmp_path: Path) -> None:
    untouched = train(tmp_path)
    assert untouched.returncode == 0 and untouched.stderr == ""
    assert untouched.stdout.endswith("Move: \nEnd of input: goodbye.\n")
    assert not (tmp_path / "c4tui" / RECORD_NAME).exists()

    begun = train(tmp_path, TWO_MOVES.solution[0])
    assert begun.returncode == 0 and begun.stderr == ""
    assert "Left before its end: counted as failed." in begun.stdout
    assert [t.solved for t in record(tmp_path).history] == [False]


def test_history_open_retry_next_and_daily(tmp_path: Path) -> None:
    first, _, last = TWO_MOVES.solution
    today = daily_puzzle(shipped_puzzles(), date.today())
    out = train(
        tmp_path,
        first,
        last,
        f"open {ONE_MOVE.id}",
        ONE_MOVE.solution[0],
        "history",
        f"retry {TWO_MOVES.id}",
        "next",
        "daily",
        "open nothing-like-it",
    ).stdout
    assert f"Puzzle {ONE_MOVE.id} (rated " in out
    history = out.split("Your last 2 tries")[1]
    assert re.search(rf"{TWO_MOVES.id} +solved, rating \d+\n", history)
    assert re.search(rf"{ONE_MOVE.id} +solved, rating \d+\n", history)
    retried = history.split(f"Puzzle {TWO_MOVES.id} (rated ")[1]
    assert retried.split("\n")[1] == "You tried this one before: this try is not rated."
    after_next = retried.split("\n", 2)[2]
    assert re.search(r"Puzzle \d+ \(rated \d+\)", after_next)
    assert f"Puzzle {today.id} (rated " in after_next
    assert "The daily puzzle of " in after_next
    assert "No puzzle nothing-like-it in the set" in out


def test_a_retry_is_not_rated_and_says_so(tmp_path: Path) -> None:
    first, _, last = TWO_MOVES.solution
    out = train(tmp_path, str(wrong_column(TWO_MOVES) + 1), "retry", first, last).stdout
    assert "Solved! Rating " in out and "(a retry is not rated), streak 0." in out
    assert [(t.solved, t.rated) for t in record(tmp_path).history] == [(False, True), (True, False)]


def test_help_lists_the_trainers_commands(tmp_path: Path) -> None:
    out = train(tmp_path, "help", "quit").stdout
    for command in ("hint", "solution", "next", "retry", "open ID", "daily", "history", "quit"):
        assert command in out.split("Moves: ")[1]
    assert out.endswith("Goodbye.\n")


def test_without_an_id_it_starts_at_a_puzzle_near_the_players_rating(tmp_path: Path) -> None:
    result = train(tmp_path, puzzle=None)
    assert result.returncode == 0
    rated = [int(r) for r in re.findall(r"Puzzle \d+ \(rated (\d+)\)", result.stdout)]
    nearest = min(abs(p.rating - 1500) for p in shipped_puzzles())
    assert len(rated) == 1 and abs(rated[0] - 1500) == nearest


@pytest.mark.parametrize(
    "options",
    [("--opponent", "hard"), ("--columns", "8"), ("--connect", "localhost:4000"), ("--tls",)],
)
def test_game_options_are_refused_with_one_line_and_status_two(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    result = train(tmp_path, args=options)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"{options[0]} does not go with --puzzles" in result.stderr


def test_an_unknown_puzzle_id_is_refused(tmp_path: Path) -> None:
    result = train(tmp_path, args=("--puzzle", "12x"), puzzle=None)
    assert result.returncode == 2 and "--puzzle 12x: no puzzle has this id" in result.stderr


def test_the_trainer_never_loads_the_solver_in_its_own_process() -> None:
    probe = (
        "import sys, c4tui.console.puzzles, c4tui.cli.console; "
        "print(sorted(m for m in ('c4tui.ai.perfect', 'c4tui.puzzles.making', 'numba', "
        "'numpy', 'textual') if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.strip() == "[]"


def test_a_damaged_record_is_set_aside_with_a_word_and_a_new_one_kept(tmp_path: Path) -> None:
    (tmp_path / "c4tui").mkdir()
    (tmp_path / "c4tui" / RECORD_NAME).write_text("{not json", encoding="utf-8")
    first, _, last = TWO_MOVES.solution
    out = train(tmp_path, first, last).stdout
    assert out.startswith("Your puzzle record was damaged: it is kept as ")
    assert (tmp_path / "c4tui" / f"{RECORD_NAME}.broken").read_text() == "{not json"
    assert [t.solved for t in record(tmp_path).history] == [True]


def test_a_record_that_cannot_be_written_is_said_and_the_trainer_goes_on(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    first, _, last = TWO_MOVES.solution
    result = train(blocked, first, last, "next")
    assert result.returncode == 0 and result.stderr == ""
    assert "Your puzzle record could not be read" in result.stdout
    assert "Solved! " in result.stdout
    assert "Your puzzle record could not be saved: " in result.stdout
    assert result.stdout.count("Puzzle ") >= 2  # the next one came
