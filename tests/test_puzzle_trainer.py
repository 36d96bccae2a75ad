"""The puzzle trainer's rules (issue 41), without a screen: a try judged against the solution,
the Glicko-2 rating of player and puzzle (the lobby's), streaks and retries, the daily puzzle,
the next puzzle by rating, and the record kept in the data folder (a damaged one set aside)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from c4tui.lobby.ratings import Rating, Result, rated
from c4tui.puzzles.attempt import Attempt, Verdict, goal_words, task_words
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, read_puzzles, shipped_puzzles
from c4tui.puzzles.keeping import load_progress, save_progress
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle, puzzle_json
from c4tui.puzzles.rating import rate_try, starting_rating

#: Made-up solutions: the shape is enough for the rules: the solution is
#: what the player must play, the maker's proof is tested in test_puzzles.py.
LONG = Puzzle("4433", "4433", ("d2", "d1", "d5"), "win", ("win in 2",), 1350)
SHORT = Puzzle("44", "44", ("d3",), "hold", ("hold",), 1200)


def column(notation: str) -> int:
    return int(notation[1:]) - 1


def test_right_moves_are_answered_by_the_defence_until_solved() -> None:
    attempt = Attempt(LONG)
    verdict, defence = attempt.play(column("d2"))
    assert verdict is Verdict.RIGHT and defence is not None and defence.column == 0
    assert attempt.state.cell(0, 0) is not None  # the defence is on the board
    assert attempt.play(column("d5")) == (Verdict.SOLVED, None)
    assert attempt.finished and attempt.solved


def test_a_wrong_move_ends_the_try_on_the_board() -> None:
    attempt = Attempt(LONG)
    assert attempt.play(column("d7")) == (Verdict.WRONG, None)
    assert attempt.finished and not attempt.solved
    assert attempt.state.cell(6, 0) is not None
    with pytest.raises(ValueError, match="over"):
        attempt.play(column("d2"))


def test_an_illegal_drop_is_refused_and_changes_nothing() -> None:
    attempt = Attempt(Puzzle("444444", "444444", ("d1",), "win", ("win in 2",), 1200))
    with pytest.raises(ValueError, match="full"):
        attempt.play(3)
    assert not attempt.finished and attempt.step == 0


def test_a_hinted_try_can_finish_but_is_not_solved() -> None:
    attempt = Attempt(SHORT)
    hint = attempt.hint()
    assert hint is not None and hint.column == column("d3")
    assert attempt.play(hint.column) == (Verdict.SOLVED, None)
    assert attempt.finished and not attempt.solved


def test_the_task_says_who_moves_and_what_to_find() -> None:
    assert task_words(LONG) == "Red to move: win in 2"
    assert task_words(Puzzle("4", "4", ("d2",), "hold", ("hold",), 1200)).startswith("Yellow")
    assert "does not lose" in goal_words(SHORT)
    cut = Puzzle("44", "44", ("d1", "d2", "d3"), "win", ("winning line",), 1350)
    assert goal_words(cut) == "find the winning line (2 moves)"
    one = Puzzle("44", "44", ("d1",), "win", ("winning line",), 1200)
    assert goal_words(one) == "find the winning line (1 move)"  # not "1 moves"


def test_a_try_rates_player_and_puzzle_with_the_lobbys_glicko() -> None:
    player, puzzle = Rating(), starting_rating(LONG)
    after_player, after_puzzle = rate_try(player, puzzle, solved=True)
    assert after_player == rated(player, [Result(puzzle, 1.0)])
    assert after_puzzle == rated(puzzle, [Result(player, 0.0)])
    assert after_player.rating > player.rating and after_puzzle.rating < puzzle.rating
    failed_player, failed_puzzle = rate_try(player, puzzle, solved=False)
    assert failed_player.rating < player.rating < after_player.rating
    assert failed_puzzle.rating > puzzle.rating


def test_only_first_tries_are_rated_and_make_streaks() -> None:
    progress = PuzzleProgress()
    gain = progress.record(LONG, solved=True, day="2026-12-03")
    assert gain > 0 and progress.streak == 1
    assert progress.record(SHORT, solved=False, day="2026-12-03") < 0
    assert progress.streak == 0 and progress.best_streak == 1
    rating = progress.rating
    assert progress.record(SHORT, solved=True, day="2026-12-04") == 0  # a retry
    assert progress.rating == rating and progress.streak == 0
    assert [entry.rated for entry in progress.history] == [True, True, False]
    assert progress.puzzle_rating(LONG).rating < LONG.rating


def test_failed_puzzles_are_offered_again_until_solved() -> None:
    progress = PuzzleProgress()
    progress.record(LONG, solved=False, day="2026-12-01")
    progress.record(SHORT, solved=False, day="2026-12-02")
    assert progress.failed_ids() == ["44", "4433"]
    progress.record(SHORT, solved=True, day="2026-12-03")
    assert progress.failed_ids() == ["4433"]
    assert progress.solved_on("44", "2026-12-03") and not progress.solved_on("44", "2026-12-02")


def test_the_record_survives_a_round_trip_through_the_data_folder(tmp_path: Path) -> None:
    progress = PuzzleProgress()
    progress.record(LONG, solved=True, day="2026-12-03")
    path = tmp_path / "puzzles.json"
    save_progress(progress, path)
    assert load_progress(path) == (progress, None)
    assert load_progress(tmp_path / "none.json") == (PuzzleProgress(), None)


def test_a_damaged_record_is_set_aside_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.json"
    path.write_text('{"rating": "lots"}', encoding="utf-8")
    progress, notice = load_progress(path)
    assert progress == PuzzleProgress()
    assert notice is not None and "damaged" in notice
    assert (tmp_path / "puzzles.json.broken").read_text(encoding="utf-8") == '{"rating": "lots"}'


def test_the_daily_puzzle_is_one_a_day_the_same_everywhere() -> None:
    puzzles = shipped_puzzles()
    first = daily_puzzle(puzzles, date(2026, 12, 3))
    assert daily_puzzle(list(puzzles), date(2026, 12, 3)) == first
    month = {daily_puzzle(puzzles, date(2026, 12, day)).id for day in range(1, 31)}
    assert len(month) >= 25  # a new one nearly every day


def test_the_next_puzzle_is_untried_and_near_the_players_rating() -> None:
    puzzles = shipped_puzzles()
    progress = PuzzleProgress(rating=Rating(1650.0))
    chosen = next_puzzle(puzzles, progress)
    nearest = min(abs(puzzle.rating - 1650) for puzzle in puzzles)
    assert abs(chosen.rating - 1650) == nearest
    progress.record(chosen, solved=True, day="2026-12-03")
    assert next_puzzle(puzzles, progress) != chosen


def test_a_file_of_puzzles_names_its_bad_line() -> None:
    good = json.dumps(puzzle_json(LONG))
    assert read_puzzles(good + "\n\n" + good) == [LONG, LONG]
    with pytest.raises(ValueError, match="line 2"):
        read_puzzles(good + '\n{"id": 4}')
