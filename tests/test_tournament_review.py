"""The solver's review of a tournament's games: every verdict proven, accuracy, the costliest
mistakes, the opening left out, the records' annotations, the work done in the pool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from c4tui.ai.perfect import exact_scores
from c4tui.ai.proven_outcomes import proven_outcomes
from c4tui.ai.search import SearchAborted
from c4tui.engine import Move, Player, Rules
from c4tui.engine.sequence import play_sequence
from c4tui.match.pool import SearchPool
from c4tui.records import GameRecord, Result, format_record, parse_record
from c4tui.tournament.review import (
    MISTAKES_SHOWN,
    GameReview,
    Mistake,
    MoveVerdict,
    Outcome,
    costliest,
    player_reviews,
    review_game,
    reviewable,
    verdicts_from_outcomes,
)

ROOT = Path(__file__).resolve().parent.parent
PONS = Path(__file__).parent / "data" / "pons"
#: 16 moves in, RED to move: columns 3 and 5 hold a draw (tests/test_turning_point.py).
OPENING = "3651433667521135"
#: RED holds (3), YELLOW answers (3), RED plays 1 where 5 held a draw (move 19: draw →
#: loss), and YELLOW wins with best play.
ENDGAME = "33155444"
WIN, DRAW, LOSS = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def drops(digits: str) -> tuple[Move, ...]:
    return tuple(Move.drop(int(digit) - 1) for digit in digits)


def sign(number: int) -> int:
    return (number > 0) - (number < 0)


def pons_positions(name: str, count: int) -> list[tuple[str, int]]:
    lines = (PONS / name).read_text(encoding="utf-8").splitlines()[:count]
    return [(digits, int(score)) for digits, score in (line.split() for line in lines)]


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    one = SearchPool(workers=1)
    yield one
    one.shutdown()


# ----- the proven outcomes (the solver, here in the test's process) ---------------------


@pytest.mark.parametrize(
    "name", ["Test_L3_R1", "Test_L2_R1_sample", "Test_L2_R2_sample", "Test_L1_R1_sample"]
)
def test_each_position_is_proven_as_pons_scores_it(name: str) -> None:
    for digits, score in pons_positions(name, 12):
        assert proven_outcomes(drops(digits), len(digits)) == (sign(score),), digits


def test_a_move_that_throws_a_won_position_away_is_a_mistake_and_the_best_move_is_kept() -> None:
    digits, score = next((d, s) for d, s in pons_positions("Test_L3_R1", 40) if s > 0)
    scores = exact_scores(play_sequence(digits))
    assert scores is not None
    best = scores.index(score)
    losing = next(column for column, s in enumerate(scores) if s is not None and s < 0)
    for column, after in [(best, WIN), (losing, LOSS)]:
        moves = (*drops(digits), Move.drop(column))
        (verdict,) = verdicts_from_outcomes(moves, len(digits), proven_outcomes(moves, len(digits)))
        assert (verdict.number, verdict.before, verdict.after) == (len(moves), WIN, after)
        assert verdict.kept is (after is WIN)


def test_a_won_position_thrown_to_a_draw_costs_half_a_point() -> None:
    found = []
    for digits, score in pons_positions("Test_L3_R1", 200):
        scores = exact_scores(play_sequence(digits))
        if score > 0 and scores is not None and 0 in scores:
            found.append((digits, scores.index(0)))
    digits, drawing = found[0]
    moves = (*drops(digits), Move.drop(drawing))
    (verdict,) = verdicts_from_outcomes(moves, len(digits), proven_outcomes(moves, len(digits)))
    assert (verdict.before, verdict.after, verdict.cost) == (WIN, DRAW, 0.5)


def test_the_endgame_s_one_mistake_and_the_opening_left_out() -> None:
    moves = drops(OPENING + ENDGAME)
    verdicts = verdicts_from_outcomes(moves, 16, proven_outcomes(moves, 16))
    assert [v.number for v in verdicts] == list(range(17, 25))  # the opening's 16 are not judged
    assert [v.mover for v in verdicts[:2]] == [Player.RED, Player.YELLOW]
    (mistake,) = [v for v in verdicts if not v.kept]
    assert mistake == MoveVerdict(19, Move.drop(0), Player.RED, DRAW, LOSS)
    assert mistake.words() == "move 19 (Red, d1): draw → loss"
    assert verdicts[-1].after is WIN  # YELLOW's last move made four: known without a solve


def test_a_game_cut_short_is_judged_up_to_its_last_move() -> None:
    moves = drops(OPENING + "331")  # RED's d1 was its last move: then YELLOW crashed
    verdicts = verdicts_from_outcomes(moves, 16, proven_outcomes(moves, 16))
    assert verdicts[-1] == MoveVerdict(19, Move.drop(0), Player.RED, DRAW, LOSS)


def test_a_move_that_is_not_legal_is_refused() -> None:
    with pytest.raises(ValueError, match=r"move 7 \(d1\): column 1 is full"):
        proven_outcomes(drops("1111111"))
    with pytest.raises(ValueError, match="no move"):
        proven_outcomes(drops("44"), 3)


def test_a_cancelled_review_stops() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(SearchAborted):
        proven_outcomes(drops(OPENING + ENDGAME), 16, cancel)


def test_only_7_x_6_classic_is_reviewed() -> None:
    assert reviewable(7, 6, Rules.CLASSIC)
    assert not reviewable(7, 6, Rules.POPOUT)
    assert not reviewable(8, 7, Rules.CLASSIC)
    assert not reviewable(6, 7, Rules.CLASSIC)


# ----- accuracy and the costliest mistakes ----------------------------------------------


def verdict(number: int, before: Outcome, after: Outcome) -> MoveVerdict:
    mover = Player.RED if number % 2 else Player.YELLOW
    return MoveVerdict(number, Move.drop(3), mover, before, after)


def test_accuracy_is_the_share_of_judged_moves_that_kept_the_best_outcome() -> None:
    game_one = GameReview(
        (
            verdict(3, WIN, WIN),
            verdict(4, LOSS, LOSS),
            verdict(5, WIN, DRAW),
            verdict(6, DRAW, DRAW),
            verdict(7, DRAW, DRAW),
        ),
        opening_plies=2,
    )
    game_two = GameReview((verdict(3, DRAW, LOSS), verdict(4, WIN, WIN)), opening_plies=2)
    within_the_opening = GameReview((), opening_plies=2)
    reviews = player_reviews(
        [("ann", "bob", game_one), ("bob", "ann", game_two), ("cid", "ann", within_the_opening)]
    )
    assert list(reviews) == ["ann", "bob", "cid"]
    ann, bob, cid = reviews["ann"], reviews["bob"], reviews["cid"]
    assert (ann.kept, ann.judged, ann.accuracy) == (3, 4, 0.75)  # 3, 5, 7 in game 1; 4 in 2
    assert (bob.kept, bob.judged) == (2, 3)
    assert bob.accuracy == pytest.approx(2 / 3)
    assert bob.accuracy_words() == "66 %"  # rounded down: a mistake never reads 100 %
    assert (cid.accuracy, cid.mistakes, cid.accuracy_words()) == (None, (), "–")
    assert [m.words_with_game() for m in ann.mistakes] == ["game 1, move 5: win → draw"]
    assert [m.words_with_game() for m in bob.mistakes] == ["game 2, move 3: draw → loss"]
    assert bob.to_json() == {
        "accuracy": 0.6667,
        "mistakes": [{"game": 2, "move": 3, "played": "d4", "before": "draw", "after": "loss"}],
    }
    assert cid.to_json() == {"accuracy": None, "mistakes": []}


def test_the_costliest_mistakes_come_first_then_the_earliest() -> None:
    mistakes = [
        Mistake(1, "ann", verdict(10, WIN, DRAW)),
        Mistake(1, "ann", verdict(5, DRAW, LOSS)),
        Mistake(2, "ann", verdict(20, WIN, LOSS)),
        Mistake(2, "ann", verdict(12, WIN, LOSS)),
    ]
    assert [m.words_with_game() for m in costliest(mistakes, shown=4)] == [
        "game 2, move 12: win → loss",
        "game 2, move 20: win → loss",
        "game 1, move 5: draw → loss",
        "game 1, move 10: win → draw",
    ]
    assert len(costliest(mistakes)) == MISTAKES_SHOWN == 3
    assert costliest(mistakes)[0].words() == "move 12: win → loss"


# ----- the records' annotations ----------------------------------------------------------


def test_the_annotations_say_what_was_judged_and_every_mistake() -> None:
    moves = drops(OPENING + ENDGAME)
    review = GameReview(verdicts_from_outcomes(moves, 16, proven_outcomes(moves, 16)), 16)
    assert review.comments() == (
        "The solver's review: the best outcome each move's player could force, before → after",
        "(the opening's 16 moves are not judged)",
        "Red kept the best outcome with 3 of 4 moves (75 %)",
        "Yellow kept the best outcome with 4 of 4 moves (100 %)",
        "move 19 (Red, d1): draw → loss",
    )
    assert GameReview((verdict(1, DRAW, DRAW),)).comments()[-1] == "No move threw an outcome away"
    assert GameReview((), 4).comments() == ()


def test_an_annotated_record_reads_back_with_the_same_moves_and_annotations() -> None:
    moves = drops(OPENING + ENDGAME)
    review = GameReview(verdicts_from_outcomes(moves, 16, proven_outcomes(moves, 16)), 16)
    plain = GameRecord(7, 6, Rules.CLASSIC, moves, "ann", "bob", result=Result.YELLOW)
    annotated = GameRecord(
        7, 6, Rules.CLASSIC, moves, "ann", "bob", result=Result.YELLOW, comments=review.comments()
    )
    text = format_record(annotated)
    # After the moves, a blank line, then the annotations as comment lines:
    assert text == format_record(plain) + "\n" + "".join(f"# {c}\n" for c in review.comments())
    assert parse_record(text) == annotated
    assert parse_record(text).moves == plain.moves


# ----- in the pool's processes -------------------------------------------------------------


async def test_a_game_is_reviewed_in_the_pool_as_the_solver_proves_it(pool: SearchPool) -> None:
    moves = drops(OPENING + ENDGAME)
    review = await review_game(pool, moves, 16, owner="game 1")
    assert review == GameReview(verdicts_from_outcomes(moves, 16, proven_outcomes(moves, 16)), 16)
    assert pool.completed == 1  # one job for the whole game


async def test_a_game_over_within_its_opening_asks_the_pool_nothing(pool: SearchPool) -> None:
    assert await review_game(pool, drops("4444"), 4) == GameReview((), 4)
    assert await review_game(pool, drops("44"), 4) == GameReview((), 2)
    assert pool.completed == 0


async def test_a_game_that_is_not_legal_is_refused_by_the_pool(pool: SearchPool) -> None:
    with pytest.raises(ValueError, match="column 1 is full"):
        await review_game(pool, drops("1111111"), 2)


def test_the_solver_loads_only_in_the_pool_s_processes() -> None:
    code = textwrap.dedent(
        f"""
        import asyncio, json, sys
        from c4tui.engine import Move
        from c4tui.match.pool import SearchPool
        from c4tui.tournament.review import review_game

        async def main():
            pool = SearchPool(workers=1)
            try:
                moves = [Move.drop(int(d) - 1) for d in {OPENING + ENDGAME!r}]
                return await review_game(pool, moves, 16)
            finally:
                pool.shutdown()

        review = asyncio.run(main())
        loaded = [m for m in ("numpy", "numba", "c4tui.ai.solver") if m in sys.modules]
        print(json.dumps([len(review.verdicts), loaded]))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [8, []]
