"""The names games are saved under: when they were saved by default, or a name given."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from c4tui.records import record_from_digits
from c4tui.records.store import (
    free_stamp_name,
    given_name,
    name_problem,
    plain_name,
    read_record,
    save_game,
    saved_game_path,
    saved_games,
)

NOON = datetime(2026, 11, 22, 12, 0)


def test_a_name_given_is_the_file_name_and_replaces_a_save_of_that_name(tmp_path: Path) -> None:
    first, second = record_from_digits("44"), record_from_digits("4453")
    path = save_game(first, tmp_path, name=" Endgame study.c4g ")
    assert path == tmp_path / "Endgame study.c4g" and given_name(path) == "Endgame study"
    assert save_game(second, tmp_path, name="Endgame study") == path
    assert read_record(path) == second and saved_games(tmp_path) == [path]


def test_the_name_offered_is_when_and_free(tmp_path: Path) -> None:
    assert free_stamp_name(tmp_path, NOON) == "2026-11-22-120000"
    save_game(record_from_digits("4"), tmp_path, NOON)
    assert free_stamp_name(tmp_path, NOON) == "2026-11-22-120000-2"
    assert given_name(tmp_path / "2026-11-22-120000-2.c4g") is None


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("", "Type a name"),
        ("   .c4g", "Type a name"),
        ("a/b", "cannot have /"),
        ("a\\b", "cannot have"),
        ("what?", "cannot have"),
        ("tab\there", "control characters"),
        ("..", "cannot start with a dot"),
        ("x" * 101, "at most 100 characters"),
    ],
)
def test_a_name_no_file_can_have_says_why(typed: str, problem: str, tmp_path: Path) -> None:
    reason = name_problem(plain_name(typed))
    assert reason is not None and problem in reason
    with pytest.raises(ValueError, match="name"):
        save_game(record_from_digits("4"), tmp_path, name=typed)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["Ünïcödé partie", "[b]brackets[b]", "x" * 100])
def test_other_names_are_fine(name: str) -> None:
    assert name_problem(name) is None and saved_game_path(name).stem == name


def test_named_saves_are_listed_by_when_they_were_written(tmp_path: Path) -> None:
    record = record_from_digits("4")
    old = save_game(record, tmp_path, datetime(2026, 11, 20, 9, 0))
    named = save_game(record, tmp_path, name="zz study")
    newer = save_game(record, tmp_path, datetime(2026, 11, 22, 9, 0))
    written = datetime(2026, 11, 21, 9, 0).timestamp()
    os.utime(named, (written, written))
    assert saved_games(tmp_path) == [newer, named, old]
