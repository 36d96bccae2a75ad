"""The analysis row: each column's outcome under the board, in the background."""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.ai.analysis import Analysis, ColumnVerdict, Outcome, analyse_columns
from c4tui.ai.search import SearchResult
from c4tui.engine import Move, Rules
from c4tui.ui.advice import ANALYSIS_GROUP, Advice, agreeing_hint, analysis_words
from c4tui.ui.screens.game import GameScreen
from tests.ui.helpers import SIZE, make_app, play, settle, start_game


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


async def answer_to(pilot: Pilot, key: str) -> str:
    """What the panel says once the search that ``key`` starts has finished."""
    await pilot.press(key)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return message(screen)


def expected_labels(screen: GameScreen) -> tuple[str, ...]:
    analysis = analyse_columns(screen.driver.state, 1.0)
    return tuple(v.label if v else "" for v in analysis.columns)


async def test_a_shows_proven_outcomes_and_follows_the_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert screen.board.analysis is None
        await pilot.press("a")
        await settle(pilot)
        assert screen.board.analysis == ("L20", "L21", "D", "W21", "D", "L21", "L20")
        assert "Analysis (proven): column 4 is best — win in 21" in message(screen)
        await play(pilot, "d4 d3")
        await settle(pilot)
        assert screen.board.analysis == expected_labels(screen)
        await pilot.press("a")
        await pilot.pause()
        assert screen.board.analysis is None
        assert "Analysis off" in message(screen)


async def test_elsewhere_the_row_is_an_estimate() -> None:
    app = make_app(columns=9, rows=9)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await settle(pilot)
        labels = screen.board.analysis
        assert labels is not None and len(labels) == 9
        assert set(labels) <= {"+", "=", "-"} or any(label[:1] in "WL" for label in labels)
        assert "estimate" in message(screen)


async def test_the_analysis_never_holds_up_a_key() -> None:
    app = make_app(columns=12, rows=10)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")
        await pilot.pause()
        running = [w for w in app.workers if w.group == ANALYSIS_GROUP and w.is_running]
        assert running  # a search of about a second has started
        before = screen.board.cursor
        await pilot.press("right")
        await pilot.pause()
        assert screen.board.cursor == before + 1
        assert any(w.is_running for w in running)  # the key did not wait for it
        await pilot.press("a")  # turning it off stops the search
        await settle(pilot)
        assert screen.board.analysis is None


async def test_once_the_game_is_over_analysis_can_only_be_turned_off() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("a")  # on during the game
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")  # red's four in column 1
        await settle(pilot)
        assert screen.driver.is_over
        assert screen.check_action("toggle_analysis", ()) is True  # still on: may be turned off
        await pilot.press("a")
        await pilot.pause()
        assert screen.board.analysis is None
        assert screen.check_action("toggle_analysis", ()) is False  # gone: nothing to analyse


async def test_the_hint_names_a_best_column_of_the_analysis_showing() -> None:
    """Pop Out 7 x 6 after d4 d3 d3 d4 p4 d5: every drop loses in 1, so the hint is one of them."""
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d3 d3 d4 p4 d5")
        said = await answer_to(pilot, "a")
        assert "every move loses in 1" in said and "is best" not in said  # all are equal
        assert screen.board.analysis is not None and set(screen.board.analysis) == {"L1"}
        assert (await answer_to(pilot, "h")).startswith("Hint: drop in column ")
        analysis = analyse_columns(screen.driver.state, 1.0)
        assert screen.board.cursor in analysis.best_columns()


def test_a_hint_from_a_search_that_disagrees_takes_the_analysis_best_column() -> None:
    even, good = ColumnVerdict(Outcome.EVEN, 0, 5), ColumnVerdict(Outcome.BETTER, 0, 90)
    analysis = Analysis(False, (even, even, even, good, even))
    own = SearchResult(Move.drop(0), 12, 6, 1000)
    assert agreeing_hint(own, analysis).move == Move.drop(3)
    assert agreeing_hint(SearchResult(Move.drop(3), 80, 6, 1000), analysis).move == Move.drop(3)
    popping = SearchResult(Move.pop(1), 40, 6, 1000)  # the row judges drops only
    assert agreeing_hint(popping, analysis) is popping
    lost, won = ColumnVerdict(Outcome.LOSS, 1, -20), ColumnVerdict(Outcome.WIN, 2, 19)
    decided = Analysis(True, (lost, None, won))
    assert Advice.hint_words(agreeing_hint(own, decided)) == (
        "Hint: drop in column 3 — you can force a win"
    )


def test_when_every_column_is_alike_the_panel_says_so_instead_of_naming_one_best() -> None:
    """20 x 20 showed "=" everywhere and "column 12 is best — looks even"."""
    even = Analysis(False, tuple(ColumnVerdict(Outcome.EVEN, 0, s) for s in (3, -7, 12, 0)))
    assert analysis_words(even) == "Analysis (estimate: a short search): all columns look even"
    lost = ColumnVerdict(Outcome.LOSS, 1, -20)
    assert analysis_words(Analysis(True, (lost, None, lost))) == (
        "Analysis (proven): every move loses in 1"
    )
    drawn = Analysis(True, (ColumnVerdict(Outcome.DRAW), ColumnVerdict(Outcome.DRAW)))
    assert analysis_words(drawn) == "Analysis (proven): every move draws"
    mixed = Analysis(True, (ColumnVerdict(Outcome.DRAW), ColumnVerdict(Outcome.WIN, 3, 18)))
    assert analysis_words(mixed) == "Analysis (proven): column 2 is best — win in 3"


def test_a_forced_result_found_by_the_search_is_called_proven() -> None:
    """Pop Out's L1 everywhere read "(estimate: a short search)": a forced loss is a proof."""
    lost = ColumnVerdict(Outcome.LOSS, 1, -20)
    assert analysis_words(Analysis(False, (lost, lost, lost))) == (
        "Analysis (proven by a short search): every move loses in 1"
    )
    won, even = ColumnVerdict(Outcome.WIN, 2, 19), ColumnVerdict(Outcome.EVEN, 0, 3)
    assert analysis_words(Analysis(False, (even, won, even))) == (
        "Analysis (proven by a short search): column 2 is best — win in 2"
    )
    good = ColumnVerdict(Outcome.BETTER, 0, 90)
    assert analysis_words(Analysis(False, (even, good))).startswith(
        "Analysis (estimate: a short search): column 2"
    )
