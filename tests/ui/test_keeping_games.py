"""Nothing is lost by one key: new game and quit ask first mid-game, the menu keeps the game
under Resume, an unfinished game is offered at the next start; games are saved, reviewed,
replayed and rematched."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from c4tui.engine import Move, Player, Rules
from c4tui.match.settings import MatchSettings
from c4tui.records import GameRecord, Result, format_record, parse_record, record_from_digits
from c4tui.records.store import saved_games, unfinished_game
from c4tui.ui.app import C4App
from c4tui.ui.preferences import load_preferences
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.widgets.menu_button import MenuButton
from c4tui.ui.widgets.move_list import MoveList
from c4tui.ui.widgets.phrasing import shortened
from tests.ui.helpers import (
    SIZE,
    left_for_the_menu,
    make_app,
    play,
    settle,
    start_game,
    typed_into_open,
)


async def game_kept_from_last_time() -> GameRecord:
    """A two-player game left after two moves by a first run of the app, and kept."""
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4 d5")
    kept = unfinished_game()
    assert kept is not None and len(kept.moves) == 2
    return kept


def message(screen: GameScreen | ReviewScreen) -> str:
    return str(screen.panel.query_one("#message", Static).render())


async def test_new_game_asks_first_and_no_keeps_the_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d4")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # "Cancel (n)"
        await pilot.pause()
        assert app.screen is screen
        assert len(screen.driver.moves) == 2


async def test_the_menu_keeps_the_game_under_resume() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await left_for_the_menu(pilot, "d4 d5")
        assert isinstance(app.screen, MenuScreen)
        assert app.screen.query_one("#resume", MenuButton).display
        assert "Resume" in str(app.screen.query_one("#resume-note", Static).render())
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen is screen
        await play(pilot, "d4")
        assert [str(move) for move in screen.driver.moves] == ["d4", "d5", "d4"]


async def test_starting_another_game_gives_up_the_one_behind_the_menu_after_asking() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        first = await left_for_the_menu(pilot, "d4")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        second = app.screen
        assert isinstance(second, GameScreen) and second is not first
        assert second.driver.moves == ()
        assert not first.is_attached  # the old game was removed: its seats are closed
        assert app.games.resumable() is None


async def test_quit_asks_mid_game_and_the_game_is_offered_at_the_next_start() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Resume offers it next time" in str(app.screen.query_one(Static).render())
        await pilot.press("y")
        await pilot.pause()
    kept = unfinished_game()
    assert kept is not None
    assert kept.moves[0] == Move.drop(3) and len(kept.moves) == 2  # with the computer's reply
    assert (kept.opponent, kept.person) == ("computer", Player.RED)

    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "from last time (2 moves)" in again.games.resumable()  # type: ignore[operator]
        await pilot.press("ctrl+r")
        await settle(pilot)
        screen = again.screen
        assert isinstance(screen, GameScreen)
        assert screen.driver.moves == kept.moves
        assert screen.settings.opponent == "computer"
        await play(pilot, "d4")
        assert len(screen.driver.moves) == 4


async def test_a_finished_game_is_not_kept_and_quits_at_once() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1")
        assert unfinished_game() is not None
        await play(pilot, "d2 d1")
        assert unfinished_game() is None
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None  # no question: nothing to lose


async def test_save_writes_a_record_that_reads_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")
        await pilot.press("s", "enter")  # the name offered: when it was saved
        await pilot.pause()
        said = message(screen).splitlines()
    [path] = saved_games()
    # The 18 columns of the panel at 80 x 24 take no more of the file's name than this.
    assert said[:2] == ["Saved:", shortened(path.stem, 18)]
    record = parse_record(path.read_text())
    assert record.result is Result.RED
    assert [str(move) for move in record.moves] == ["d1", "d2", "d1", "d2", "d1", "d2", "d1"]
    assert (record.red, record.yellow) == ("Player 1", "Player 2")


async def test_review_steps_through_the_moves_and_play_goes_on_from_any_of_them() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5 d6")
        await pilot.press("v", "left", "left")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.at == 1
        assert review.board.state.disc_count == 1
        assert "move 1 of 2" in message(review)  # numbered as the move list: RED's 1.
        await pilot.press("enter")  # reviewing: Enter plays nothing
        await pilot.press("home")
        await pilot.pause()
        assert review.board.state.disc_count == 0
        await pilot.press("end", "left", "escape")
        await pilot.pause()
        assert app.screen is screen and screen.board.state.disc_count == 3
        assert len(screen.driver.moves) == 3
        await pilot.press("v", "left", "left", "c")
        await pilot.pause()
        await pilot.press("y")  # the later moves are dropped: asked first
        await settle(pilot)
        played_on = app.screen
        assert isinstance(played_on, GameScreen) and played_on is not screen
        assert [str(move) for move in played_on.driver.moves] == ["d4"]
        await play(pilot, "d1")
        assert [str(move) for move in played_on.driver.moves] == ["d4", "d1"]


async def test_rematch_swaps_colours_keeps_the_score_and_the_menu_follows() -> None:
    app = make_app(opponent="computer", options={"level": "random"})
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        screen.driver.resign(Player.YELLOW, "the computer gave up")  # a quick result
        await settle(pilot)
        score = str(screen.panel.query_one("#score", Static).render()).splitlines()
        assert score == ["Score", "You 1", "Random 0", "draws 0"]  # the computer by its level
        await pilot.press("r")
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen) and rematch is not screen
        assert rematch.settings.person_colour is Player.YELLOW
        assert rematch.driver.seats[Player.RED].label.startswith("Computer")
        rematch.driver.resign(Player.YELLOW, "I gave up")
        await settle(pilot)
        score = str(rematch.panel.query_one("#score", Static).render()).splitlines()
        assert score == ["Score", "You 1", "Random 1", "draws 0"]
        await pilot.press("escape")  # the menu shows the game left: you played Yellow
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        settings = menu.settings()
        assert settings is not None and settings.person_colour is Player.YELLOW
    last = load_preferences().last_game  # and the next start offers it
    assert last == replace(rematch.settings, seed=None, ai_delay=MatchSettings().ai_delay)


async def test_digits_export_and_a_pasted_position_plays_on() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d4 d5")
        await pilot.press("x")
        await pilot.pause()
        assert "Digits (copied):\n445" in message(screen)
        assert app.clipboard == "445"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        field = app.screen.query_one(Input)
        field.focus()
        field.value = "44531"
        await pilot.press("enter")
        await settle(pilot)
        review = app.screen  # issue 40 #7: digits open for review, as a file does
        assert isinstance(review, ReviewScreen) and review.at == 0
        await pilot.press("end", "c")  # play on from its end
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)  # the game behind the menu is given up
        await pilot.press("y")
        await settle(pilot)
        pasted = app.screen
        assert isinstance(pasted, GameScreen)  # playing, not reviewing
        assert "".join(str(move.column + 1) for move in pasted.driver.moves) == "44531"
        await play(pilot, "d7")
        assert len(pasted.driver.moves) == 6


async def test_a_bad_paste_is_explained_and_a_saved_game_opens_from_the_list(
    tmp_path: Path,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d1 d2")
        await pilot.press("s", "enter", "escape")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        dialog.query_one(Input).focus()
        await pilot.press("9", "enter")
        await pilot.pause()
        assert "'9' is not a column" in str(dialog.query_one("#open-status", Static).render())
        dialog.query_one(OptionList).focus()
        await pilot.press("enter")  # the newest saved game
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ReviewScreen)  # viewing it gives up nothing: no question
        assert opened.at == 0  # a saved game opens for review, at the start
        assert app.games.resumable() is not None  # the game left for the menu still waits
        await pilot.press("end")
        await pilot.pause()
        assert opened.board.state.disc_count == 2


async def test_replay_opens_review_and_c_plays_on_against_the_recorded_opponent() -> None:
    record = parse_record(
        "Size: 7x6\nOpponent: computer level=random\nYou: red\nResult: unfinished\n\n1. d4 d3\n"
    )
    app = C4App(review=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.at == 0
        screen = app.screen_stack[-2]
        assert isinstance(screen, GameScreen)
        assert screen.driver.moves == record.moves
        await pilot.press("right")
        await pilot.pause()
        assert review.board.state.disc_count == 1
        await pilot.press("end", "c")
        await settle(pilot)
        assert app.screen is screen
        await play(pilot, "d4")
        assert len(screen.driver.moves) == 4  # the computer answered
        assert screen.driver.seats[Player.YELLOW].label.startswith("Computer")


async def test_a_record_of_a_forfeited_game_is_finished_and_quits_at_once() -> None:
    """A tournament's game that a program lost by crashing: its record gives the result."""
    record = parse_record(
        "Size: 7x6\nRed: hard\nYellow: flaky\n"
        "Result: red wins (flaky lost by crash: ValueError: oops)\n\n1. d4 d3\n"
    )
    app = C4App(review=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen_stack[-2]  # the game behind the review, as it was saved
        assert isinstance(screen, GameScreen) and not screen.unfinished
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None  # no question: nothing to lose


def test_a_digit_record_has_no_opponent() -> None:
    assert record_from_digits("44").opponent == ""


async def test_a_new_game_asks_before_replacing_the_one_kept_from_last_time() -> None:
    kept = await game_kept_from_last_time()

    second = make_app()
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Start game, with last time's game on offer
        await pilot.pause()
        assert isinstance(second.screen, ConfirmDialog)
        assert "from last time will be gone" in str(second.screen.query_one(Static).render())
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(second.screen, MenuScreen)
        assert unfinished_game() == kept  # still there
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(second.screen, GameScreen)
        assert unfinished_game() is None and second.games.resumable() is None


async def test_a_game_played_on_from_a_record_is_kept_before_its_next_move() -> None:
    app = C4App(review=record_from_digits("4453"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end", "c")  # play on from the end, as it stands
        await settle(pilot)
        kept = unfinished_game()
        assert kept is not None
        assert "".join(str(move.column + 1) for move in kept.moves) == "4453"


async def test_the_score_stays_in_view_during_a_rematch_and_names_who_plays_red() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")  # Player 1 (RED) wins
        await pilot.press("r")
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen) and rematch is not screen
        score = str(rematch.panel.query_one("#score", Static).render()).splitlines()
        assert score == ["Score", "Player 1 1", "Player 2 0", "draws 0"]
        turn = str(rematch.panel.query_one("#turn", Static).render())
        assert "RED to move" in turn and "Player 2" in turn  # the colours swapped


async def test_an_opened_finished_game_credits_the_right_player_and_does_not_count() -> None:
    app = make_app(columns=4, rows=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")
        await pilot.press("r")
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen)
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")  # Player 2 (RED now) wins
        record = rematch.record()
    assert (record.red, record.yellow, record.result) == ("Player 2", "Player 1", Result.RED)
    again = C4App(review=record)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        opened = again.screen_stack[-2]  # under its review: the game as it ended
        assert isinstance(opened, GameScreen)
        assert opened.driver.seats[Player.RED].label == "Player 2"
        assert opened.score.games == 0  # an old game is not this session's result
    del screen


async def test_review_shows_the_turn_and_moves_of_the_position_reviewed() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot)
        await play(pilot, "d4 d5 d6")
        await pilot.press("v", "left")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        turn = str(review.panel.query_one("#turn", Static).render())
        assert "RED to move" in turn  # after move 2, not YELLOW as in the game
        moves = review.panel.query_one(MoveList).text
        assert "d6" not in moves and "d5" in moves


async def test_replay_leaves_the_kept_game_alone_and_only_playing_on_asks() -> None:
    kept = await game_kept_from_last_time()

    app = C4App(review=record_from_digits("4453"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)  # no question first
        await pilot.press("right", "right")  # the keys step through the replay
        await pilot.pause()
        assert review.at == 2
        assert unfinished_game() == kept
        await pilot.press("end", "c")  # play on at its end: that replaces the kept game
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "from last time will be gone" in str(app.screen.query_one(Static).render())
        await pilot.press("n")  # keep it: back to the menu, where it is still offered
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert unfinished_game() == kept and app.games.resumable() is not None

    again = C4App(review=record_from_digits("4453"))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end", "c", "y")
        await settle(pilot)
        screen = again.screen
        assert isinstance(screen, GameScreen) and len(screen.driver.moves) == 4
        assert again.games.resumable() is None


async def test_undo_with_nothing_to_undo_says_so() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert message(screen) == "Nothing to undo"
        await play(pilot, "d4")
        await pilot.press("u")
        await pilot.pause()
        assert screen.driver.moves == ()


async def test_a_saved_server_game_names_its_players_in_the_review() -> None:
    """A record saved from a lobby's kept game (console ``save``, ``replay --server --save``)
    opens as two people here, yet the review says ann and bob, not Player 1 and 2."""
    moves = record_from_digits("4455667").moves  # RED's four along the bottom
    record = GameRecord(7, 6, Rules.CLASSIC, moves, red="ann", yellow="bob", result=Result.RED)
    app = C4App(review=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        shown = " ".join(str(widget.render()) for widget in app.screen.query(Static))
        assert "ann" in shown and "Player 1" not in shown, shown


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("{tmp}/nothing-there.c4", "No such file: {tmp}/nothing-there.c4"),
        ("{tmp}", "{tmp} is a folder: type a saved game's file in it"),
    ],
)
async def test_open_names_a_missing_file_or_a_folder_not_a_size_line(
    tmp_path: Path, typed: str, said: str
) -> None:
    """Issue 40 #6: Open said "the record has no Size line" for a file that is not there."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await typed_into_open(pilot, typed.format(tmp=tmp_path))
        await pilot.press("enter")
        await pilot.pause()
        shown = str(dialog.query_one("#open-status", Static).render())
        assert said.format(tmp=tmp_path) in shown, shown
        assert "Size line" not in shown and app.screen is dialog


async def test_p_in_a_classic_game_says_pop_out_is_off_and_where_to_turn_it_on() -> None:
    """Issue 40 #18: p did nothing at all in classic rules (its key hidden there)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        assert screen.settings.rules is Rules.CLASSIC
        await pilot.press("p")
        await pilot.pause()
        said = message(screen)
        assert said.startswith("Pop Out is off in classic rules"), said
        assert "menu's Rules" in said and not screen.pop_mode


async def a_game_behind_the_menu(pilot: Pilot[None]) -> None:
    """A game started, two moves played and left for the menu, where it waits."""
    await start_game(pilot)
    await play(pilot, "d1 d2")
    await pilot.press("escape")
    await pilot.pause()


async def opened_in_review(pilot: Pilot[None], typed: str) -> None:
    """``typed`` (a file, digits) opened with Open: its review shows."""
    await typed_into_open(pilot, typed)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReviewScreen)


async def test_esc_in_the_review_of_a_finished_game_leaves_asking_nothing(tmp_path: Path) -> None:
    """Issue 40 #9: Esc asked "Play on from this game?" of a game already over."""
    finished = tmp_path / "won.c4"
    finished.write_text(format_record(record_from_digits("4545454")), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await a_game_behind_the_menu(pilot)
        await opened_in_review(pilot, str(finished))
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen), type(app.screen).__name__  # no question
        assert app.games.resumable() is not None  # the game behind the menu still waits


async def test_esc_in_the_review_of_an_unfinished_game_opened_leaves_and_c_plays_on() -> None:
    """The trial: Esc in the review of 4453 opened asked "Play on from this game?" (it played
    on at its end) while the panel said "esc: back". Esc leaves; c at its end plays on."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await a_game_behind_the_menu(pilot)
        for key in ("escape", "c"):
            await opened_in_review(pilot, "4453")
            await pilot.press("end", key)
            await settle(pilot)
            if key == "escape":
                assert isinstance(app.screen, MenuScreen), type(app.screen).__name__
                assert app.games.resumable() is not None  # nothing was given up
        assert isinstance(app.screen, ConfirmDialog)  # c: give up the game behind the menu?
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert [str(move) for move in app.screen.driver.moves] == ["d4", "d4", "d5", "d3"]
