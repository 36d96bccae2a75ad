"""The board keeps lines between paints: what it draws must match a board drawn afresh.

Random games (drops, pops, moves taken back, jumps as in review), threats on and
off, the cursor moving: after each change every line the board draws from what it
kept must equal the line made again from nothing.
"""

from __future__ import annotations

import random

import pytest
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.geometry import Region

from c4tui.engine import GameState, Rules
from c4tui.ui.widgets.board import Board


class BoardApp(App[None]):
    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        yield Board(self.state)


def drawn(board: Board) -> list[list[Segment]]:
    """Every virtual line of the board, as the board draws it now."""
    return [board._board_line(line) for line in range(board.virtual_size.height)]


def afresh(board: Board) -> list[list[Segment]]:
    """The same lines, made again from nothing."""
    kept = dict(board._kept.lines)
    board._kept.lines.clear()
    lines = drawn(board)
    board._kept.lines.update(kept)
    return lines


def random_board(seed: int) -> tuple[random.Random, list[GameState], BoardApp]:
    """A seeded random source, a history holding a new Pop Out board of a random size, its app."""
    rng = random.Random(seed)
    history = [GameState.new(rng.randint(4, 9), rng.randint(4, 8), Rules.POPOUT)]
    return rng, history, BoardApp(history[0])


def change_at_random(
    rng: random.Random, history: list[GameState], board: Board, falls: float = 0.3
) -> None:
    """One random change to what ``board`` shows, ``history`` kept in step with it.

    A move (its disc falling, with chance ``falls``), a move taken back, a jump as in review,
    threats on or off, or the cursor moved; a finished game starts again.
    """
    state = history[-1]
    if state.is_over:
        del history[1:]
        board.show(history[0], None)
        return
    choice = rng.random()
    if choice < 0.6 and state.legal_moves():
        move = rng.choice(state.legal_moves())
        history.append(state.play(move))
        board.show(history[-1], move, animate=rng.random() < falls)
    elif choice < 0.75 and len(history) > 1:
        history.pop()
        board.show(history[-1], None)
    elif choice < 0.85:
        board.show(rng.choice(history), None)  # a jump, as in review
    elif choice < 0.92:
        board.show_threats = not board.show_threats
    else:
        board.cursor = rng.randrange(state.columns)


@pytest.mark.parametrize("seed", range(4))
async def test_kept_lines_match_lines_drawn_afresh(seed: int) -> None:
    rng, history, app = random_board(seed)
    async with app.run_test(size=(100, 40)) as pilot:
        board = app.query_one(Board)
        for _ in range(60):
            change_at_random(rng, history, board)
            if rng.random() < 0.3:
                board.land()
            await pilot.pause()
            assert drawn(board) == afresh(board)


def screen_cells(board: Board) -> dict[tuple[int, int], tuple[str, object]]:
    """Every cell of the widget as it would look drawn afresh: (x, y) -> (character, style)."""
    kept = dict(board._kept.lines)
    board._kept.lines.clear()
    board._paint = None
    cells = {}
    for y in range(board.size.height):
        x = 0
        for segment in board.render_line(y):
            for character in segment.text:
                cells[x, y] = (character, segment.style)
                x += 1
    board._kept.lines.clear()
    board._kept.lines.update(kept)
    return cells


@pytest.mark.parametrize("seed", range(3))
async def test_every_cell_that_changes_on_screen_is_repainted(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board repaints only regions (a move: the cells it changed); none may be missed."""
    rng, history, app = random_board(seed)
    async with app.run_test(size=(100, 40)) as pilot:
        board = app.query_one(Board)
        repainted: list[Region | None] = []  # None: the whole widget
        refresh = board.refresh

        def recording(*regions: Region, **options: bool) -> Board:
            repainted.extend(regions or [None])
            return refresh(*regions, **options)

        monkeypatch.setattr(board, "refresh", recording)
        await pilot.pause()
        for _ in range(50):
            before = screen_cells(board)
            repainted.clear()
            change_at_random(rng, history, board, falls=0.6)
            await pilot.pause(rng.choice((0, 0.05, 0.2)))  # before, during or after a fall
            if rng.random() < 0.3:
                board.land()
                await pilot.pause()
            after = screen_cells(board)
            changed = {cell for cell in after if after[cell] != before.get(cell)}
            if None in repainted:
                continue
            missed = {
                cell
                for cell in changed
                if not any(region.contains(*cell) for region in repainted if region)
            }
            assert not missed, f"changed but not repainted: {sorted(missed)[:5]}"
