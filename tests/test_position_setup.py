"""Positions set up by hand and board pictures: each refusal says why, and a playable
position is played as drops that reach exactly its board and side to move."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine import GameState, Move, MoveKind, Player, PositionError, Rules, render_board
from c4tui.engine.picture import (
    PictureError,
    looks_like_picture,
    read_picture,
    write_picture,
)
from c4tui.engine.sequence import UndecidedPosition, drops_reaching
from c4tui.engine.setup import SetUp, cell_name

EMPTY_7X6 = "\n".join(["......."] * 6)


def picture(*rows: str) -> str:
    return "\n".join(rows)


# ----- reading pictures ------------------------------------------------------------------


def test_a_picture_gives_its_board_and_the_side_to_move_from_the_counts() -> None:
    setup = read_picture(picture(".......", ".......", ".......", ".......", "...o...", "..xx..."))
    state = setup.state()
    assert (setup.columns, setup.rows) == (7, 6)
    assert state.cell(2, 0) is Player.RED and state.cell(3, 0) is Player.RED
    assert state.cell(3, 1) is Player.YELLOW
    assert setup.turn is Player.YELLOW
    assert setup.problem() is None


def test_rows_on_one_line_with_slashes_and_the_board_texts_own_letters_read_alike() -> None:
    lines = read_picture(picture("....", "....", "....", "xo.."))
    slashes = read_picture("..../..../..../RY..")
    assert lines == slashes
    assert lines.turn is Player.RED


def test_the_console_board_text_reads_back_header_spaces_and_all() -> None:
    state = GameState.new().play_all([Move.drop(3), Move.drop(3), Move.drop(2)])
    setup = read_picture(render_board(state))
    assert setup.state().red == state.red and setup.state().yellow == state.yellow
    assert setup.turn is state.turn


def test_a_picture_of_another_size_gives_that_board() -> None:
    setup = read_picture("/".join(["." * 12] * 4), Rules.POPOUT)
    assert (setup.columns, setup.rows, setup.rules) == (12, 4, Rules.POPOUT)


def test_ragged_rows_are_refused_naming_the_line() -> None:
    with pytest.raises(PictureError, match="line 3 of the picture has 6 cells and line 1 has 7"):
        read_picture(picture(".......", ".......", "......", ".......", ".......", "......."))


def test_a_character_that_is_no_cell_is_refused_naming_it() -> None:
    with pytest.raises(PictureError, match=r"line 6 of the picture: 'z' is not a cell \(\. empty"):
        read_picture(picture(*["......."] * 5, "...z..."))


def test_a_floating_disc_is_refused_naming_its_column() -> None:
    with pytest.raises(PositionError, match="a floating disc in column 4"):
        read_picture(picture(*["......."] * 4, "...x...", "......."))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("..../..../....", "4 cells wide and 3 high: rows must be"),
        ("/".join(["." * 21] * 6), "21 cells wide and 6 high: columns must be"),
        ("", "the picture has no rows"),
    ],
)
def test_a_picture_of_no_allowed_size_is_refused(text: str, why: str) -> None:
    with pytest.raises(PictureError, match=why):
        read_picture(text)


def test_a_won_picture_reads_but_is_refused_saying_who_has_four_where() -> None:
    setup = read_picture(picture(*["......."] * 4, "....ooo", "...xxxx"))
    assert setup.problem() == (
        "RED already has four in a row at d1–g1: a won position cannot be played on"
    )
    with pytest.raises(PositionError, match="RED already has four in a row at d1–g1"):
        setup.drops()
    assert setup.board_shown().winning_cells() == {(3, 0), (4, 0), (5, 0), (6, 0)}
    assert setup.state().winner is None  # for play, nobody has won it


def test_a_board_without_four_is_shown_as_it_is() -> None:
    setup = read_picture(picture(*["......."] * 5, "xo....."))
    assert setup.board_shown() == setup.state()


def test_a_vertical_or_diagonal_four_is_named_from_its_lowest_cell() -> None:
    vertical = read_picture(picture("......", "......", ".o....", ".o.x..", ".o.x..", ".o.xx."))
    assert vertical.problem() is not None
    assert vertical.problem().startswith("YELLOW already has four in a row at b1–b4")
    diagonal = read_picture(picture("....", "...x", "..xo", ".xoo", "xoox"))
    assert diagonal.problem() is not None
    assert diagonal.problem().startswith("RED already has four in a row at a1–d4")
    falling = read_picture(picture("x...", "ox..", "oox.", "ooox"))
    assert falling.problem() is not None
    assert falling.problem().startswith("RED already has four in a row at a4–d1")


def test_a_line_longer_than_four_is_named_whole() -> None:
    setup = read_picture(picture(*["......."] * 4, "oooo...", "xxxxx.."))
    assert setup.problem() is not None
    assert setup.problem().startswith("RED already has four in a row at a1–e1")


def test_counts_that_cannot_alternate_are_refused_saying_why() -> None:
    setup = read_picture(picture(*["......."] * 5, "xxx...."))
    assert setup.problem() == (
        "3 red and 0 yellow discs cannot come from turns taken in turn: RED moves first, "
        "so red has as many discs as yellow, or one more"
    )
    more_yellow = read_picture(picture(*["......."] * 5, "xoo...."))
    assert more_yellow.problem() is not None
    assert more_yellow.problem().startswith("1 red and 2 yellow discs cannot come")


def test_the_wrong_side_to_move_is_refused_naming_the_right_one() -> None:
    setup = read_picture(picture(*["......."] * 5, "xo.....")).with_turn(Player.YELLOW)
    assert setup.problem() == (
        "with 1 red and 1 yellow discs, RED is to move (RED moves first, then turn about)"
    )


def test_a_board_no_order_of_drops_builds_is_refused() -> None:
    setup = read_picture(picture("....", "....", "x...", "o..."))
    assert setup.problem() is not None
    assert setup.problem().startswith("no game reaches this board")


#: No four in a row and as many discs of each colour, but no order of drops builds it: the
#: search for one took 8 s before it gave up on heights whose discs cannot drop in time.
NO_ORDER_10X10 = (
    "....x....x/....x....o/...xx....o/...oo.x..o/...ooxxx.x/"
    "...xoxoo.o/...oxoxo.o/..xoooxx.x/..oxoxoo.x/.xoxxxooxo"
)


def test_a_board_no_order_builds_is_found_out_at_once() -> None:
    setup = read_picture(NO_ORDER_10X10)
    started = time.monotonic()
    problem = setup.problem()
    assert time.monotonic() - started < 2  # milliseconds now; 8 s before
    assert problem is not None and problem.startswith("no game reaches this board")


def test_a_search_that_runs_out_of_tries_says_it_does_not_know() -> None:
    state = read_picture(picture(*["......."] * 5, "xoxo...")).state()
    with pytest.raises(UndecidedPosition, match="found in time"):
        drops_reaching(state, budget=2)
    assert len(drops_reaching(state, budget=100)) == 4


def test_a_full_classic_board_is_refused() -> None:
    rows = ["xoxo", "xoxo", "oxox", "oxox"]  # no four anywhere
    setup = read_picture(picture(*rows))
    assert setup.problem() == "the board is full: a drawn game cannot be played on"


def test_a_full_pop_out_board_plays_on_when_the_mover_can_pop() -> None:
    setup = read_picture(picture("xoxo", "xoxo", "oxox", "oxox"), Rules.POPOUT)
    assert setup.problem() is None  # red's discs at the bottom of columns 2 and 4
    reached = GameState.new(4, 4, Rules.POPOUT).play_all(setup.drops())
    assert not reached.is_over and reached.turn is Player.RED


def test_looks_like_picture_tells_pictures_from_paths_and_digits() -> None:
    assert looks_like_picture(EMPTY_7X6)
    assert looks_like_picture("..../..../..../xz..")  # a slip: still a picture, refused by line
    assert not looks_like_picture("4453")
    assert not looks_like_picture("games/2026/november/first.c4g")
    assert not looks_like_picture("~/saved.c4g")


# ----- editing ---------------------------------------------------------------------------


def test_discs_stack_in_their_column_and_the_turn_follows_the_counts() -> None:
    setup = SetUp.empty(7, 6).with_disc(3, Player.RED)
    assert setup.turn is Player.YELLOW
    setup = setup.with_disc(3, Player.YELLOW)
    assert setup.stacks[3] == (Player.RED, Player.YELLOW) and setup.turn is Player.RED
    taken = setup.without_top(3)
    assert taken.stacks[3] == (Player.RED,) and taken.turn is Player.YELLOW


def test_a_full_column_takes_no_disc_and_an_empty_one_gives_none() -> None:
    setup = SetUp.empty(4, 4)
    for _ in range(4):
        setup = setup.with_disc(0, Player.RED)
    with pytest.raises(PositionError, match="column 1 is full"):
        setup.with_disc(0, Player.YELLOW)
    with pytest.raises(PositionError, match="column 2 is empty"):
        setup.without_top(1)


def test_cells_are_named_as_chess_squares() -> None:
    assert cell_name(0, 0) == "a1"
    assert cell_name(19, 19) == "t20"


# ----- the drops reach the position ------------------------------------------------------


def random_set_up(seed: int, columns: int, rows: int, rules: Rules) -> SetUp:
    """A position some game reached, set up disc by disc from its board alone."""
    chooser = random.Random(seed)
    state = GameState.new(columns, rows, rules)
    for _ in range(chooser.randrange(columns * rows)):
        drops = [move for move in state.legal_moves() if move.kind is MoveKind.DROP]
        following = [state.play(move) for move in drops]
        going_on = [after for after in following if not after.is_over]
        if not going_on:
            break
        state = chooser.choice(going_on)
    discs = {
        (column, row): player
        for column in range(columns)
        for row in range(rows)
        if (player := state.cell(column, row)) is not None
    }
    return SetUp.of_cells(columns, rows, rules, discs)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(4, 9),
    st.integers(4, 9),
    st.sampled_from(list(Rules)),
)
def test_a_reached_position_is_playable_and_its_drops_rebuild_it(
    seed: int, columns: int, rows: int, rules: Rules
) -> None:
    setup = random_set_up(seed, columns, rows, rules)
    assert setup.problem() is None
    reached = GameState.new(columns, rows, rules).play_all(setup.drops())
    assert (reached.red, reached.yellow, reached.turn) == (
        setup.state().red,
        setup.state().yellow,
        setup.turn,
    )
    assert read_picture(write_picture(setup, "/"), rules) == setup
