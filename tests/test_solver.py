"""The exact solver: Pons's benchmark scores, through the library and ``c4tui solve``.

Every code path that ships is checked: the compiled core (Numba) in this
process, and the plain-Python fallback in a child process with
``C4TUI_PURE_PYTHON=1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from functools import cache
from pathlib import Path

import pytest

from c4tui.ai.exact_boards import PURE_PYTHON_VARIABLE
from c4tui.ai.search import SearchAborted
from c4tui.ai.solver import Position, Solver, score_range
from c4tui.ai.solver.jit import COMPILED
from c4tui.cli.solving import with_article
from c4tui.engine import GameState, Move, Player
from c4tui.engine.sequence import play_sequence
from tests.process_helpers import run_c4tui

DATA = Path(__file__).parent / "data" / "pons"
SAMPLES = [
    "Test_L2_R1_sample",
    "Test_L2_R2_sample",
    "Test_L1_R1_sample",
    "Test_L1_R2_sample",
    "Test_L1_R3_sample",
]


def positions(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text(encoding="utf-8").split("\n")
    return [(line.split()[0], int(line.split()[1])) for line in lines if line.strip()]


@cache
def shared_solver() -> Solver:
    return Solver()


def solve(sequence: str, solver: Solver | None = None) -> int:
    return (solver or shared_solver()).solve(Position.of(play_sequence(sequence)))


def test_the_core_is_compiled_here() -> None:
    # The test environment installs Numba: the fast path is the one measured.
    assert COMPILED


def test_every_end_game_position_of_the_benchmark() -> None:
    wrong = [(seq, score) for seq, score in positions("Test_L3_R1") if solve(seq) != score]
    assert wrong == []


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_of_the_middle_game_and_opening_sets(name: str) -> None:
    wrong = [(seq, score) for seq, score in positions(name) if solve(seq) != score]
    assert wrong == []


def test_the_book_agrees_with_search_at_and_after_its_depth() -> None:
    # Opening positions of 12 to 14 discs: with the book (at depth 12) and without.
    bookless = Solver(use_book=False, table_size=1 << 20)
    chosen = [(seq, score) for seq, score in positions("Test_L1_R1_sample") if len(seq) >= 12]
    assert len(chosen) >= 10
    for sequence, score in chosen:
        assert solve(sequence) == score
        assert solve(sequence, bookless) == score


def test_weak_solving_gives_the_sign_of_the_score() -> None:
    solver = shared_solver()
    for sequence, score in positions("Test_L2_R1_sample")[:20]:
        weak = solver.solve(Position.of(play_sequence(sequence)), weak=True)
        assert weak == (score > 0) - (score < 0)


def test_analysis_scores_each_column_as_the_position_after_it() -> None:
    solver = shared_solver()
    for sequence, score in positions("Test_L2_R2_sample")[:8]:
        state = play_sequence(sequence)
        scores = solver.analyse(Position.of(state))
        assert max(s for s in scores if s is not None) == score
        for column, column_score in enumerate(scores):
            after = state.play(Move.drop(column)) if state.column_height(column) < 6 else None
            if after is None:
                assert column_score is None
            elif after.winner is state.turn:
                assert column_score == (42 + 1 - state.disc_count) // 2
            else:
                assert column_score == -solver.solve(Position.of(after))


def test_the_first_player_wins_only_by_starting_in_the_centre() -> None:
    scores = shared_solver().analyse(Position.of(GameState.new()))
    assert scores == [-2, -1, 0, 1, 0, -1, -2]


def brute_force(state: GameState, memo: dict[int, int]) -> int:
    """A slow, obviously right negamax over the engine (for small boards)."""
    key = state.position_key()
    if key in memo:
        return memo[key]
    cells = state.columns * state.rows
    best = -cells
    for move in state.legal_moves():
        after = state.play(move)
        if after.winner is state.turn:
            mover_discs = (after.disc_count + 1) // 2
            score = (cells + 1) // 2 + 1 - mover_discs
        elif after.is_over:
            score = 0
        else:
            score = -brute_force(after, memo)
        best = max(best, score)
    memo[key] = best
    return best


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (4, 5)])
def test_small_boards_against_brute_force(columns: int, rows: int) -> None:
    solver = Solver(columns, rows, table_size=1 << 16)
    memo: dict[int, int] = {}
    state = GameState.new(columns, rows)
    seen = 0
    # Walk a few fixed games; check every position on the way.
    for game in range(6):
        state = GameState.new(columns, rows)
        step = 0
        while not state.is_over:
            early = state.disc_count < 6 and columns * rows > 16  # slow for brute force
            expected = None if early else brute_force(state, memo)
            if expected is not None:
                assert solver.solve(Position.of(state)) == expected, (columns, rows, game, step)
                low, high = score_range(columns, rows)
                assert low <= expected <= high
                seen += 1
            moves = state.legal_moves()
            state = state.play(moves[(game * 3 + step * 5) % len(moves)])
            step += 1
    assert seen > 20


def test_a_cancelled_search_stops_and_leaves_the_solver_sound() -> None:
    solver = Solver(table_size=1 << 20, use_book=False)
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    started = time.perf_counter()
    with pytest.raises(SearchAborted):
        solver.solve(Position.of(GameState.new()), cancel=cancel)  # minutes without a book
    assert time.perf_counter() - started < 5
    with pytest.raises(SearchAborted):
        solver.solve(Position.of(play_sequence("4")), deadline=time.perf_counter() + 0.05)
    for sequence, score in positions("Test_L2_R1_sample")[:10]:
        assert solve(sequence, solver) == score


def test_the_side_to_move_is_red_after_an_even_number_of_discs() -> None:
    assert play_sequence("4453").turn is Player.RED


# ----- the command ------------------------------------------------------------------


def cli_input(*names: str) -> tuple[str, list[str]]:
    pairs = [pair for name in names for pair in positions(name)]
    return "".join(f"{seq} {score}\n" for seq, score in pairs), [f"{s} {v}" for s, v in pairs]


def test_the_command_solves_every_line_it_is_given() -> None:
    text, expected = cli_input("Test_L3_R1", *SAMPLES)
    result = run_c4tui("solve", stdin=text, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


def test_the_plain_python_fallback_gives_the_same_answers() -> None:
    end_games = positions("Test_L3_R1")[::10]
    middle = positions("Test_L2_R1_sample")[:10]
    opening = [p for p in positions("Test_L1_R1_sample") if 11 <= len(p[0]) <= 12][:4]
    chosen = end_games + middle + opening
    env = {**os.environ, PURE_PYTHON_VARIABLE: "1"}
    result = run_c4tui("solve", stdin="".join(f"{s}\n" for s, _ in chosen), env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{s} {v}" for s, v in chosen]
    probe = subprocess.run(
        [sys.executable, "-c", "from c4tui.ai.solver.jit import COMPILED; print(COMPILED)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.strip() == "False"


def test_bad_lines_are_reported_and_the_rest_are_answered() -> None:
    text = "4453\n44444444\n12x\n\n4455667\n44556671\n4\n"
    result = run_c4tui("solve", stdin=text)
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["4453 -2", " 1", "4 -1"]  # blank: the start
    assert result.stderr.splitlines() == [
        "line 2: 44444444: move 7: column 4 is full",
        "line 3: 12x: move 3: 'x' is not a column (1-7)",
        "line 5: 4455667: the game is over: there is nothing to solve",
        "line 6: 44556671: move 8: the game was already over",
    ]


def test_an_argument_with_spaces_is_refused_not_cut_to_its_first_word() -> None:
    """Issue 40 #15: ``c4tui solve '4 4'`` answered 4's score, silently."""
    result = run_c4tui("solve", "4 4", "44")
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["44 1"]
    assert result.stderr.splitlines() == [
        "argument 1: 4 4: one game an argument, its moves as digits without spaces (4453)"
    ]


def test_analyze_and_weak_output() -> None:
    lines = run_c4tui("solve", "--analyze", stdin="44\n").stdout.splitlines()
    assert lines == ["44 -3 -3 -2 1 -2 -3 -3"]
    weak = run_c4tui("solve", "--analyze", "--weak", stdin="44\n").stdout.splitlines()
    assert weak == ["44 -1 -1 -1 1 -1 -1 -1"]
    assert run_c4tui("solve", "--weak", stdin="4453\n").stdout == "4453 -1\n"


def test_verbose_prints_each_positions_nodes_and_time_as_pons_does() -> None:
    """Issue 40: ``--verbose`` adds what each answer cost, Pons's columns after the score."""
    text, expected = cli_input("Test_L3_R1")
    chosen, answers = text.splitlines()[:5], expected[:5]
    result = run_c4tui("solve", "--verbose", stdin="".join(f"{line}\n" for line in chosen))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(answers)
    for line, answer in zip(lines, answers, strict=True):
        sequence, score, nodes, microseconds = line.split()
        assert f"{sequence} {score}" == answer
        assert int(nodes) > 0
        assert int(microseconds) >= 0
    # The totals on standard error, so standard output stays one line a position.
    assert result.stderr.startswith("5 positions: ")
    assert "nodes" in result.stderr
    analysed = run_c4tui("solve", "--verbose", "--analyze", "44").stdout.split()
    assert analysed[:8] == ["44", "-3", "-3", "-2", "1", "-2", "-3", "-3"]
    assert int(analysed[8]) > 0


def test_a_board_the_solver_cannot_hold_is_refused() -> None:
    result = run_c4tui("solve", "--columns", "10", stdin="1\n")
    assert result.returncode == 2
    assert "cannot solve a 10 × 6 board" in result.stderr


@pytest.mark.parametrize(("columns", "rows"), [("-5", "4"), ("4", "-4"), ("3", "4"), ("0", "0")])
def test_a_board_smaller_than_four_is_refused_not_a_crash(columns: str, rows: str) -> None:
    """Found by the fuzzer's target for solve's options: a negative size raised ValueError."""
    result = run_c4tui("solve", "--columns", columns, "--rows", rows, stdin="1\n")
    assert result.returncode == 2, result.stderr
    assert f"cannot solve a {columns} × {rows} board" in result.stderr
    assert "Traceback" not in result.stderr


def test_games_given_as_arguments_are_answered_like_lines() -> None:
    result = run_c4tui("solve", "4453", "44", "", "12x")
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["4453 -2", "44 1", " 1"]
    assert result.stderr.splitlines() == ["argument 4: 12x: move 3: 'x' is not a column (1-7)"]


def test_the_start_position_is_answered_with_and_without_analysis() -> None:
    assert run_c4tui("solve", stdin="\n").stdout == " 1\n"
    assert run_c4tui("solve", "--analyze", "").stdout == " -2 -1 0 1 0 -1 -2\n"


@pytest.mark.parametrize(
    ("columns", "rows", "board"), [("8", "8", "an 8 × 8"), ("11", "4", "an 11 × 4")]
)
def test_the_refusal_reads_as_said(columns: str, rows: str, board: str) -> None:
    result = run_c4tui("solve", "--columns", columns, "--rows", rows, "1")
    assert result.returncode == 2
    assert f"c4tui solve: cannot solve {board} board:" in result.stderr


@pytest.mark.parametrize(
    ("number", "said"),
    [
        *[(7, "a 7"), (8, "an 8"), (11, "an 11"), (18, "an 18"), (10, "a 10"), (80, "an 80")],
        *[(100, "a 100"), (800, "an 800"), (1100, "a 1100"), (18000, "an 18000"), (-8, "a -8")],
    ],
)
def test_the_article_follows_the_spoken_number(number: int, said: str) -> None:
    assert with_article(number) == said


def test_an_unknown_option_shows_solves_own_usage() -> None:
    result = run_c4tui("solve", "--bogus")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: c4tui solve ")
    assert result.stderr.splitlines()[-1] == "c4tui solve: error: unrecognized arguments: --bogus"


def test_answers_come_one_line_at_a_time() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "c4tui", "solve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("4453\n")
        process.stdin.flush()
        assert process.stdout.readline() == "4453 -2\n"  # before the input ends
        process.stdin.write("44\n")
        process.stdin.close()
        assert process.stdout.read() == "44 1\n"
        assert process.wait(timeout=30) == 0
