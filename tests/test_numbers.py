"""The project's one reader of whole numbers: ASCII digits only, never a crash."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.numbers import FAR, ascii_digits, number_in_range, whole_number


@given(st.integers(min_value=0, max_value=10**18 - 1))
def test_a_number_written_in_ascii_digits_reads_back(number: int) -> None:
    assert whole_number(str(number)) == number
    assert whole_number(f"-{number}", signed=True) == -number


def test_a_minus_counts_only_when_signed() -> None:
    assert whole_number("-3") is None
    assert whole_number("-3", signed=True) == -3


@pytest.mark.parametrize(
    "text", ["", "³", "٣", "1.5", "+4", " 4", "4 ", "--4", "inf", "0x1f", "1_000"]
)
def test_what_is_not_ascii_digits_is_no_number(text: str) -> None:
    assert whole_number(text, signed=True) is None
    assert not ascii_digits(text)


def test_a_number_too_long_for_int_is_far_away_not_a_crash() -> None:
    assert whole_number("9" * 5000) == FAR
    assert whole_number("-" + "9" * 5000, signed=True) == -FAR
    assert whole_number("0" * 30 + "7") == 7  # leading zeros are not significant


@given(st.text(max_size=30), st.integers(-5, 30), st.integers(-5, 30))
def test_number_in_range_is_a_number_in_range_or_none(text: str, low: int, high: int) -> None:
    number = number_in_range(text, low, high)
    assert number is None or (low <= number <= high and ascii_digits(text))
