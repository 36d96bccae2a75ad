"""``c4tui puzzles`` (issue 41), run as a user runs it: every puzzle it makes is checked here
with the solver, position by position (the position is legal and not over, each of the solver
side's moves is the only one reaching the goal, each defence is a best one), the share of
puzzles of two moves or more, the same puzzles for a seed, and bad input refused (status 2)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Move, Player, parse_move
from c4tui.engine.sequence import play_sequence
from c4tui.puzzles.making import make_puzzles, puzzles_in_game
from tests.process_helpers import run_c4tui

COUNT = 40
SEED = 5
#: Making 40 puzzles takes a few seconds here (the solver's start included); a loaded machine more.
MAKE_SECONDS = 120
KEYS = {"id", "moves", "solution", "goal", "themes", "rating"}


@lru_cache(maxsize=1)
def solver() -> Solver:
    return Solver(7, 6)


@lru_cache(maxsize=1)
def made() -> tuple[dict[str, object], ...]:
    done = run_c4tui("puzzles", "--make", str(COUNT), "--seed", str(SEED), timeout=MAKE_SECONDS)
    assert done.returncode == 0, done.stderr
    assert f"[{'#' * 30}] {COUNT}/{COUNT}" in done.stderr  # the progress bar, full
    return tuple(json.loads(line) for line in done.stdout.splitlines())


def mover_scores(state: GameState, only: int | None = None) -> dict[int, int]:
    """Every playable column's proven score for the side to move (Pons's convention); with
    ``only``, that column's alone."""
    scores = {}
    for column in playable(state) if only is None else [only]:
        after = state.drop(column)
        if after.winner is not None:
            scores[column] = (state.columns * state.rows + 1 - state.disc_count) // 2
        elif after.is_over:
            scores[column] = 0
        else:
            scores[column] = -solver().solve(Position.of(after))
    return scores


def test_the_command_writes_count_distinct_puzzles_in_the_export_shape() -> None:
    puzzles = made()
    assert len(puzzles) == COUNT
    assert len({puzzle["id"] for puzzle in puzzles}) == COUNT
    for puzzle in puzzles:
        assert set(puzzle) == KEYS
        assert puzzle["goal"] in ("win", "hold")
        assert isinstance(puzzle["solution"], list) and len(puzzle["solution"]) % 2 == 1
        assert isinstance(puzzle["rating"], int) and isinstance(puzzle["themes"], list)
    assert {puzzle["goal"] for puzzle in puzzles} == {"win", "hold"}  # both goals are made


def reaches(state: GameState, column: int, value: int) -> bool:
    """Whether dropping in ``column`` scores ``value`` or more for the side to move.

    One null-window search (``Solver.at_least``), not an exact score: the proofs below need
    only which side of a bound each move is on, and that is several times quicker.
    """
    after = state.drop(column)
    if after.winner is not None:
        return (state.columns * state.rows + 1 - state.disc_count) // 2 >= value
    if after.is_over:
        return value <= 0
    return not solver().at_least(Position.of(after), 1 - value)  # -score(after) >= value


def playable(state: GameState) -> list[int]:
    return [column for column in range(state.columns) if state.column_height(column) < state.rows]


def assert_proven(puzzle: dict[str, object]) -> None:
    """The position is legal and not over, each solver-side move the only one reaching the
    goal, each defence a best one, and the first move not a four at once."""
    state = play_sequence(str(puzzle["moves"]))
    assert not state.is_over
    floor = 1 if puzzle["goal"] == "win" else 0
    if puzzle["goal"] == "hold":  # not a win: a position to hold
        assert not any(reaches(state, column, 1) for column in playable(state))
    solution = puzzle["solution"]
    assert isinstance(solution, list)
    for ply, notation in enumerate(solution):
        column = parse_move(notation).column
        if ply % 2 == 0:  # the solver side: the only move reaching the goal
            reaching = [c for c in playable(state) if reaches(state, c, floor)]
            assert reaching == [column]
        else:  # the defence: no other move scores better for the defender
            chosen = mover_scores(state, only=column)[column]
            assert not any(reaches(state, c, chosen + 1) for c in playable(state) if c != column)
        state = state.drop(column)
    assert play_sequence(str(puzzle["moves"])).drop(parse_move(solution[0]).column).winner is None


@pytest.mark.parametrize("number", range(COUNT))
def test_every_step_of_a_made_puzzle_is_proven(number: int) -> None:
    assert_proven(made()[number])


def fours_at_once(state: GameState, player: Player) -> int:
    """How many drops would give ``player`` four at once in ``state``, were it their turn."""
    discs = {
        (column, row): owner
        for column in range(state.columns)
        for row in range(state.rows)
        if (owner := state.cell(column, row)) is not None
    }
    turned = GameState.from_cells(state.columns, state.rows, state.rules, discs, player)
    return sum(
        turned.drop(column).winner is player
        for column in range(state.columns)
        if turned.column_height(column) < state.rows
    )


@pytest.mark.parametrize("number", range(COUNT))
def test_themes_and_rating_follow_from_the_solution(number: int) -> None:
    puzzle = made()[number]
    solution = puzzle["solution"]
    themes = puzzle["themes"]
    assert isinstance(solution, list) and isinstance(themes, list)
    solver_moves = (len(solution) + 1) // 2
    assert puzzle["rating"] == 1200 + 150 * (solver_moves - 1)
    start = play_sequence(str(puzzle["moves"]))
    last = start
    for notation in solution:
        last = last.drop(parse_move(notation).column)
    double = not last.is_over and fours_at_once(last, start.turn) >= 2
    assert ("double threat" in themes) == double
    if puzzle["goal"] == "hold":
        assert "hold" in themes
        return
    state = play_sequence(str(puzzle["moves"]))
    best = max(mover_scores(state).values())
    # A score s: the winner's four is its (cells + 1) // 2 + 1 - s-th disc; the side to move
    # has half the discs on the board (rounded down) already.
    to_four = (7 * 6 + 1) // 2 + 1 - best - state.disc_count // 2
    if last.winner is start.turn:  # the solution ends in the four: its length is the win's
        assert themes[0] == f"win in {to_four}" and to_four == solver_moves >= 2
    else:  # cut short: the start of a longer win, and not called "win in N"
        assert themes[0] == "winning line" and to_four > solver_moves


def completes_four(
    discs: dict[tuple[int, int], Player], cell: tuple[int, int], player: Player
) -> bool:
    """Whether a ``player`` disc on ``cell`` would be in a line of four (a slow count)."""
    for step_column, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            column, row = cell[0] + sign * step_column, cell[1] + sign * step_row
            while discs.get((column, row)) is player:
                run += 1
                column, row = column + sign * step_column, row + sign * step_row
        if run >= 4:
            return True
    return False


def on_own_row(state: GameState, player: Player, row: int) -> bool:
    """Whether the 0-based ``row`` has ``player``'s parity: on 7 × 6 red's are the odd rows
    counted from 1 at the bottom, yellow's the even. On any board the first player's are those
    it fills when all other columns are full: (columns - 1) * rows + row discs played is even."""
    first_players = ((state.columns - 1) * state.rows + row) % 2 == 0
    return first_players == (player is Player.RED)


def good_cells(state: GameState, player: Player) -> list[tuple[int, int]]:
    """``player``'s threats on its own row parity, above an empty cell, with no threat of the
    opponent's lower in their column: the cells the opponent must never fill under."""
    discs = {
        (column, row): owner
        for column in range(state.columns)
        for row in range(state.rows)
        if (owner := state.cell(column, row)) is not None
    }
    found = []
    for column in range(state.columns):
        height = state.column_height(column)
        for row in range(height + 1, state.rows):
            lower_theirs = any(
                completes_four(discs, (column, below), player.other) for below in range(height, row)
            )
            own_row = on_own_row(state, player, row)
            if own_row and not lower_theirs and completes_four(discs, (column, row), player):
                found.append((column, row))
    return found


def zugzwang_on_the_board(start: GameState, solution: list[Move]) -> bool:
    """The zugzwang theme read from the board: a good cell left to the solver side (and none
    to the opponent), or the four dropped in a good cell the last defence filled under."""
    side = start.turn
    last = start.play_all(solution)
    if last.winner is side:
        column = solution[-1].column
        return (
            len(solution) >= 3
            and solution[-1] == solution[-2] == Move.drop(column)
            and on_own_row(last, side, last.column_height(column) - 1)
        )
    return not last.is_over and bool(good_cells(last, side)) and not good_cells(last, side.other)


@pytest.mark.parametrize("number", range(COUNT))
def test_the_zugzwang_theme_is_the_one_read_on_the_board(number: int) -> None:
    puzzle = made()[number]
    solution = puzzle["solution"]
    assert isinstance(solution, list) and isinstance(puzzle["themes"], list)
    moves = [parse_move(notation) for notation in solution]
    expected = zugzwang_on_the_board(play_sequence(str(puzzle["moves"])), moves)
    assert ("zugzwang" in puzzle["themes"]) == expected


def test_some_made_puzzles_are_zugzwang_and_some_not() -> None:
    zugzwang = [puzzle for puzzle in made() if "zugzwang" in puzzle["themes"]]  # type: ignore[operator]
    assert 0 < len(zugzwang) < COUNT


def test_at_least_30_percent_take_two_or_more_solver_moves() -> None:
    long = [puzzle for puzzle in made() if len(puzzle["solution"]) >= 3]  # type: ignore[arg-type]
    assert len(long) >= 0.3 * COUNT


def test_a_seed_makes_the_same_puzzles_and_another_seed_others() -> None:
    first = make_puzzles(6, 11)
    assert make_puzzles(6, 11) == first
    assert make_puzzles(6, 12) != first


def test_two_move_orders_to_one_position_are_one_puzzle() -> None:
    positions = [play_sequence(str(puzzle["moves"])).position_key() for puzzle in made()]
    assert len(set(positions)) == len(positions)


def test_export_prints_from_a_made_file(tmp_path: Path) -> None:
    path = tmp_path / "made.jsonl"
    path.write_text("".join(json.dumps(puzzle) + "\n" for puzzle in made()), encoding="utf-8")
    done = run_c4tui("puzzles", "--export", "3", "--from", str(path), timeout=MAKE_SECONDS)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == list(made()[:3])


@pytest.mark.parametrize(
    "args",
    [
        ("--make", "0"),
        ("--make", "x"),
        ("--export", "2", "--from", "/nonexistent/puzzles.jsonl"),
        ("--make", "2", "--from", "x.jsonl"),
        ("--make", "2", "--columns", "3"),  # a board out of range (tests/test_searched_puzzles)
        ("--make", "2", "--rows", "21"),
        ("--export", "2", "--pop-out"),  # the board is the made file's
        ("--export", "2", "--columns", "9"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    done = run_c4tui("puzzles", *args)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("c4tui puzzles: error:")


def test_a_file_that_is_not_puzzles_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": 3}\n', encoding="utf-8")
    done = run_c4tui("puzzles", "--export", "1", "--from", str(path))
    assert done.returncode == 2
    assert "is not a file of puzzles" in done.stderr


def test_a_finished_games_puzzles_are_those_of_its_positions() -> None:
    puzzle = made()[0]
    digits = str(puzzle["moves"])
    found = puzzles_in_game(digits)
    assert found and found[-1].moves == digits  # its last position is the puzzle made
    assert all(digits.startswith(each.moves) for each in found)
    with pytest.raises(ValueError, match="not a column"):
        puzzles_in_game("44x")
