"""What the tournament shows: plain lines and the plain table, and the live view at 80 and 60
columns."""

from __future__ import annotations

import io
import re
from dataclasses import replace

from rich.console import Console

from c4tui.engine import Move
from c4tui.tournament.live import LiveReporter, standings_table
from c4tui.tournament.report import PlainReporter
from c4tui.tournament.results import GameResult
from c4tui.tournament.standings import Outcome, Played, Reason, standings
from c4tui.tournament.table import elo_text, plain_table
from tests.tournament.reviews import Judged, Slip

NAMES = ["a_long_student_name", "hard", "medium", "crashy"]
GAMES = [
    Played("hard", "medium", Outcome.RED, Reason.FOUR),
    Played("medium", "crashy", Outcome.RED, Reason.CRASH),
    Played("a_long_student_name", "hard", Outcome.DRAW, Reason.FULL),
    Played("crashy", "a_long_student_name", Outcome.YELLOW, Reason.TIME),
]
RESULT = GameResult("medium", "crashy", (), (Move.drop(3),), Outcome.RED, Reason.CRASH, "boom")


def test_the_plain_table_aligns_columns_and_shows_infinite_elo_as_inf() -> None:
    text = plain_table(standings(NAMES, GAMES))
    lines = text.splitlines()
    assert lines[0].split() == [
        "#", "Player", "Games", "W", "D", "L", "Score", "Elo", "±95%", "Crash", "Time", "Illegal",
    ]  # fmt: skip
    crashy = next(line for line in lines if "crashy" in line)
    assert "-inf" in crashy and crashy.split()[-3:] == ["1", "1", "0"]
    assert elo_text(12.4) == "+12" and elo_text(-0.2) == "0"


def test_a_review_adds_the_accuracy_column_and_the_costliest_mistakes() -> None:
    review = {"hard": Judged(0.9, (Slip(3, 9, "win", "loss"),))}
    text = plain_table(standings(NAMES, GAMES, review))
    assert text.splitlines()[0].split()[-1] == "Accuracy"
    assert "90%" in next(line for line in text.splitlines() if " hard " in line)
    assert text.splitlines()[-2:] == ["Costliest mistakes:", "  hard: game 3, move 9: win → loss"]


def test_plain_lines_say_each_game_as_it_ends() -> None:
    out = io.StringIO()
    reporter = PlainReporter(out)
    reporter.begin(12, 2, [])
    reporter.game_over(RESULT, 3, [])
    reporter.end()
    assert out.getvalue().splitlines() == [
        "10 games to play (2 already played)",
        "[3/12] medium - crashy 1-0 (crash: boom; 1 moves)",
    ]


def test_the_live_view_fits_80_columns() -> None:
    screen = io.StringIO()
    console = Console(file=screen, width=80, force_terminal=True, color_system=None)
    review = {"hard": Judged(0.9)}
    console.print(standings_table(standings([*NAMES, "x" * 32], GAMES, review)))
    lines = screen.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Accuracy" in lines[0] and any("a_long_student_name" in line for line in lines)
    reporter = LiveReporter(console)
    reporter.begin(12, 0, standings(NAMES, []))
    reporter.game_over(RESULT, 1, standings(NAMES, GAMES))
    reporter.end()
    assert "1/12" in screen.getvalue() and "11 left" in screen.getvalue()


def test_the_live_view_fits_60_columns_and_says_when_the_games_should_be_done() -> None:
    screen = io.StringIO()
    console = Console(file=screen, width=60, color_system=None)
    names = [*NAMES, "x" * 32]
    table = standings(names, GAMES, {"hard": Judged(0.9)})
    reporter = LiveReporter(console, concurrency=2)
    reporter.begin(12, 0, standings(names, []))
    console.print(reporter.view())
    assert "ETA -:--:--" in screen.getvalue()  # no game finished: nothing to go by
    # A game of 10 s: the 11 left take 6 such rounds, two games at once.
    reporter.game_over(replace(RESULT, seconds=10.0), 1, table)
    start = len(screen.getvalue())
    console.print(reporter.view())
    reporter.end()
    lines = screen.getvalue()[start:].splitlines()
    assert lines and all(len(line) <= 60 for line in lines)
    (eta,) = re.findall(r"ETA (\d+):(\d\d):(\d\d)", lines[0])
    hours, minutes, seconds = map(int, eta)
    assert 50 <= hours * 3600 + minutes * 60 + seconds <= 60  # counting down from 60 s
    assert "1/12" in lines[0] and "11 left" in lines[0]
    # Every number whole, a long name cut short; the failures of every kind added up.
    cells = {line.split()[1]: line.split()[2:] for line in lines[2:7]}
    assert cells["hard"] == ["2", "1", "1", "0", "1.5", "+179", "±321", "0", "90%"]
    assert cells["crashy"] == ["2", "0", "0", "2", "0", "-inf", "2", "-"]
    assert any(name.startswith("xxxxxxxx") and name.endswith("…") for name in cells)
    assert any(line.startswith("[1/12] medium - crashy 1-0") for line in lines)


def test_the_final_table_takes_the_compact_columns_where_the_full_ones_do_not_fit() -> None:
    games = [Played("a-rather-long-name", "bob", Outcome.RED, Reason.CRASH)] * 3
    table = standings(["a-rather-long-name", "bob"], games)
    full, narrow = plain_table(table).splitlines(), plain_table(table, 60).splitlines()
    assert max(map(len, full)) > 60 and "Illegal" in full[0]
    assert max(map(len, narrow)) <= 60 and narrow[0].endswith("Fail")
    assert narrow[2].split()[-1] == "3"  # bob's three crashes, added up
    assert plain_table(table, 200) == plain_table(table)  # room enough: every column
