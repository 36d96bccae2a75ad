"""Puzzles in the real app (issue 41): opened from the menu, a right move answered by the
defence and solved (the rating up, saved in the data folder), a wrong move explained by the
solver's reply in the search pool, the solution, the hint that keeps a try from counting as
solved, the next and the daily puzzle, a retry from the history, Esc back to the menu.

The first puzzle a new player gets is the shipped set's first (rated 1500, as a new
player): 64516715, Red to find d6, d5, d2 against Yellow's d6, d3."""

from __future__ import annotations

import asyncio
import random
from datetime import date

from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from c4tui.engine import Move, Player, parse_move
from c4tui.engine.sequence import play_sequence
from c4tui.puzzles.attempt import Refutation
from c4tui.puzzles.collection import daily_puzzle, shipped_puzzles
from c4tui.puzzles.keeping import load_progress, record_path
from c4tui.puzzles.puzzle import Puzzle
from c4tui.ui.app import C4App
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.puzzle_history import PuzzleHistory
from c4tui.ui.screens.puzzles import PuzzleScreen
from c4tui.ui.widgets.menu_button import MenuButton
from tests.ui.fuzz_keys import send_key
from tests.ui.helpers import SIZE, make_app, play, start_game
from tests.ui.test_ascii_screen import non_ascii

FIRST = shipped_puzzles()[0]
#: How long the pool may take to explain a wrong move (its worker starts first).
REFUTING_SECONDS = 120


async def puzzles_open(pilot: Pilot) -> PuzzleScreen:
    """Ctrl+Z in the menu: the puzzles."""
    await pilot.pause()
    await pilot.press("ctrl+z")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen)
    return screen


def line(screen: PuzzleScreen, name: str) -> str:
    """A panel line's words (``message``, ``turn``, ``standing``, ``about``) on one line."""
    return " ".join(str(screen.panel.query_one(f"#{name}", Static).render()).split())


async def play_column(pilot: Pilot, column_number: int) -> None:
    """The cursor to the column, then Enter."""
    await pilot.press(str(column_number), "enter")
    await pilot.pause()


def solver_columns(puzzle: Puzzle) -> list[int]:
    """The solver side's moves of the solution, as column numbers (1-based)."""
    return [parse_move(text).column + 1 for text in puzzle.solution[::2]]


async def explained(pilot: Pilot, screen: PuzzleScreen) -> None:
    """Wait for the pool's answer to a wrong move to be shown."""
    async with asyncio.timeout(REFUTING_SECONDS):
        while screen.checking:
            await asyncio.sleep(0.1)
    await pilot.pause()


async def test_ctrl_z_or_the_button_opens_the_first_puzzle_and_esc_goes_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        assert screen.trainer.puzzle == FIRST
        assert screen.board.state == play_sequence(FIRST.moves)
        assert line(screen, "turn") == "Red to move: find the winning line (3 moves)"
        assert "Rating 1500" in line(screen, "standing")
        assert "Puzzle 1, rated 1500" in line(screen, "about")
        assert "Themes: shown after the try" in line(screen, "about")  # no spoiler
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert app.screen.query_one("#puzzles", MenuButton).region.right <= SIZE[0]
        await pilot.click("#puzzles")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)


async def test_the_puzzles_button_shows_whole_at_80x24_beside_resume() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4")  # a game under way: Resume joins the buttons
        await pilot.press("escape")
        await pilot.pause()
        buttons = app.screen.query(MenuButton)
        assert [b.id for b in buttons if b.display][-1] == "puzzles"
        assert all(b.region.right <= SIZE[0] - 1 for b in buttons if b.display)
        assert "Puzzles (^z)" in str(app.screen.query_one("#puzzles", MenuButton).render())


async def test_right_moves_are_answered_by_the_defence_until_solved_and_the_rating_saved() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await play_column(pilot, 6)
        assert line(screen, "message") == "Right! Keep going. Yellow answers d6."
        after_defence = play_sequence(FIRST.moves + "66")
        assert screen.board.state == after_defence and screen.board.state.turn is Player.RED
        assert screen.board._last_move == Move.drop(5)  # the defence is marked
        await play_column(pilot, 5)
        await play_column(pilot, 2)
        said = line(screen, "message")
        assert said.startswith("Solved! Rating +")
        gained = int(said.removeprefix("Solved! Rating +").rstrip("."))
        assert gained > 0 and f"Rating {1500 + gained}" in line(screen, "standing")
        assert "Streak 1, best 1" in line(screen, "standing")
        assert "Themes: winning line" in line(screen, "about")
        kept, notice = load_progress()  # from the (test's own) data folder
        assert notice is None and kept.streak == 1 and round(kept.rating.rating) == 1500 + gained
        assert [(t.puzzle_id, t.solved) for t in kept.history] == [(FIRST.id, True)]


async def test_a_wrong_move_is_answered_by_the_solvers_reply_and_said_why() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await play_column(pilot, 1)
        if screen.checking:  # a warm worker may have answered already: then it is said below
            assert line(screen, "message") == "d1 is not the move. Checking…"
        await pilot.press("left")  # the keys answer meanwhile
        await explained(pilot, screen)
        said = line(screen, "message")
        assert said.startswith("d1 lets Yellow win: Yellow answers d4. Rating −")
        assert screen.board.state == play_sequence(FIRST.moves + "14")  # the reply, played
        assert screen.board._last_move == Move.drop(3)
        kept, _ = load_progress()
        assert [(t.puzzle_id, t.solved) for t in kept.history] == [(FIRST.id, False)]
        assert kept.rating.rating < 1500 and kept.streak == 0


async def test_a_late_answer_to_a_wrong_move_does_not_cover_the_solution_shown() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await play_column(pilot, 1)
        await explained(pilot, screen)
        await pilot.press("s")
        await pilot.pause()
        after_wrong = screen.trainer.attempt.state
        late = Refutation(Move.drop(3), Player.YELLOW)  # as the pool answers, once more
        screen.post_message(PuzzleScreen.Refuted(after_wrong, Move.drop(0), late))
        await pilot.pause()
        assert screen.board.state == play_sequence(FIRST.moves + "66532")
        assert line(screen, "message").startswith("Solution: d6 d6 d5 d3 d2.")


async def test_the_solution_is_played_out_and_seen_before_the_end_counts_as_failed() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert screen.board.state == play_sequence(FIRST.moves + "66532")
        said = line(screen, "message")
        assert said.startswith("Solution: d6 d6 d5 d3 d2. Seen before the end")
        assert "counts as failed" in said
        await play_column(pilot, 4)  # the try is over: no move is taken
        assert not screen.board.accepting
        assert screen.board.state == play_sequence(FIRST.moves + "66532")
        kept, _ = load_progress()
        assert [t.solved for t in kept.history] == [False]


async def test_a_hint_marks_the_column_and_the_try_does_not_count_as_solved() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert screen.board.cursor == 5 and screen.board.analysis == ("",) * 5 + ("▲", "")
        assert "Hint used: this try will not count as solved." in line(screen, "message")
        for column in solver_columns(FIRST):
            await play_column(pilot, column)
        assert line(screen, "message").startswith("Done, with a hint: not counted as solved.")
        kept, _ = load_progress()
        assert [t.solved for t in kept.history] == [False] and kept.streak == 0


async def test_next_gives_another_puzzle_and_a_begun_try_left_counts_as_failed() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("n")  # untouched: skipped, not recorded
        await pilot.pause()
        second = screen.trainer.puzzle
        assert second != FIRST and screen.board.state == play_sequence(second.moves)
        assert not record_path().exists()
        await play_column(pilot, solver_columns(second)[0])
        await pilot.press("n")
        await pilot.pause()
        assert screen.trainer.puzzle not in (FIRST, second)
        assert "left unfinished: it counts as failed" in line(screen, "message")
        kept, _ = load_progress()
        assert [(t.puzzle_id, t.solved) for t in kept.history] == [(second.id, False)]


async def test_the_daily_puzzle_is_the_days_and_ticked_once_solved() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("d")
        await pilot.pause()
        today = date.today()
        daily = daily_puzzle(shipped_puzzles(), today)
        assert screen.trainer.puzzle == daily
        assert f"Daily puzzle of {today.isoformat()}" in line(screen, "about")
        assert "✓" not in line(screen, "about")
        for column in solver_columns(daily):
            await play_column(pilot, column)
        assert f"Daily puzzle of {today.isoformat()} ✓ solved" in line(screen, "about")


async def test_the_history_lists_the_tries_failed_first_and_enter_retries_one_unrated() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("s", "n")  # the first failed (the solution seen)
        await pilot.pause()
        second = screen.trainer.puzzle
        for column in solver_columns(second):
            await play_column(pilot, column)  # the second solved
        await pilot.press("y")
        await pilot.pause()
        history = app.screen
        assert isinstance(history, PuzzleHistory)
        table = history.query_one(DataTable)
        assert [table.get_row_at(row)[2] for row in range(table.row_count)] == ["failed", "solved"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.trainer.puzzle == FIRST
        assert "A retry: not rated." in line(screen, "message")
        rating = load_progress()[0].rating
        for column in solver_columns(FIRST):
            await play_column(pilot, column)
        assert "(not rated)" in line(screen, "standing")
        assert load_progress()[0].rating == rating


async def test_a_damaged_record_is_set_aside_and_said_once() -> None:
    record_path().parent.mkdir(parents=True, exist_ok=True)
    record_path().write_text("{not json", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await puzzles_open(pilot)
        said = [n.message for n in app._notifications]
        assert len(said) == 1 and "damaged" in said[0]
        assert record_path().with_name("puzzles.json.broken").exists()


async def test_the_app_opens_at_the_puzzles_when_asked_and_esc_goes_to_the_menu() -> None:
    app = C4App(start_puzzles=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_with_ascii_only_every_character_of_the_puzzles_is_ascii() -> None:
    app = C4App(ascii_only=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await puzzles_open(pilot)
        await pilot.press("h")
        await pilot.pause()
        found = non_ascii(pilot, "a hint")
        await pilot.press("s")  # the rating's change: "-174", not a minus sign
        await pilot.pause()
        assert "Rating -" in line(screen, "message")
        found += non_ascii(pilot, "the solution")
        await pilot.press("y")
        await pilot.pause()
        found += non_ascii(pilot, "the history")
    assert not found, "\n".join(found)


async def test_random_keys_never_crash_the_puzzles() -> None:
    """Moves, wrong ones explained while n, r, d, s and Esc come in between: nothing raises."""
    keys = [*"1234567", *"1234567", "enter", "enter", "enter", *"hsnrdy", "left", "escape"]
    keys += ["ctrl+z", "ctrl+z"]
    rng = random.Random(41)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await puzzles_open(pilot)
        for pressed in range(1, 401):
            send_key(app, rng.choice(keys))
            await asyncio.sleep(0.002)
            if pressed % 40 == 0:
                await pilot.pause()
                assert app._exception is None, f"after {pressed} keys"
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert app._exception is None and app.return_code is None
        assert load_progress()[1] is None  # the record kept whole throughout
