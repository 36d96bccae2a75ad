"""The exact solver on boards other than 7 × 6, against the scores of Pons's C++ solver.

The positions in ``tests/data/sizes/`` are random ones (half the board to eight
cells short of full), each with the score Pascal Pons's solver
(https://github.com/PascalPons/connect4), compiled for that board, gave it:
``bench/solver_sizes.py --save tests/data/sizes`` wrote them (see its README).
8 × 7 fills all 64 bits of the solver's words, its key's top bit included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from c4tui.ai.solver import Position, Solver
from c4tui.engine.sequence import play_sequence

DATA = Path(__file__).parent / "data" / "sizes"
SIZES = sorted(path.stem for path in DATA.glob("*x*.txt"))


def test_every_board_the_bench_names_has_its_sample() -> None:
    named = "6x5,5x6,8x5,6x6,7x7,8x6,8x7"  # bench/solver_sizes.py's DEFAULT_SIZES
    assert sorted(named.split(",")) == SIZES


@pytest.mark.parametrize("size", SIZES)
def test_the_scores_are_those_of_pons_solver_built_for_the_board(size: str) -> None:
    columns, rows = (int(part) for part in size.split("x"))
    solver = Solver(columns, rows, table_size=1 << 22)
    lines = (DATA / f"{size}.txt").read_text(encoding="utf-8").splitlines()
    for sequence, expected in (line.split() for line in lines if line.strip()):
        state = play_sequence(sequence, columns=columns, rows=rows)
        assert solver.solve(Position.of(state)) == int(expected), sequence


def test_the_analysis_of_an_8_by_7_position_agrees_with_its_solve() -> None:
    """Each column's move, solved on its own, against the position's own score."""
    first = (DATA / "8x7.txt").read_text(encoding="utf-8").split()[0]
    state = play_sequence(first, columns=8, rows=7)
    solver = Solver(8, 7, table_size=1 << 22)
    scores = solver.analyse(Position.of(state))
    assert max(score for score in scores if score is not None) == solver.solve(Position.of(state))
