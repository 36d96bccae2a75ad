"""Whole numbers as people and peers type them: one reader for the whole project.

Only ASCII digits count: ``str.isdigit`` also takes ``³`` and other digits that ``int``
refuses or reads differently, and fuzzing found crashes in every check that trusted it.
"""

from __future__ import annotations

import re

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
#: Numbers longer than this are far out of every range here (and ``int`` refuses more
#: than 4,300 digits); ``whole_number`` reads them as ±``FAR``.
_MAX_DIGITS = 18
FAR: int = 10**_MAX_DIGITS


def ascii_digits(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits and nothing else."""
    return text.isascii() and text.isdigit()


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """``text`` as a whole number (ASCII digits, after a minus if ``signed``); None if not one.

    A number of twenty digits is a number all the same, read as ±``FAR``: a range check
    then refuses it as out of range (a protocol's "no such column"), not as garbage.
    """
    if not _WHOLE_NUMBER.fullmatch(text) or (text.startswith("-") and not signed):
        return None
    if len(text.lstrip("-").lstrip("0")) > _MAX_DIGITS:
        return -FAR if text.startswith("-") else FAR
    return int(text)


def number_in_range(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (a minus only if ``low`` < 0)."""
    number = whole_number(text, signed=low < 0)
    return number if number is not None and low <= number <= high else None
