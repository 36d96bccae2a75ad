"""The game review that teaches (ai.game_review): each verdict kind on known positions, the
scores as Pons's test set gives them, each player's accuracy, estimates off 7 × 6 classic."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4tui.ai.game_review import review_game, review_move
from c4tui.ai.perfect import solver_for
from c4tui.ai.review_verdicts import (
    GRAPH_ASCII,
    GRAPH_BLOCKS,
    VERDICT_MARKS,
    GameReview,
    MoveReview,
    Verdict,
    evaluation_graph,
    verdict_mark,
    verdict_of_scores,
)
from c4tui.ai.solver import Position
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.sequence import play_sequence
from c4tui.match.pool import SearchPool

PONS = Path(__file__).parent / "data" / "pons"
EMPTY = GameState.new(7, 6, Rules.CLASSIC)


def drops(digits: str) -> tuple[Move, ...]:
    return tuple(Move.drop(int(digit) - 1) for digit in digits)


def pons_positions(name: str, count: int) -> list[tuple[str, int]]:
    lines = (PONS / name).read_text(encoding="utf-8").splitlines()[:count]
    return [(digits, int(score)) for digits, score in (line.split() for line in lines)]


def score_after(digits: str, column: int) -> int:
    """The mover's score after dropping in ``column``: the opponent's solved score, negated."""
    after = play_sequence(digits).drop(column)
    if after.winner is not None:
        return (42 + 1 - after.disc_count + 1) // 2
    if after.is_over:
        return 0  # the board is full
    return -solver_for(7, 6).solve(Position.of(after))


def last_move(digits: str, column: int) -> MoveReview:
    before = play_sequence(digits)
    return review_move(len(digits) + 1, before, Move.drop(column))


# ----- the verdicts from two scores ---------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "verdict"),
    [
        (5, 5, Verdict.BEST),
        (0, 0, Verdict.BEST),
        (-3, -3, Verdict.BEST),
        (5, 2, Verdict.INACCURACY),
        (-3, -7, Verdict.INACCURACY),
        (5, 0, Verdict.MISTAKE),
        (0, -4, Verdict.MISTAKE),
        (5, -4, Verdict.BLUNDER),
    ],
)
def test_each_verdict_follows_from_the_best_score_and_the_one_left(
    before: int, after: int, verdict: Verdict
) -> None:
    assert verdict_of_scores(before, after) is verdict


# ----- proven on 7 × 6 classic ----------------------------------------------------------


def test_on_the_empty_board_the_centre_wins_its_neighbours_draw_and_the_edges_lose() -> None:
    # The first player wins only in the centre (Pons: score 1, with its last disc).
    verdicts = {column: last_move("", column) for column in range(7)}
    assert {c: v.verdict for c, v in verdicts.items()} == {
        0: Verdict.BLUNDER,
        1: Verdict.BLUNDER,
        2: Verdict.MISTAKE,
        3: Verdict.BEST,
        4: Verdict.MISTAKE,
        5: Verdict.BLUNDER,
        6: Verdict.BLUNDER,
    }
    centre = verdicts[3]
    assert (centre.score_before, centre.score_after, centre.best) == (1, 1, (Move.drop(3),))
    assert centre.mover is Player.RED and centre.exact and centre.ply == 1
    assert verdicts[2].score_after == 0 and verdicts[0].score_after is not None
    assert verdicts[0].score_after < 0


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1_sample", "Test_L1_R1_sample"])
def test_the_best_score_before_a_move_is_pons_s_score_and_the_one_after_the_solver_s(
    name: str,
) -> None:
    for digits, score in pons_positions(name, 4):
        state = play_sequence(digits)
        for move in state.legal_moves()[:3]:
            review = last_move(digits, move.column)
            assert review.score_before == score, digits
            assert review.score_after == score_after(digits, move.column), digits
            assert review.verdict is verdict_of_scores(score, review.score_after)
            best_scores = {score_after(digits, m.column) for m in review.best}
            assert best_scores == {score}, digits


def test_a_slower_win_is_an_inaccuracy_and_the_faster_ones_are_shown_as_best() -> None:
    for digits, score in pons_positions("Test_L3_R1", 200):
        state = play_sequence(digits)
        slower = [
            move.column
            for move in state.legal_moves()
            if 0 < score_after(digits, move.column) < score
        ]
        if score > 0 and slower:
            break
    else:
        pytest.fail("no position with a slower win in the test set")
    review = last_move(digits, slower[0])
    assert review.verdict is Verdict.INACCURACY
    assert review.score_before == score and 0 < (review.score_after or 0) < score
    assert all(score_after(digits, move.column) == score for move in review.best)


def test_a_draw_thrown_to_a_loss_is_a_mistake() -> None:
    # After RED's 3 (a draw, from the empty board), YELLOW's draw is the best it has.
    reviews = [last_move("3", column) for column in range(7)]
    assert {r.score_before for r in reviews} == {0}
    losing = [r for r in reviews if (r.score_after or 0) < 0]
    assert losing and all(r.verdict is Verdict.MISTAKE for r in losing)
    assert all(r.mover is Player.YELLOW for r in reviews)


def test_a_whole_game_is_judged_move_by_move_with_each_player_s_accuracy() -> None:
    # RED blunders at once (1), YELLOW answers best (4 keeps its win), RED plays on.
    review = review_game(EMPTY, drops("144"))
    assert [m.ply for m in review.moves] == [1, 2, 3]
    assert [m.mover for m in review.moves] == [Player.RED, Player.YELLOW, Player.RED]
    first, second, third = review.moves
    assert first.verdict is Verdict.BLUNDER and second.verdict is Verdict.BEST
    credit = {Verdict.BEST: 1.0, Verdict.INACCURACY: 0.5}.get(third.verdict, 0.0)
    assert review.accuracy(Player.RED) == pytest.approx(credit / 2)
    assert review.accuracy(Player.YELLOW) == 1.0
    assert review.exact


def test_a_player_with_no_moves_has_no_accuracy() -> None:
    review = review_game(EMPTY, drops("4"))
    assert review.accuracy(Player.RED) == 1.0
    assert review.accuracy(Player.YELLOW) is None
    assert GameReview(()).accuracy(Player.RED) is None


def test_an_illegal_move_is_refused_by_its_number() -> None:
    with pytest.raises(ValueError, match="move 7"):
        review_game(EMPTY, drops("1111111"))


# ----- estimates elsewhere ---------------------------------------------------------------


def test_in_pop_out_the_verdicts_are_the_search_s_estimates_without_scores() -> None:
    # RED has 1, 2, 3 along the bottom and YELLOW three up column 7: RED's 4 wins,
    # anything else but blocking lets YELLOW win at once.
    start = GameState.new(7, 6, Rules.POPOUT)
    review = review_game(start, (*drops("172737"), Move.drop(5)), estimate_seconds=0.05)
    last = review.moves[-1]
    assert not review.exact and not last.exact
    assert (last.score_before, last.score_after) == (None, None)
    assert last.verdict is Verdict.BLUNDER
    assert last.best == (Move.drop(3),)


def test_a_winning_move_on_a_board_without_proofs_is_best() -> None:
    start = GameState.new(9, 7, Rules.CLASSIC)
    review = review_game(start, drops("1919191"), estimate_seconds=0.05)
    assert review.moves[-1].verdict is Verdict.BEST
    assert review.moves[-1].best == (Move.drop(0),)


# ----- in the app: the pool, the marks, the graph ---------------------------------------------


async def test_the_pool_reviews_a_game_in_its_worker_as_this_process_does() -> None:
    pool = SearchPool(workers=1)
    try:
        reviewed = await pool.review_game(EMPTY, drops("14445"), owner=object())
    finally:
        pool.shutdown()
    assert reviewed == review_game(EMPTY, drops("14445"))
    # The analysis row of the empty board: the centre wins with RED's 21st disc, 3 draws.
    assert reviewed.moves[0].labels[2:4] == ("D", "W21")


def test_the_marks_are_chess_s_and_a_best_move_has_none() -> None:
    review = review_game(EMPTY, drops("14445"))
    assert [verdict_mark(move) for move in review.moves] == ["??", "", "", "", "?!"]
    assert VERDICT_MARKS == {
        Verdict.INACCURACY: "?!",
        Verdict.MISTAKE: "?",
        Verdict.BLUNDER: "??",
    }


def test_the_graph_is_one_height_a_move_from_red_s_side_with_an_ascii_look() -> None:
    # 1: RED throws its win away (YELLOW wins: low); 4 … 4: YELLOW keeps it; 3: a draw.
    review = review_game(EMPTY, drops("1444"))
    graph = evaluation_graph(review)
    assert len(graph) == 4 and all(c in GRAPH_BLOCKS for c in graph)
    assert all(GRAPH_BLOCKS.index(c) < 3 for c in graph)  # below the draw: yellow wins
    assert evaluation_graph(review_game(EMPTY, drops("3"))) == GRAPH_BLOCKS[3]  # a draw
    assert GRAPH_BLOCKS.index(evaluation_graph(review_game(EMPTY, drops("4")))) > 3
    ascii_graph = evaluation_graph(review, ascii_only=True)
    assert ascii_graph.isascii() and len(ascii_graph) == 4
    assert [GRAPH_ASCII.index(c) for c in ascii_graph] == [GRAPH_BLOCKS.index(c) for c in graph]


def test_an_estimated_move_has_no_height_in_the_graph() -> None:
    start = GameState.new(7, 6, Rules.POPOUT)
    review = review_game(start, drops("44"), estimate_seconds=0.05)
    assert evaluation_graph(review) == "??"
