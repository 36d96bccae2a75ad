"""The board's lines as pure functions: drawn without Textual, from a Picture and styles.

The property test plays random games and keeps lines between changes the way the
board widget does (forgetting the rows whose cells changed or are marked): every
line drawn from what was kept must equal the line drawn afresh.
"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style

from c4tui.ai.analysis import ColumnVerdict, Outcome
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.ui.widgets.board_paint import (
    COMPONENTS,
    BoardStyles,
    Fall,
    KeptLines,
    Picture,
    board_line,
    readable_labels,
)
from c4tui.ui.widgets.looks import ASCII_LOOKS, UNICODE_LOOKS, CellLook

#: Distinct styles, so a line drawn with the wrong one differs.
STYLES = BoardStyles(
    red=Style(color="red"),
    yellow=Style(color="yellow"),
    empty=Style(dim=True),
    label=Style(italic=True),
    marker=Style(color="cyan"),
    good=Style(color="green"),
    bad=Style(color="magenta"),
    cursor=Style(bgcolor="blue"),
    winning=Style(bgcolor="green"),
    last=Style(underline=True),
)
BLANK = Style(bgcolor="black")
COMPACT = UNICODE_LOOKS[-1]


def picture_of(
    state: GameState,
    look: CellLook = COMPACT,
    *,
    last_move: Move | None = None,
    threats: bool = False,
    fall: Fall | None = None,
    analysis: tuple[str, ...] | None = None,
    pop_mode: bool = False,
    accepting: bool = True,
) -> Picture:
    """What the board would show for ``state``: its winning line (and threats) worked out."""
    return Picture(
        state,
        look,
        last_move,
        state.winning_cells(),
        state.threats() if threats else {},
        fall,
        analysis,
        pop_mode=pop_mode,
        accepting=accepting,
    )


def every_line(picture: Picture, kept: KeptLines, cursor: int) -> list[list[Segment]]:
    """Every virtual line of the board, drawn through ``kept``."""
    height = picture.size()[1]
    return [kept.line(picture, STYLES, line, cursor=cursor, blank=BLANK) for line in range(height)]


def text(segments: list[Segment]) -> str:
    return "".join(segment.text for segment in segments)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    look=st.sampled_from(UNICODE_LOOKS + ASCII_LOOKS),
    rules=st.sampled_from(list(Rules)),
)
def test_lines_kept_between_changes_match_lines_drawn_afresh(
    seed: int, look: CellLook, rules: Rules
) -> None:
    rng = random.Random(seed)
    state = GameState.new(rng.randint(4, 9), rng.randint(4, 8), rules)
    kept = KeptLines()
    picture = picture_of(state, look)
    kept.fit(picture)
    for _ in range(25):
        if state.is_over or not state.legal_moves():
            break
        move = rng.choice(state.legal_moves())
        new_state = state.play(move)
        threats, pop_mode = rng.random() < 0.5, rng.random() < 0.5
        new = picture_of(new_state, look, last_move=move, threats=threats, pop_mode=pop_mode)
        # What the board forgets on a move: the rows of changed and marked cells, the labels.
        cells = new_state.cells_differing(state) | picture.marked() | new.marked()
        kept.forget(new, {row for _, row in cells}, labels=True)
        cursor = rng.randrange(state.columns)
        assert every_line(new, kept, cursor) == every_line(new, KeptLines(), cursor)
        state, picture = new_state, new


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), look=st.sampled_from(UNICODE_LOOKS + ASCII_LOOKS))
def test_the_cursor_changes_styles_only_and_every_cell_is_its_looks_width(
    seed: int, look: CellLook
) -> None:
    rng = random.Random(seed)
    state = GameState.new(rng.randint(4, 9), rng.randint(4, 8), Rules.CLASSIC)
    for _ in range(rng.randrange(12)):
        if not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
    picture = picture_of(state, look)
    lines = range(look.height * state.rows + 2)
    for line in lines[2:]:
        plain = text(board_line(picture, STYLES, line, {}, cursor=0, blank=BLANK))
        assert len(plain) == state.columns * look.width
        for cursor in range(state.columns):
            drawn = board_line(picture, STYLES, line, {}, cursor=cursor, blank=BLANK)
            assert text(drawn) == plain


def test_the_drop_marker_is_above_the_cursor_and_the_pop_marker_below() -> None:
    picture = picture_of(GameState.new(7, 6, Rules.POPOUT))
    below = 2 + 6 * COMPACT.height
    drop = board_line(picture, STYLES, 1, {}, cursor=2, blank=BLANK)
    assert drop == [Segment(" " * 6, BLANK), Segment(" ▼ ", STYLES.marker)]
    assert board_line(picture, STYLES, below, {}, cursor=2, blank=BLANK) == []
    popping = replace(picture, pop_mode=True, ascii_only=True)  # the ASCII marker too
    assert board_line(popping, STYLES, 1, {}, cursor=2, blank=BLANK) == []
    pop = board_line(popping, STYLES, below, {}, cursor=2, blank=BLANK)
    assert text(pop) == " " * 6 + " ^ "


def test_no_marker_while_moves_wait() -> None:
    picture = picture_of(GameState.new(7, 6), accepting=False)
    assert board_line(picture, STYLES, 1, {}, cursor=3, blank=BLANK) == []


def test_column_numbers_underline_the_last_move() -> None:
    state = GameState.new(7, 6)
    picture = picture_of(state.play(Move.drop(3)), last_move=Move.drop(3))
    labels = board_line(picture, STYLES, 0, {}, cursor=0, blank=BLANK)
    assert text(labels) == "".join(str(column).center(3) for column in range(1, 8))
    underlined = [s.text for s in labels if s.style is not None and s.style.underline]
    assert underlined == [" 4 "]


def test_a_winning_line_is_framed_and_the_last_disc_marked() -> None:
    state = GameState.new(7, 6)
    for column in (0, 6, 1, 6, 2, 6):
        state = state.play(Move.drop(column))
    bottom = 2 + 5 * COMPACT.height
    before_win = picture_of(state)
    assert text(board_line(before_win, STYLES, bottom, {}, cursor=5, blank=BLANK)).startswith(
        " ●  ●  ●  · "
    )
    won = picture_of(state.play(Move.drop(3)), last_move=Move.drop(3))
    drawn = board_line(won, STYLES, bottom, {}, cursor=5, blank=BLANK)
    assert text(drawn).startswith("[●][●][●][●]")
    assert drawn[0].style == STYLES.red + STYLES.winning
    marked = picture_of(state.play(Move.drop(5)), last_move=Move.drop(5))
    drawn = board_line(marked, STYLES, bottom, {}, cursor=0, blank=BLANK)
    assert text(drawn)[5 * 3 : 6 * 3] == "(●)"  # red's disc just dropped in column 6


def test_two_digit_column_numbers_keep_a_blank_after_them() -> None:
    """At 80 x 24 a 20 x 20 board's "20" ran into the panel: " 20" filled its cell to the edge.

    Every number keeps its cell's last column blank, as the discs do (issue 40 #20).
    """
    picture = picture_of(GameState.new(20, 20))
    labels = text(board_line(picture, STYLES, 0, {}, cursor=0, blank=BLANK))
    cells = [labels[at : at + COMPACT.width] for at in range(0, len(labels), COMPACT.width)]
    assert [cell.strip() for cell in cells] == [str(number) for number in range(1, 21)]
    assert all(cell.endswith(" ") for cell in cells)
    assert cells[0] == " 1 " and cells[9] == "10 "  # one digit centred, two from the left


def winning_then_played(look: CellLook) -> tuple[Picture, Picture]:
    """A board won along the bottom row, and one where red has just dropped in column 6."""
    state = GameState.new(7, 6)
    for column in (0, 6, 1, 6, 2, 6):
        state = state.play(Move.drop(column))
    won = picture_of(state.play(Move.drop(3)), look, last_move=Move.drop(3))
    played = picture_of(state.play(Move.drop(5)), look, last_move=Move.drop(5))
    return won, played


@pytest.mark.parametrize(
    "look",
    UNICODE_LOOKS + ASCII_LOOKS,
    ids=[f"{look.name}-unicode" for look in UNICODE_LOOKS]
    + [f"{look.name}-ascii" for look in ASCII_LOOKS],
)
def test_a_tall_cells_brackets_stand_once_on_its_middle_line(look: CellLook) -> None:
    """In a browser the brackets of a 3- or 5-line cell made a column of "[[[" (issue 40 #20):
    a winning disc (and the disc just played) is bracketed on one line, the others unmarked."""
    won, played = winning_then_played(look)
    width = look.width
    for picture, column, (opening, closing) in ((won, 0, "[]"), (played, 5, "()")):
        lines = [
            text(board_line(picture, STYLES, line, {}, cursor=3, blank=BLANK))
            for line in picture.row_lines(0)
        ]
        cells = [line[column * width : (column + 1) * width] for line in lines]
        marked = [at for at, cell in enumerate(cells) if cell[0] == opening]
        assert marked == [(look.height - 1) // 2]
        assert cells[marked[0]][-1] == closing
        assert all(cell[0] == cell[-1] == " " for at, cell in enumerate(cells) if at not in marked)


def test_a_falling_disc_is_drawn_where_it_is_not_where_it_lands() -> None:
    state = GameState.new(7, 6).play(Move.drop(2))
    fall = Fall.of(state, Move.drop(2))
    assert fall == Fall(2, Player.RED, 5, 0)
    assert fall.cells == {(2, 5), (2, 0)}
    falling = picture_of(state, fall=fall, last_move=Move.drop(2))
    assert falling.occupant(2, 5) is Player.RED
    assert falling.occupant(2, 0) is None
    assert falling.last_cell() is None  # marked once it has landed
    assert picture_of(state, last_move=Move.drop(2)).last_cell() == (2, 0)


def test_nothing_falls_for_a_pop_or_onto_the_top_row() -> None:
    state = GameState.new(7, 6, Rules.POPOUT).play(Move.drop(0)).play(Move.drop(1))
    assert Fall.of(state.play(Move.pop(0)), Move.pop(0)) is None
    full = GameState.new(4, 4)
    for _ in range(4):
        full = full.play(Move.drop(1))
    assert Fall.of(full, Move.drop(1)) is None


def test_analysis_labels_show_wins_and_losses_apart() -> None:
    picture = picture_of(GameState.new(4, 4), analysis=("W3", "D", "L5", "+"))
    line = 2 + 4 * COMPACT.height + 1
    drawn = board_line(picture, STYLES, line, {}, cursor=0, blank=BLANK)
    assert text(drawn) == " W3 D  L5 + "
    assert [s.style for s in drawn] == [STYLES.good, STYLES.label, STYLES.bad, STYLES.good]


def test_labels_wider_than_their_cells_allow_are_cut_to_their_outcome() -> None:
    """7 x 6 at 40 x 12 showed ``L17L19L19L20L19L19L17``: three letters in three-wide cells."""
    labels = ("L17", "L19", "D", "W20", "L19", "W3", "L17")
    compact = picture_of(GameState.new(7, 6), analysis=labels)
    line = 2 + 6 * COMPACT.height + 1
    assert text(board_line(compact, STYLES, line, {}, cursor=0, blank=BLANK)) == (
        " L  L  D  W  L  W  L "
    )
    roomy = picture_of(GameState.new(7, 6), UNICODE_LOOKS[-2], analysis=labels)
    line = 2 + 6 * roomy.look.height + 1
    assert text(board_line(roomy, STYLES, line, {}, cursor=0, blank=BLANK)).split() == list(labels)
    assert readable_labels(("...", "W21"), 3) == ("..", "W")  # the ASCII "thinking" dots
    assert readable_labels(("…", "W2"), 3) == ("…", "W2")


@settings(max_examples=200, deadline=None)
@given(
    verdicts=st.lists(
        st.builds(ColumnVerdict, st.sampled_from(list(Outcome)), st.integers(1, 400)),
        min_size=4,
        max_size=20,
    ),
    look=st.sampled_from(UNICODE_LOOKS + ASCII_LOOKS),
)
def test_every_label_reads_apart_from_its_neighbours(
    verdicts: list[ColumnVerdict], look: CellLook
) -> None:
    """Split at the blanks, the row gives back each column's label, or its outcome letter."""
    labels = tuple(verdict.label for verdict in verdicts)
    picture = picture_of(GameState.new(len(labels), 4), look, analysis=labels)
    drawn = text(board_line(picture, STYLES, 2 + 4 * look.height + 1, {}, cursor=0, blank=BLANK))
    assert len(drawn) == len(labels) * look.width
    shown = drawn.split()
    assert shown == list(readable_labels(labels, look.width))
    assert all(label.startswith(part) for part, label in zip(shown, labels, strict=True))
    assert shown == list(labels) or look.width == 3  # cut only in the smallest cells


def test_without_a_line_to_spare_the_labels_share_the_pop_markers() -> None:
    """The analysis row takes no line of its own then: the board is no taller with it."""
    state = GameState.new(7, 6, Rules.POPOUT)
    plain = picture_of(state)
    shared = replace(picture_of(state, analysis=("D",) * 7), analysis_apart=False)
    assert shared.size() == plain.size()
    below = 2 + 6 * COMPACT.height
    assert text(board_line(shared, STYLES, below, {}, cursor=2, blank=BLANK)) == " D " * 7
    assert board_line(shared, STYLES, below + 1, {}, cursor=2, blank=BLANK) == []
    popping = replace(shared, pop_mode=True)  # the marker takes its column's label's place
    drawn = board_line(popping, STYLES, below, {}, cursor=2, blank=BLANK)
    assert text(drawn) == " D  D  ▲  D  D  D  D "
    assert drawn[2].style == STYLES.marker
    apart = picture_of(state, analysis=("D",) * 7)
    assert apart.size()[1] == plain.size()[1] + 1


def test_styles_are_looked_up_by_component_class() -> None:
    asked: list[tuple[str, bool]] = []

    def style(name: str) -> Style:
        asked.append((name, False))
        return Style()

    def overlay(name: str) -> Style:
        asked.append((name, True))
        return Style()

    BoardStyles.looked_up(style, overlay)
    assert {name for name, _ in asked} <= COMPONENTS
    assert {name for name, partial in asked if partial} == {
        "board--cursor",
        "board--winning",
        "board--last",
    }


def test_the_board_is_painted_without_textual() -> None:
    """board_paint is plain Python over Rich: importing it loads no Textual."""
    code = "import sys, c4tui.ui.widgets.board_paint; print(sorted(m for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert [name for name in done.stdout.split("'") if name.startswith("textual")] == []
