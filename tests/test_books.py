"""Opening books of boards other than 7 × 6: made, written, read, and right.

A book holds the exact score of every position with its depth's discs; a solver
that reads it must answer every position as the solver without it does.
"""

from __future__ import annotations

import lzma
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c4tui.ai import perfect
from c4tui.ai.exact_boards import (
    BOOK_FOLDER,
    PURE_PYTHON_VARIABLE,
    QUICK_CELLS,
    book_name,
    proven_everywhere,
    solvable,
)
from c4tui.ai.perfect import has_exact_play
from c4tui.ai.solver import Position, Solver
from c4tui.ai.solver import book as book_module
from c4tui.ai.solver.book import book_file_header, opening_book, read_book_file
from c4tui.ai.solver.book_maker import book_value, make_book, positions_at
from c4tui.cli import main
from c4tui.engine import GameState
from c4tui.storage import asset_path

SHIPPED = sorted(asset_path(BOOK_FOLDER).glob("*.c4book.xz"))


def random_game(columns: int, rows: int, discs: int, rng: random.Random) -> GameState:
    """Random drops that never end the game, ``discs`` of them (or fewer if none is left)."""
    state = GameState.new(columns, rows)
    for _ in range(discs):
        moves = [move for move in state.legal_moves() if not state.play(move).is_over]
        if not moves:
            break
        state = state.play(rng.choice(moves))
    return state


def solver_with(book_path: Path, columns: int, rows: int) -> Solver:
    """A solver of the board that reads the book at ``book_path`` (not the shipped one)."""
    solver = Solver(columns, rows, use_book=False)
    book = read_book_file(str(book_path), columns, rows)
    solver.book_keys, solver.book_values, solver.book_index = book.keys, book.values, book.index
    solver.geo[8:11] = [book.depth, book.lowest, book.shift]
    solver.has_book = True
    return solver


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """5 × 5's book of 4 discs, made here (a second or two, in one worker process)."""
    path = tmp_path_factory.mktemp("books") / "5x5.c4book.xz"
    path.write_bytes(make_book(5, 5, 4, jobs=1))
    return path


def test_a_made_book_gives_every_score_the_search_gives(small_book: Path) -> None:
    with_book, without = solver_with(small_book, 5, 5), Solver(5, 5, use_book=False)
    rng = random.Random(7)
    asked = 0
    for discs in [0, 1, 2, 3, 4, 4, 4, 5, 6, 9] * 3:
        state = random_game(5, 5, discs, rng)
        if state.is_over:
            continue
        position = Position.of(state)
        assert with_book.analyse(position) == without.analyse(position), state
        asked += 1
    assert asked >= 25


def test_a_made_book_is_what_the_search_proves_for_each_of_its_positions(small_book: Path) -> None:
    book = read_book_file(str(small_book), 5, 5)
    assert book.depth == 4
    positions = positions_at(5, 5, 4).values()
    solver = Solver(5, 5, use_book=False)
    # Those whose mover wins at once are left out: the search never asks for them.
    winning_now = sum(solver.solve(Position(c, m, 4)) == (25 + 1 - 4) // 2 for c, m in positions)
    assert len(book) == len(positions) - winning_now > 100
    assert len(set(book.keys.tolist())) == len(book)  # one record a position and its mirror


@pytest.mark.parametrize("cells", [25, 36, 42])
def test_a_score_survives_the_books_distance_form(cells: int) -> None:
    """``book_value`` writes what ``core.book_score`` reads back: every score, every depth."""
    for moves in range(cells - 1):
        most = (cells + 1 - moves) // 2
        for score in range(-most, most + 1):
            value = book_value(score, moves, cells)
            assert -128 <= value <= 127 and (value == 0) == (score == 0)
            if score == 0:
                continue
            distance = 100 - value if value > 0 else 100 + value
            disc = (moves + distance + 1) // 2
            read = (cells + 1) // 2 + 1 - disc
            assert (read if value > 0 else -read) == score, (moves, score)


@pytest.mark.parametrize("path", SHIPPED, ids=[path.name for path in SHIPPED])
def test_a_shipped_book_agrees_with_the_search_at_and_past_its_depth(path: Path) -> None:
    columns, rows = (int(side) for side in path.name.split(".")[0].split("x"))
    book = opening_book(columns, rows)
    assert book is not None and path.name == book_name(columns, rows)
    with_book, without = Solver(columns, rows), Solver(columns, rows, use_book=False)
    assert with_book.has_book and has_exact_play(GameState.new(columns, rows))
    rng = random.Random(columns * 100 + rows)
    for discs in (book.depth, book.depth, book.depth + 1):  # before it, the search is slow
        state = random_game(columns, rows, discs, rng)
        if not state.is_over:
            position = Position.of(state)
            assert with_book.solve(position) == without.solve(position), state


def test_a_board_proves_every_position_when_it_is_small_or_has_a_book() -> None:
    shipped = {tuple(int(side) for side in path.name.split(".")[0].split("x")) for path in SHIPPED}
    assert (6, 6) in shipped
    for columns in range(4, 11):
        for rows in range(4, 11):
            exact = has_exact_play(GameState.new(columns, rows))
            small = columns * rows <= QUICK_CELLS and solvable(columns, rows)
            assert exact == (small or (columns, rows) in shipped or (columns, rows) == (7, 6))


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not xz at all", "not an xz-compressed book"),
        (lzma.compress(book_file_header(6, 5, 3) + bytes(5)), "not c4tui's 5 × 5 book"),
        (lzma.compress(b"C4TUI"), "not c4tui's 5 × 5 book"),  # cut inside the header
        (lzma.compress(book_file_header(5, 5, 20) + bytes(5)), "not c4tui's 5 × 5 book"),
        (lzma.compress(book_file_header(5, 5, 3) + bytes(7)), "is not an opening book"),
    ],
    ids=["not-xz", "another-board", "short-header", "too-deep", "torn-record"],
)
def test_a_book_file_that_is_not_one_is_refused(tmp_path: Path, content: bytes, said: str) -> None:
    path = tmp_path / "book.xz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=said):
        read_book_file(str(path), 5, 5)


def test_make_book_writes_a_book_the_solver_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "made.c4book.xz"
    args = ["solve", "--columns", "4", "--rows", "5", "--make-book", str(target)]
    assert main([*args, "--book-depth", "3", "--jobs", "1"]) == 0
    said = capsys.readouterr().err
    assert "0 of " in said and f"wrote {target}: the 4 × 5 book of 3 discs" in said
    book = read_book_file(str(target), 4, 5)
    assert book.depth == 3 and len(book) > 10


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--book-depth", "13"], "--book-depth must be from 0 to 12 here"),
        (["--book-depth", "-1"], "--book-depth must be from 0 to 12 here"),
        (["--book-depth", "2", "44"], "--make-book answers no games: give it none"),
        (["--book-depth", "2", "--jobs", "-2"], "--jobs must be 0 (one a core) or more"),
        (["--book-depth", "2", "--columns", "9", "--rows", "7"], "cannot solve a 9 × 7 board"),
        ([], "--make-book FILE and --book-depth DISCS go together"),
    ],
)
def test_make_book_refuses_a_bad_request_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    target = tmp_path / "never.xz"
    assert main(["solve", "--make-book", str(target), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"c4tui solve: {said}") and err.count("\n") == 1, err
    assert not target.exists()


def test_ctrl_c_stops_making_a_book_and_writes_nothing(tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too (one process group): they stop, the parent says so."""
    target = tmp_path / "6x7.c4book.xz"
    args = ["--columns", "6", "--rows", "7", "--make-book", str(target), "--book-depth", "8"]
    process = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "solve", *args, "--jobs", "2"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stderr is not None
    try:
        first = process.stderr.readline()
        assert first.startswith("c4tui solve: 0 of "), first
        time.sleep(1.0)  # the workers started and solving
        os.killpg(process.pid, signal.SIGINT)
        rest = process.stderr.read()
        assert process.wait(timeout=30) == 130
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert rest == "c4tui solve: interrupted; no book was written.\n"
    assert not target.exists() and not list(tmp_path.iterdir())
    assert group_empties(process.pid), "a worker outlived the interrupt"


def group_empties(group: int, seconds: float = 20.0) -> bool:
    """Whether every process of the group is gone within ``seconds`` (reaped by init)."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_without_numba_only_7_by_6_is_promised_every_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain Python is a hundred times slower: past a small book a proof would take minutes.

    The UI asks ``proven_everywhere`` (no NumPy loaded), the analysis ``has_exact_play``:
    both must say the same, or the app would wait for a best line that never comes.
    """
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    for columns, rows in [(6, 6), (5, 5), (8, 4)]:
        assert not proven_everywhere(columns, rows)
        assert not has_exact_play(GameState.new(columns, rows))
    assert proven_everywhere(7, 6) and has_exact_play(GameState.new(7, 6))
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "0")
    assert proven_everywhere(6, 6) and has_exact_play(GameState.new(6, 6))


def test_a_damaged_shipped_book_leaves_its_board_searched_not_promised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is there (so the UI offers proofs) but unreadable: no crash, no endless wait."""
    damaged = tmp_path / book_name(6, 6)
    damaged.write_bytes(lzma.compress(b"C4TUI-BO"))  # cut inside the header
    monkeypatch.setattr(book_module, "shipped_book", lambda columns, rows: damaged)
    opening_book.cache_clear()
    perfect.solver_for.cache_clear()
    try:
        assert opening_book(6, 6) is None
        assert not has_exact_play(GameState.new(6, 6))
        assert perfect.exact_scores(GameState.new(6, 6), deadline=time.perf_counter()) is None
    finally:
        opening_book.cache_clear()
        perfect.solver_for.cache_clear()


def test_jobs_alone_is_refused_not_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--jobs", "2", "44"]) == 2
    assert "--make-book FILE and --book-depth DISCS go together" in capsys.readouterr().err
