"""Whole games played through the real app with key presses and clicks."""

from __future__ import annotations

from c4tui.engine import DrawReason, Player, Rules
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.widgets.board import Board
from tests.ui.helpers import SIZE, make_app, play, settle, start_game


def panel_text(screen: GameScreen, widget_id: str) -> str:
    return str(screen.query_one(f"#{widget_id}").render())


async def test_vertical_win_by_keys() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5 d4 d5 d4 d5 d4")
        state = screen.driver.state
        assert state.winner is Player.RED
        assert state.winning_cells() == {(3, row) for row in range(4)}
        assert "RED wins!" in panel_text(screen, "turn")
        assert "Four in a row" in panel_text(screen, "message")


async def test_diagonal_win_with_arrow_keys_and_space() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert screen.board.cursor == 3  # starts in the middle column
        # Move with the arrows, play with Space instead of digits and Enter.
        for column in [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]:
            while screen.board.cursor > column:
                await pilot.press("left")
            while screen.board.cursor < column:
                await pilot.press("right")
            await pilot.press("space")
        await pilot.pause()
        state = screen.driver.state
        assert state.winner is Player.RED
        assert state.winning_cells() == {(0, 0), (1, 1), (2, 2), (3, 3)}


async def test_draw_on_a_4x4_classic_board() -> None:
    app = make_app(columns=4, rows=4, rules=Rules.CLASSIC)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, " ".join(f"d{c}" for c in "1113233214423442"))
        state = screen.driver.state
        assert state.draw_reason is DrawReason.FULL_BOARD
        assert "Draw" in panel_text(screen, "turn")
        assert "the board is full" in panel_text(screen, "message")


async def test_pop_out_game_won_by_a_pop() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d2 d4 d2 d3 d4 d1 d2 p1 d3 d7 d5 p7 d1 d5 d5 d2")
        assert screen.driver.state.winner is None
        await pilot.press("p")
        assert "POP mode" in panel_text(screen, "mode")
        await pilot.press("5", "enter")  # red pops column 5: red's row of four falls into place
        await pilot.pause()
        state = screen.driver.state
        assert state.winner is Player.RED
        assert state.winning_cells() == {(c, 1) for c in range(1, 5)}
        assert not screen.board.pop_mode  # each move starts in drop mode again


async def test_double_four_pop_goes_to_the_popper() -> None:
    app = make_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d2 d3 d3 d4 d4 d1 d1 d7 p1")
        state = screen.driver.state
        assert state.winner is Player.RED
        yellow_row_would_win = {(c, 0) for c in range(4)}
        assert not yellow_row_would_win <= state.winning_cells()
        assert "RED wins!" in panel_text(screen, "turn")


async def test_refused_move_shows_why_and_keeps_the_turn() -> None:
    app = make_app(columns=5, rows=4, rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d1 d1 d1")
        await play(pilot, "d1")
        assert "Column 1 is full" in panel_text(screen, "message")
        assert screen.driver.state.turn is Player.RED
        await play(pilot, "d2")
        assert panel_text(screen, "message") == ""
        await play(pilot, "p1")
        assert "bottom disc of column 1 is not yours" in panel_text(screen, "message")
        await play(pilot, "p3")
        assert "Column 3 is empty" in panel_text(screen, "message")
        assert screen.driver.state.turn is Player.YELLOW
        assert len(screen.driver.moves) == 5


async def test_pop_in_classic_is_not_offered() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("p")
        assert screen.board.pop_mode is False
        assert not screen.query_one("#mode").display


async def test_undo_with_two_players_takes_back_one_move() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5")
        await pilot.press("u")
        await pilot.pause()
        assert [str(m) for m in screen.driver.moves] == ["d4"]
        assert screen.driver.state.turn is Player.YELLOW
        await pilot.press("u", "u")  # the second undo has nothing left to take back
        await pilot.pause()
        assert screen.driver.moves == ()


async def test_undo_against_the_computer_goes_back_to_before_your_move() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4")
        assert len(screen.driver.moves) == 2  # the computer answered
        await play(pilot, "d1")
        await pilot.press("u")
        await settle(pilot)
        assert len(screen.driver.moves) == 2
        assert str(screen.driver.moves[0]) == "d4"
        assert screen.driver.state.turn is Player.RED


async def test_computer_moves_first_when_you_play_yellow() -> None:
    app = make_app(opponent="computer", person_colour=Player.YELLOW)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert len(screen.driver.moves) == 1
        assert screen.driver.state.turn is Player.YELLOW
        await pilot.press("u")  # nothing of yours to undo yet
        await settle(pilot)
        assert len(screen.driver.moves) == 1


async def test_a_game_against_the_random_ai_to_the_end() -> None:
    app = make_app(opponent="computer", rules=Rules.POPOUT, columns=6, rows=5)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        for _ in range(400):
            state = screen.driver.state
            if state.is_over:
                break
            move = state.legal_moves()[0]
            await play(pilot, str(move))
        state = screen.driver.state
        assert state.is_over
        assert any(backend.label.startswith("Computer") for backend in screen.driver.seats.values())
        assert ("wins!" in panel_text(screen, "turn")) or state.is_draw


async def test_clicking_a_column_plays_there() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        board = screen.query_one(Board)
        width = board.look.width
        margin = (board.size.width - board.virtual_size.width) // 2
        await pilot.click(Board, offset=(margin + 5 * width + 1, 5))
        await pilot.pause()
        assert [str(m) for m in screen.driver.moves] == ["d6"]
        assert board.cursor == 5


async def test_two_digit_columns_on_a_wide_board() -> None:
    app = make_app(columns=20, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d17 d20 d10")
        assert [str(m) for m in screen.driver.moves] == ["d17", "d20", "d10"]


async def test_new_game_and_back_to_the_menu() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d4")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("y")  # "Start a new game? This one is not finished."
        await pilot.pause()
        assert screen.driver.moves == ()
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "MenuScreen"
