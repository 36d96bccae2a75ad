"""Perfect chosen in the menu: its solver loads while the person looks at the form (issue 43).

Its first move waited for the pool's worker to start and load the solver (0.7–1.7 s
after Start, a newcomer's trial). The menu now asks the worker to get ready as soon
as Perfect is the choice, after the first frame; other levels start nothing there.
"""

from __future__ import annotations

import pytest

from c4tui.engine import GameState
from c4tui.match.pool import SearchPool
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import make_app


@pytest.fixture
def warmed(monkeypatch: pytest.MonkeyPatch) -> list[GameState | None]:
    """The boards the shared pool was asked to get ready for (it still gets ready)."""
    asked: list[GameState | None] = []
    real = SearchPool.warm_up

    def spy(pool: SearchPool, start: GameState | None = None) -> None:
        asked.append(start)
        real(pool, start)

    monkeypatch.setattr(SearchPool, "warm_up", spy)
    return asked


async def test_perfect_in_the_menu_gets_the_solver_ready_for_the_board(
    warmed: list[GameState | None],
) -> None:
    app = make_app(opponent="computer", options={"level": "perfect"}, columns=7, rows=6)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert warmed and warmed[-1] == GameState.new(7, 6)


async def test_another_level_in_the_menu_starts_nothing_until_perfect_is_picked(
    warmed: list[GameState | None],
) -> None:
    app = make_app(opponent="computer", options={"level": "medium"})
    async with app.run_test() as pilot:
        await pilot.pause()
        assert warmed == []
        levels = app.screen.query_one("#option-computer-level", ChoiceSet)
        levels.chosen = levels.labels.index("Perfect")
        await pilot.pause()
        await pilot.pause()
        assert warmed and warmed[-1] == GameState.new(7, 6)
