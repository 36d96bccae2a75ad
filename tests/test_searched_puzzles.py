"""``c4tui puzzles --make N --columns C --rows R [--pop-out]`` (issue 41), run as a user runs it:
puzzles off 7 × 6 classic are short forced wins, and each made one is checked here by a brute
force over the engine's own moves (its Pop Out pops and its threefold repetition, not the
search's bitboards): the stated win in N is the fastest, the first move and every later one of
the solver side's the only one winning as fast, every defence loses within the moves left and
the one given is the slowest, the line ends in four, and its themes are read on the board."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from c4tui.engine import GameState, Move, MoveKind, Rules, parse_move
from c4tui.puzzles.puzzle import puzzle_from_json, puzzle_json, puzzle_start
from tests.process_helpers import run_c4tui
from tests.test_puzzles import KEYS, MAKE_SECONDS, fours_at_once, zugzwang_on_the_board

#: (columns, rows, Pop Out): a wider board, Pop Out on 7 × 6, a small board.
BOARDS = [(9, 7, False), (7, 6, True), (5, 4, False)]
COUNT = 6
SEED = 3


@cache
def made(columns: int, rows: int, pop_out: bool) -> tuple[dict[str, object], ...]:
    board = ["--columns", str(columns), "--rows", str(rows)] + (["--pop-out"] if pop_out else [])
    done = run_c4tui(
        "puzzles", "--make", str(COUNT), "--seed", str(SEED), *board, timeout=MAKE_SECONDS
    )
    assert done.returncode == 0, done.stderr
    assert f"[{'#' * 30}] {COUNT}/{COUNT}" in done.stderr  # the progress bar, full
    return tuple(json.loads(line) for line in done.stdout.splitlines())


def forces_four(state: GameState, moves: int) -> bool:
    """Whether the side to move forces four within ``moves`` of its moves (brute force)."""
    if moves < 1:
        return False
    if any(state.play(move).winner is state.turn for move in state.legal_moves()):
        return True
    return moves > 1 and any(
        every_defence_loses(state.play(move), moves - 1) for move in state.legal_moves()
    )


def every_defence_loses(state: GameState, moves: int) -> bool:
    """Whether every move of the side to move lets the opponent force four within ``moves``."""
    if state.is_over:
        return state.winner is state.turn.other
    for defence in state.legal_moves():
        after = state.play(defence)
        if after.winner is state.turn.other:
            continue  # a pop that makes only the opponent's four
        if after.is_over or not forces_four(after, moves):
            return False
    return True


def wins_with(state: GameState, move: Move, moves: int) -> bool:
    """Whether ``move`` forces four within ``moves`` (a four at once included)."""
    after = state.play(move)
    return after.winner is state.turn or (moves > 1 and every_defence_loses(after, moves - 1))


def start_of(puzzle: dict[str, object]) -> GameState:
    rules = Rules(puzzle["rules"])
    state = GameState.new(int(str(puzzle["columns"])), int(str(puzzle["rows"])), rules)
    for notation in str(puzzle["moves"]).split():
        move = parse_move(notation)
        assert not state.is_over and state.refusal(move) is None, notation
        state = state.play(move)
    return state


@pytest.mark.parametrize("board", BOARDS)
def test_the_json_names_the_board_and_writes_the_moves_in_notation(
    board: tuple[int, int, bool],
) -> None:
    columns, rows, pop_out = board
    puzzles = made(*board)
    assert len(puzzles) == COUNT and len({puzzle["id"] for puzzle in puzzles}) == COUNT
    for puzzle in puzzles:
        assert set(puzzle) == KEYS | {"columns", "rows", "rules"}
        assert (puzzle["columns"], puzzle["rows"]) == (columns, rows)
        assert puzzle["rules"] == ("popout" if pop_out else "classic")
        assert puzzle["goal"] == "win"  # no "hold": a shallow search cannot prove a draw
        assert all(parse_move(each) for each in str(puzzle["moves"]).split())


@pytest.mark.parametrize("number", range(COUNT))
@pytest.mark.parametrize("board", BOARDS)
def test_every_made_puzzle_is_a_forced_win_proven_by_brute_force(
    board: tuple[int, int, bool], number: int
) -> None:
    puzzle = made(*board)[number]
    solution = [parse_move(str(each)) for each in puzzle["solution"]]  # type: ignore[attr-defined]
    themes = puzzle["themes"]
    assert isinstance(themes, list) and "search-proven" in themes
    start = state = start_of(puzzle)
    left = (len(solution) + 1) // 2
    assert not start.is_over and themes[0] == f"win in {left}" and left >= 2
    assert puzzle["rating"] == 1200 + 150 * (left - 1)
    assert not forces_four(start, left - 1)  # no faster win: N is the fewest
    for ply, move in enumerate(solution):
        if ply % 2 == 0:  # the solver side: the only move winning within the moves left
            assert [each for each in state.legal_moves() if wins_with(state, each, left)] == [move]
        else:  # the defence: every one loses within the moves left, this one the slowest
            assert every_defence_loses(state, left)
            assert not forces_four(state.play(move), left - 1)
        state = state.play(move)
        left -= ply % 2 == 0
    assert state.winner is start.turn  # the line ends in the solver side's four
    assert ("pop out" in themes) == any(move.kind is MoveKind.POP for move in solution)
    double = fours_at_once(start.play_all(solution[:-2]), start.turn) >= 2
    assert ("double threat" in themes) == double
    assert ("zugzwang" in themes) == zugzwang_on_the_board(start, solution)


def test_pop_out_puzzles_have_pop_out_tricks() -> None:
    assert any("pop out" in puzzle["themes"] for puzzle in made(7, 6, True))  # type: ignore[operator]


def test_a_seed_makes_the_same_puzzles_and_another_seed_others() -> None:
    again = run_c4tui(
        "puzzles", "--make", str(COUNT), "--seed", str(SEED), "--pop-out", timeout=MAKE_SECONDS
    )
    assert [json.loads(line) for line in again.stdout.splitlines()] == list(made(7, 6, True))
    other = run_c4tui(
        "puzzles", "--make", str(COUNT), "--seed", "4", "--pop-out", timeout=MAKE_SECONDS
    )
    assert [json.loads(line) for line in other.stdout.splitlines()] != list(made(7, 6, True))


def test_a_made_file_of_pop_out_puzzles_exports_as_it_was_made(tmp_path: Path) -> None:
    path = tmp_path / "popout.jsonl"
    puzzles = made(7, 6, True)
    path.write_text("".join(json.dumps(puzzle) + "\n" for puzzle in puzzles), encoding="utf-8")
    done = run_c4tui("puzzles", "--export", "3", "--from", str(path), timeout=MAKE_SECONDS)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == list(puzzles[:3])


def test_a_puzzle_reads_back_with_its_board_and_its_position() -> None:
    data = made(9, 7, False)[0]
    puzzle = puzzle_from_json(data)
    assert puzzle_json(puzzle) == data
    assert puzzle_start(puzzle) == start_of(data)
    with pytest.raises(ValueError, match="'rules'"):
        puzzle_from_json(data | {"rules": "gravity"})
    with pytest.raises(ValueError, match="'columns'"):
        puzzle_from_json(data | {"columns": "9"})
    with pytest.raises(ValueError, match="column 10 does not exist"):
        puzzle_start(puzzle_from_json(data | {"moves": "d10"}))
