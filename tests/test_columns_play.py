"""A played game of Columns: fallers appear, score and level grow with chains, high scores."""

from __future__ import annotations

from c4tui.columns import Field
from c4tui.columns.play import (
    JEWELS_PER_LEVEL,
    POINTS_PER_JEWEL,
    ColumnsSession,
    fall_seconds,
)
from c4tui.columns.scores import HighScore, add_score, high_scores, scores_path


def test_a_new_faller_appears_in_the_middle_and_the_next_one_is_known() -> None:
    session = ColumnsSession(rows=6, columns=5, seed=3)
    upcoming = session.next_jewels
    session.tick()
    assert session.field.faller is not None
    assert session.field.faller.jewels == upcoming
    assert session.field.faller.column == 2  # the middle of five
    assert session.next_jewels != () and len(session.next_jewels) == 3


def test_a_game_left_alone_ends_and_replays_the_same_with_a_seed() -> None:
    def play(seed: int) -> tuple[int, Field]:
        session = ColumnsSession(rows=5, columns=3, seed=seed)
        ticks = 0
        while not session.over and ticks < 10_000:
            session.tick()
            ticks += 1
        return ticks, session.field

    first = play(7)
    assert first[1].over
    assert play(7) == first


def test_chains_score_more_than_single_matches() -> None:
    session = ColumnsSession(rows=5, columns=3, seed=1)
    session.field = Field.with_contents(5, 3, ["   ", "Y  ", "Y  ", "SS ", "YTT"])
    session.field = session.field.create_faller(3, ("X", "X", "S"))
    for _ in range(7):
        session.tick()
    # Three S at once (step 1), then three Y falling together (step 2).
    assert session.cleared == 6
    assert session.score == POINTS_PER_JEWEL * 3 * 1 + POINTS_PER_JEWEL * 3 * 2


def test_levels_rise_with_cleared_jewels_and_speed_up() -> None:
    session = ColumnsSession(start_level=2)
    assert session.level == 2
    session.cleared = JEWELS_PER_LEVEL * 3
    assert session.level == 5
    assert fall_seconds(5) < fall_seconds(2) < fall_seconds(1)


def test_high_scores_are_kept_best_first_and_a_bad_file_is_ignored() -> None:
    assert high_scores() == []
    assert add_score(HighScore(100, 1, "2026-11-22")) == 1
    assert add_score(HighScore(300, 2, "2026-11-22")) == 1
    assert [entry.score for entry in high_scores()] == [300, 100]
    for score in range(10):
        add_score(HighScore(1000 + score, 3, "2026-11-22"))
    assert add_score(HighScore(5, 1, "2026-11-22")) is None  # not good enough
    assert len(high_scores()) == 10
    scores_path().write_text("not json")
    assert high_scores() == []
