"""results.json's exact shape, tournament.json read back, and the games --resume still owes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from c4tui.engine import Move
from c4tui.tournament.players import Entrant
from c4tui.tournament.results import (
    FolderError,
    GameResult,
    Options,
    Plan,
    missing_games,
    read_plan,
    read_results,
    write_plan,
    write_results,
)
from c4tui.tournament.schedule import make_schedule
from c4tui.tournament.setup import SetupError, check_players, new_options, resumed_options
from c4tui.tournament.standings import Outcome, Reason, standings
from tests.tournament.reviews import Judged, Slip

OPTIONS = Options(
    games=2, openings=2, movetime=500, columns=7, rows=6, rules="classic", seed=9, gauntlet=False
)
OPENINGS = (
    (Move.drop(3), Move.drop(2)),
    (Move.drop(0), Move.drop(6)),
    (Move.drop(1), Move.drop(1)),
)
PLAYER_KEYS = {"name", "games", "wins", "draws", "losses", "score", "elo", "elo_error", "failures"}
PLAYER_KEYS |= {"accuracy", "mistakes", "files"}


def plan() -> Plan:
    schedule = make_schedule(["ann", "hard", "bob"], 2, seed=9)
    return Plan(
        ("kaggle:ann.py", "hard", "engine:./bob"),
        ("ann", "hard", "bob"),
        OPTIONS,
        OPENINGS,
        tuple(schedule),
    )


def result(red: str, yellow: str, opening: int, outcome: Outcome, reason: Reason) -> GameResult:
    moves = (*OPENINGS[opening], Move.drop(4))
    return GameResult(red, yellow, OPENINGS[opening], moves, outcome, reason, "in words")


def test_results_json_has_exactly_the_issue_s_shape(tmp_path: Path) -> None:
    games = [
        result("ann", "hard", 0, Outcome.YELLOW, Reason.FOUR),
        result("bob", "ann", 1, Outcome.RED, Reason.CRASH),
        result("hard", "bob", 2, Outcome.DRAW, Reason.FULL),
    ]
    table = standings(["ann", "hard", "bob"], [game.played() for game in games])
    write_results(tmp_path, table, games)
    content = json.loads((tmp_path / "results.json").read_text())
    assert set(content) == {"players", "games"}
    ann = next(player for player in content["players"] if player["name"] == "ann")
    assert set(ann) == PLAYER_KEYS
    assert ann["failures"] == {"crash": 1, "time": 0, "illegal": 0}
    assert (ann["games"], ann["wins"], ann["losses"], ann["score"]) == (2, 0, 2, 0)
    assert ann["elo"] is None and ann["elo_error"] is None  # 0 %: -inf
    assert ann["accuracy"] is None and ann["mistakes"] == [] and ann["files"] == {}
    assert content["games"][1] == {
        "red": "bob",
        "yellow": "ann",
        "opening": "d1 d7",
        "moves": "d1 d7 d5",
        "result": "red",
        "reason": "crash",
        "detail": games[1].detail,
    }
    assert read_results(tmp_path) == games


def test_a_review_fills_accuracy_and_mistakes(tmp_path: Path) -> None:
    games = [result("ann", "hard", 0, Outcome.YELLOW, Reason.FOUR)]
    review = {"ann": Judged(0.8125, (Slip(1, 9, "win", "loss"),))}
    write_results(tmp_path, standings(["ann", "hard"], [g.played() for g in games], review), games)
    players = json.loads((tmp_path / "results.json").read_text())["players"]
    ann = next(player for player in players if player["name"] == "ann")
    assert ann["accuracy"] == 0.8125
    assert ann["mistakes"] == [{"game": 1, "move": 9, "before": "win", "after": "loss"}]


def test_the_plan_reads_back_as_it_was_written(tmp_path: Path) -> None:
    write_plan(tmp_path, plan())
    assert read_plan(tmp_path) == plan()


def test_a_folder_without_a_plan_or_with_a_broken_one_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(FolderError, match="not a tournament's folder"):
        read_plan(tmp_path)
    (tmp_path / "tournament.json").write_text("{not json")
    with pytest.raises(FolderError, match="cannot be read"):
        read_plan(tmp_path)


def test_resume_plays_only_the_games_still_missing() -> None:
    schedule = plan().schedule
    finished = [
        result(game.red, game.yellow, game.opening, Outcome.DRAW, Reason.FULL)
        for game in (schedule[4], schedule[0], schedule[2])
    ]
    missing = missing_games(schedule, OPENINGS, finished)
    assert missing == [schedule[1], schedule[3], schedule[5]]
    assert missing_games(schedule, OPENINGS, []) == list(schedule)
    everything = [result(g.red, g.yellow, g.opening, Outcome.RED, Reason.FOUR) for g in schedule]
    assert missing_games(schedule, OPENINGS, everything) == []


def test_a_resumed_tournament_keeps_its_options_and_refuses_changes_in_words() -> None:
    assert resumed_options(OPTIONS, {"games": None, "seed": 9, "movetime": None}) == OPTIONS
    with pytest.raises(SetupError, match="--games 4 differs from the tournament's 2"):
        resumed_options(OPTIONS, {"games": 4})
    with pytest.raises(SetupError, match="--gauntlet on differs"):
        resumed_options(OPTIONS, {"gauntlet": True})
    saved = [Entrant("ann", "kaggle:ann.py"), Entrant("hard", "hard")]
    check_players(saved, [])
    check_players(saved, list(saved))
    with pytest.raises(SetupError, match="keeps its players"):
        check_players(saved, [Entrant("hard", "hard")])


def test_a_new_tournament_s_defaults() -> None:
    options = new_options({"seed": 3})
    assert (options.games, options.openings, options.movetime) == (2, 0, 1000)
    assert (options.columns, options.rows, options.rules, options.gauntlet) == (
        7,
        6,
        "classic",
        False,
    )
    assert new_options({"games": 4, "seed": 3}).openings == 4  # more than one opening each
    assert new_options({"games": 4, "openings": 0, "seed": 3}).openings == 0
    assert isinstance(new_options({}).seed, int)
