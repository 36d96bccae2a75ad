"""The panel's text in lines of its width, broken only between phrases.

Textual wraps a Static's text at any space and folds a word wider than its line, so
an 18-column panel showed "r: rematch · esc:" / "menu", a name with its score on the
next line and a saved game's file name cut at its dot. The panel lays its text out
here first: a phrase that fits a line is never broken.

What makes a phrase, in the text the panel is given: lines are split at line breaks;
within a line, phrases are separated by ``HINTS`` (key hints: "r: rematch · esc:
menu"; the dot goes where the line breaks) or ``PHRASE_BREAK`` (a space where the
phrases share a line, made by ``phrases``). A line with neither is one phrase: a
sentence, which Textual wraps at its spaces when it is wider than the panel.
"""

from __future__ import annotations

from rich.cells import cell_len

#: Joins two phrases of a line: a space where they share a line, a line break where not.
PHRASE_BREAK = "\x1f"
#: Joins key hints: kept where they share a line, dropped at a line break.
HINTS = " · "
#: What stands for the middle of a word too wide for its line (``ASCII_ELLIPSIS`` with --ascii).
ELLIPSIS = "…"
ASCII_ELLIPSIS = "..."


def phrases(*parts: str) -> str:
    """``parts`` as phrases of one line, each kept whole: ``phrases("Saved:", name)``."""
    return PHRASE_BREAK.join(parts)


def in_groups(word: str, size: int = 5) -> str:
    """A long word (a digit string) as phrases of ``size`` characters.

    A line then breaks only between groups: folded at the panel's edge, it was cut anywhere.
    """
    return phrases(*(word[at : at + size] for at in range(0, len(word), size)))


def lay_out(text: str, width: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` in lines at most ``width`` cells wide, broken only between phrases.

    Each line takes as many phrases as fit; a phrase wider than ``width`` has a line
    of its own: a sentence (with spaces) as it is, for Textual to wrap at its words,
    a single word (a file name) shortened in the middle. With no width yet (0: not
    laid out), phrases share their line however long.
    """
    lines = text.split("\n")
    return "\n".join(line for given in lines for line in fill(given, width, ellipsis))


def fill(line: str, width: int, ellipsis: str = ELLIPSIS) -> list[str]:
    """One line of text (no line break in it) laid out in lines (see ``lay_out``)."""
    filled: list[str] = []
    for separator, given in split_phrases(line):
        phrase = given if " " in given else shortened(given, width, ellipsis)
        if not filled:
            filled.append(phrase)
        elif width <= 0 or cell_len(filled[-1] + separator + phrase) <= width:
            filled[-1] += separator + phrase
        else:
            filled.append(phrase)
    return filled


def split_phrases(line: str) -> list[tuple[str, str]]:
    """The phrases of ``line``, each with what joins it to the one before (first: "")."""
    split: list[tuple[str, str]] = []
    for hint_number, hint in enumerate(line.split(HINTS)):
        for phrase_number, phrase in enumerate(hint.split(PHRASE_BREAK)):
            separator = " " if phrase_number else HINTS if hint_number else ""
            split.append((separator, phrase))
    return split


def shortened(word: str, width: int, ellipsis: str = ELLIPSIS) -> str:
    """``word`` in at most ``width`` cells: its middle replaced by an ellipsis if need be.

    The start and the end stay (a file's date and its extension); no width (0): as it is.
    """
    if width <= 0 or cell_len(word) <= width:
        return word
    head, tail = word[: len(word) // 2], word[len(word) // 2 :]
    while head + tail and cell_len(head) + cell_len(ellipsis) + cell_len(tail) > width:
        if len(head) > len(tail):
            head = head[:-1]
        else:
            tail = tail[1:]
    return head + ellipsis + tail
