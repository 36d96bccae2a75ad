"""The review that teaches, in the app: a reviews the moves in the background (the marks in the
move list, the verdict on the move shown, the accuracies, the graph, the analysis row), ] and [
jump between mistakes, Save keeps the verdicts as annotations."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from textual.pilot import Pilot
from textual.widgets import Static

from c4tui.ai.review_verdicts import GRAPH_ASCII, evaluation_graph
from c4tui.engine import Move, Rules
from c4tui.records import GameRecord, parse_record, record_from_digits
from c4tui.records.store import saved_games
from c4tui.ui.app import C4App
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.widgets.move_list import MoveList
from tests.ui.helpers import SIZE, make_app, play, start_game

#: RED throws its win away at once (1: a blunder), both play on in the centre, and RED's
#: 5 is a faster loss than its 4 (an inaccuracy).
GAME = "14445"
#: A whole game of best play (Perfect against itself): its review takes seconds.
LONG_GAME = "44444222266662643333335552611111177777557"
#: The review's solver runs in the pool's process (its first start is slow on a loaded machine).
REVIEW_SECONDS = 120


async def until(pilot: Pilot[None], done: Callable[[], bool], seconds: float) -> None:
    async def wait() -> None:
        while not done():
            await pilot.pause(0.05)

    await asyncio.wait_for(wait(), seconds)
    await pilot.pause()


def message(review: ReviewScreen) -> str:
    return str(review.panel.query_one("#message", Static).render())


def said(review: ReviewScreen) -> str:
    """The panel's message as one line of words (the narrow panel breaks them anywhere)."""
    return " ".join(message(review).split())


def graph_shown(review: ReviewScreen, ascii_only: bool = False) -> bool:
    """Whether the evaluation graph is in the panel (cut in lines of its width)."""
    assert review.verdicts is not None
    return evaluation_graph(review.verdicts, ascii_only) in message(review).replace("\n", "")


async def opened(pilot: Pilot[None]) -> ReviewScreen:
    """The review the app opened on its record."""
    await pilot.pause()
    review = pilot.app.screen
    assert isinstance(review, ReviewScreen)
    return review


async def reviewed(pilot: Pilot[None], *keys: str) -> ReviewScreen:
    """The review the app opened (or ``keys`` open), a pressed, and its verdicts come."""
    await pilot.press(*keys)
    review = await opened(pilot)
    await pilot.press("a")
    await until(pilot, lambda: review.verdicts is not None, REVIEW_SECONDS)
    return review


@asynccontextmanager
async def review_of(
    digits: str, **options: bool
) -> AsyncIterator[tuple[Pilot[None], ReviewScreen]]:
    """The app opened on ``digits`` (``options``: the app's), a pressed, the verdicts come."""
    app = C4App(review=record_from_digits(digits), **options)
    async with app.run_test(size=SIZE) as pilot:
        yield pilot, await reviewed(pilot)


async def test_a_reviews_the_moves_and_marks_them_in_the_move_list() -> None:
    async with review_of(GAME) as (pilot, review):
        await pilot.press("end")
        await pilot.pause()
        moves = review.panel.query_one(MoveList).text
        assert moves.splitlines() == ["  1. d1?? d4", "  2. d4 d4", "  3. d5?!"]
        assert "d5: inaccuracy, best was d4" in said(review)
        assert "Accuracy: red 50 %, yellow 100 %" in said(review)
        assert graph_shown(review)
        await pilot.press("a")  # off again: no marks
        await pilot.pause()
        assert "?" not in review.panel.query_one(MoveList).text
        assert "Accuracy" not in message(review) and not graph_shown(review)


async def test_the_review_works_in_the_background_and_the_keys_go_on_meanwhile() -> None:
    app = C4App(review=record_from_digits(LONG_GAME))
    async with app.run_test(size=SIZE) as pilot:
        review = await opened(pilot)
        await pilot.press("a")
        assert review.verdicts is None and "Reviewing…" in message(review)
        await pilot.press("right", "right")
        assert review.at == 2 and review.verdicts is None
        assert "Reviewing…" in message(review)
        await until(pilot, lambda: review.verdicts is not None, REVIEW_SECONDS)
        assert "Reviewing" not in message(review)
        assert "Accuracy: red 100 %, yellow 100 %" in said(review)


async def test_the_analysis_row_shows_each_column_s_outcome_before_the_move() -> None:
    async with review_of(GAME) as (pilot, review):
        await pilot.press("home")
        await pilot.pause()
        assert (review.board.analysis or ())[2:4] == ("D", "W21")


async def test_brackets_jump_between_mistakes_and_say_when_there_are_no_more() -> None:
    async with review_of("1444455") as (pilot, review):
        assert review.verdicts is not None
        mistakes = [m.ply for m in review.verdicts.moves if m.verdict.threw_outcome]
        assert mistakes[0] == 1
        await pilot.press("home", "right_square_bracket")
        await pilot.pause()
        assert review.at == 1 and "d1: blunder, best was d4" in said(review)
        for ply in mistakes[1:]:
            await pilot.press("right_square_bracket")
            await pilot.pause()
            assert review.at == ply
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert review.at == mistakes[-1] and "No more mistakes." in message(review)
        await pilot.press("home", "left_square_bracket")
        await pilot.pause()
        assert review.at == 0 and "No earlier mistakes." in message(review)


async def test_brackets_before_the_review_say_to_press_a() -> None:
    app = C4App(review=record_from_digits(GAME))
    async with app.run_test(size=SIZE) as pilot:
        review = await opened(pilot)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert review.at == 0 and "a reviews the moves first." in message(review)


async def test_save_after_the_review_keeps_the_verdicts_as_annotations() -> None:
    app = C4App(review=record_from_digits(GAME))
    async with app.run_test(size=SIZE) as pilot:
        await reviewed(pilot)
        await pilot.press("s", "enter")
        await pilot.pause()
    [path] = saved_games()
    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.comments[1:] == (
        "1. d1 red blunder (best: d4)",
        "5. d5 red inaccuracy (best: d4)",
        "Accuracy: red 50 %, yellow 100 %",
    )


async def test_with_ascii_only_the_graph_is_ascii() -> None:
    async with review_of(GAME, ascii_only=True) as (_, review):
        assert graph_shown(review, ascii_only=True)
        assert review.verdicts is not None
        graph = evaluation_graph(review.verdicts, ascii_only=True)
        assert len(graph) == len(GAME) and all(c in GRAPH_ASCII for c in graph)


async def test_off_7_by_6_classic_the_verdicts_are_marked_as_estimates() -> None:
    # Pop Out: RED can win along the bottom with 4 but plays 6, and YELLOW wins up column 7.
    moves = tuple(Move.drop(int(d) - 1) for d in "1727376")
    app = C4App(review=GameRecord(7, 6, Rules.POPOUT, moves))
    async with app.run_test(size=SIZE) as pilot:
        review = await reviewed(pilot)
        await pilot.press("end")
        await pilot.pause()
        assert "d6: blunder, best was d4 (estimated)" in said(review)
        assert "(estimated)" in said(review).split("Accuracy:")[1]
        assert "d6??" in review.panel.query_one(MoveList).text


async def test_v_in_a_game_then_a_reviews_the_game_so_far() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d1 d4 d4")
        review = await reviewed(pilot, "v")
        assert review.verdicts is not None
        assert [m.verdict.value for m in review.verdicts.moves] == ["blunder", "best", "best"]
        assert "1. d1?? d4" in review.panel.query_one(MoveList).text


async def test_the_marked_move_list_stays_on_screen_at_80_by_24_after_a_game_lost() -> None:
    """The trial: at 80 × 24, after a game against Easy, v and a pushed the move list (the
    only place the ?!, ? and ?? marks show) below the footer: the score's line took its room."""
    app = make_app(opponent="computer", options={"level": "easy"})
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start_game(pilot)
        while not game.driver.state.is_over:
            await play(pilot, str(game.driver.state.legal_moves()[0]))
        assert game.panel.score  # the score's line is in the panel now
        review = await reviewed(pilot, "v")
        moves = review.panel.query_one("#moves", MoveList)
        assert moves.region.height >= 1, "no line of the move list is on screen"
        assert moves.region.bottom <= app.size.height - 1  # above the footer
        assert any(mark in moves.text for mark in ("?!", "??", "?"))
