"""The panel's text laid out in lines of a width, broken only between phrases."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from c4tui.ui.widgets.phrasing import (
    ASCII_ELLIPSIS,
    ELLIPSIS,
    HINTS,
    PHRASE_BREAK,
    lay_out,
    phrases,
    shortened,
)

#: Words as the panel's phrases have them (no spaces: a phrase joins words with them).
WORDS = st.text(st.sampled_from("abcxyz.-()0123456789:"), min_size=1, max_size=25)
PHRASES = st.lists(WORDS, min_size=1, max_size=3).map(" ".join)


def test_the_three_cases_of_the_issue_at_18_columns() -> None:
    """At 100 x 30 the panel has 18 columns: these broke mid-phrase there."""
    assert lay_out(phrases("Computer (Perfect)", "1"), 18) == "Computer (Perfect)\n1"
    assert lay_out(phrases("You", "2"), 18) == "You 2"
    assert lay_out("Four in a row!\nr: rematch · esc: menu", 18) == (
        "Four in a row!\nr: rematch\nesc: menu"
    )
    assert lay_out("r: rematch · esc: menu", 28) == "r: rematch · esc: menu"
    saved = phrases("Saved:", "2026-11-26-215317.c4g")
    assert lay_out(saved, 28) == "Saved: 2026-11-26-215317.c4g"
    assert lay_out(saved, 18) == "Saved:\n2026-11-2…5317.c4g"
    assert lay_out(saved, 18, ASCII_ELLIPSIS) == "Saved:\n2026-11-...317.c4g"  # --ascii


def test_a_sentence_is_left_whole_for_textual_to_wrap_at_its_words() -> None:
    sentence = "Analysis (proven): column 4 is best — win in 21"
    assert lay_out(sentence, 18) == sentence
    assert lay_out(f"{sentence}\nn: new game · esc: menu", 18) == (
        f"{sentence}\nn: new game\nesc: menu"
    )


def test_before_the_panel_has_a_width_nothing_is_broken() -> None:
    assert lay_out(phrases("Saved:", "x" * 40) + "\na · b", 0) == "Saved: " + "x" * 40 + "\na · b"


@given(word=WORDS, width=st.integers(1, 30))
def test_a_word_too_wide_keeps_its_start_and_end_around_an_ellipsis(word: str, width: int) -> None:
    short = shortened(word, width)
    assert cell_len(short) <= max(width, 1)
    if cell_len(word) <= width:
        assert short == word
    else:
        head, tail = short.split(ELLIPSIS)
        assert word.startswith(head) and word.endswith(tail)
        assert abs(len(head) - len(tail)) <= 1 or cell_len(short) == width


@given(
    parts=st.lists(st.tuples(st.booleans(), PHRASES), min_size=1, max_size=8),
    width=st.integers(8, 40),
)
def test_lines_break_only_between_phrases_and_take_all_that_fit(
    parts: list[tuple[bool, str]], width: int
) -> None:
    """Each line is whole phrases, as many as fit; only a sentence wider than the line is wider.

    ``parts``: each phrase, and whether it follows the one before as a key hint (`` · ``).
    """
    text = parts[0][1] + "".join(
        (HINTS if hint else PHRASE_BREAK) + phrase for hint, phrase in parts[1:]
    )
    separators = ["", *(HINTS if hint else " " for hint, _ in parts[1:])]
    wanted = [phrase if " " in phrase else shortened(phrase, width) for _, phrase in parts]
    lines = lay_out(text, width).split("\n")
    at = 0  # the next phrase
    for number, line in enumerate(lines):
        first, shown = at, wanted[at]
        at += 1
        while at < len(wanted) and line.startswith(shown + separators[at] + wanted[at]):
            shown += separators[at] + wanted[at]
            at += 1
        assert line == shown, "a line that is not whole phrases"
        assert cell_len(line) <= width or (at == first + 1 and " " in line)
        if number + 1 < len(lines):  # the next phrase did not fit on this line
            assert cell_len(line + separators[at] + wanted[at]) > width
    assert at == len(wanted)  # every phrase, in order
