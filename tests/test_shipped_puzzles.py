"""The puzzles c4tui ships (assets/puzzles/puzzles.jsonl, issue 41): at least 2,000, every one
proven step by step with the solver as tests/test_puzzles.py proves made ones, 30 % or more
taking two solver moves or more, and the same as ``c4tui puzzles --make`` makes again."""

from __future__ import annotations

import json

import pytest

from c4tui.puzzles.collection import SHIPPED_SET, shipped_puzzles
from c4tui.puzzles.puzzle import puzzle_json
from c4tui.storage import asset_path
from tests.process_helpers import run_c4tui
from tests.test_puzzles import MAKE_SECONDS, assert_proven

SHIPPED = 2000
#: The shipped set is proven in this many slices, so both cores share the work.
SLICE = 100
#: How many of the set are made again to show the command makes it.
REMADE = 25


def shipped_json() -> list[dict[str, object]]:
    return [json.loads(line) for line in asset_path(SHIPPED_SET).read_text().splitlines()]


def test_the_set_holds_2000_distinct_puzzles_as_the_app_reads_them() -> None:
    puzzles = shipped_json()
    assert len(puzzles) >= SHIPPED
    assert len({puzzle["id"] for puzzle in puzzles}) == len(puzzles)
    assert [puzzle_json(puzzle) for puzzle in shipped_puzzles()] == puzzles


@pytest.mark.parametrize("start", range(0, SHIPPED, SLICE))
def test_every_shipped_puzzle_is_proven(start: int) -> None:
    for puzzle in shipped_json()[start : start + SLICE]:
        assert_proven(puzzle)


def test_at_least_30_percent_of_the_set_take_two_solver_moves_or_more() -> None:
    puzzles = shipped_json()
    long = [puzzle for puzzle in puzzles if len(puzzle["solution"]) >= 3]  # type: ignore[arg-type]
    assert len(long) >= 0.3 * len(puzzles)


def test_the_command_makes_the_set_again() -> None:
    done = run_c4tui("puzzles", "--make", str(REMADE), timeout=MAKE_SECONDS)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == shipped_json()[:REMADE]


def test_export_without_a_file_prints_the_shipped_set() -> None:
    done = run_c4tui("puzzles", "--export", "5")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == shipped_json()[:5]
