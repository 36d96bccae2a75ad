"""The solver's transposition table and opening book index: exact, on every board, both paths.

An entry keeps only a tag of its key beside the bound; these tests show that
the slot and the tag together give the key back (so no position is ever taken
for another), that the compiled core and plain Python agree on both, and that
the book's bucket index finds every key it holds and nothing it does not.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.ai.solver import (
    CELLS_OVER_TABLE_BITS,
    TABLE_SIZE,
    Position,
    Solver,
    core,
    jit,
    table,
    table_size_for,
)
from c4tui.ai.solver.book import opening_book
from c4tui.ai.solver.table import MIN_TABLE_BITS
from c4tui.engine.sequence import play_sequence

WORD = 1 << 64
TABLE_BITS = st.integers(min_value=table.MIN_TABLE_BITS, max_value=30)
#: Keys as the core holds them: signed 64-bit words (a 64-bit board's key may use the sign).
KEYS = st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1)


def plain(function: Callable[..., int]) -> Callable[..., int]:
    """The plain-Python function behind a compiled one."""
    return getattr(function, "py_func", function)


def key_from(slot: int, tag: int, bits: int) -> int:
    """The key that has this slot and tag: the hash's bits put together, then unmultiplied."""
    hashed = slot << (64 - bits) | tag
    key = hashed * pow(table.FIBONACCI_MULTIPLIER, -1, WORD) % WORD
    return key - WORD if key >= 1 << 63 else key


@given(KEYS, TABLE_BITS)
def test_the_slot_and_the_tag_give_the_key_back(key: int, bits: int) -> None:
    slot, tag = plain(table.table_slot)(key, bits), plain(table.table_tag)(key, bits)
    assert 0 <= slot < 1 << bits
    assert 0 <= tag < 1 << table.BOUND_SHIFT  # room above it for the bound
    assert key_from(slot, tag, bits) == key


@given(KEYS, TABLE_BITS)
def test_the_compiled_core_and_plain_python_agree_on_where_a_key_lives(key: int, bits: int) -> None:
    compiled = table.table_slot(key, bits), table.table_tag(key, bits)
    assert compiled == (plain(table.table_slot)(key, bits), plain(table.table_tag)(key, bits))


@pytest.mark.parametrize("bits", [10, 23])
def test_a_keys_last_columns_count_in_its_slot(bits: int) -> None:
    """On 8 × 7 the last column is the key's 56th to 63rd bits: they must move the slot.

    A slot taken from lower bits of the product never depends on them, and the
    positions that differ only there would all fight for one entry (an 8 × 7
    search took eleven times the nodes of Pons's).
    """
    chance = random.Random(7)
    slot = plain(table.table_slot)
    moved = 0
    for _ in range(2000):
        key = chance.getrandbits(56)
        flipped = key | 1 << chance.randint(56, 63)
        flipped -= WORD if flipped >= 1 << 63 else 0
        moved += slot(key, bits) != slot(flipped, bits)
    assert moved > 0.95 * 2000


def test_an_entry_answers_only_for_its_own_key() -> None:
    bits = 20
    key, other = 12345, 12345 + (1 << 40)
    entry = table.table_tag(key, bits) | 37 << table.BOUND_SHIFT
    assert table.table_bound(entry, table.table_tag(key, bits)) == 37
    assert table.table_bound(entry, table.table_tag(other, bits)) == 0
    assert table.table_bound(0, table.table_tag(key, bits)) == 0


@pytest.mark.parametrize("size", [1000, 3 << 20, 128])
def test_a_table_that_is_not_a_power_of_two_from_256_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="power of two"):
        Solver(5, 4, use_book=False, table_size=size)


def test_the_book_index_finds_every_key_it_holds_and_nothing_else() -> None:
    book = opening_book()
    if book is None:
        pytest.skip("the opening book's package (bitbully-databases) is not installed")
    solver = Solver(table_size=1 << 10)
    keys = book.keys.astype(np.int64)
    picked = np.random.default_rng(7).choice(len(keys), 20_000, replace=False)
    for place in sorted(picked):
        assert core.book_search(book.keys, book.index, int(keys[place]), solver.geo) == place
    absent = np.setdiff1d(np.concatenate([keys[picked] + 1, keys[picked] - 1]), keys)
    for code in absent[:20_000]:
        assert core.book_search(book.keys, book.index, int(code), solver.geo) == -1
    for code in (int(keys[0]) - 1, int(keys[-1]) + 1, -(1 << 31), (1 << 31) - 1):
        assert core.book_search(book.keys, book.index, code, solver.geo) == -1


def test_the_compiled_code_is_kept_apart_for_each_version_of_every_file_it_comes_from(
    tmp_path: Path,
) -> None:
    """Numba checks a function's own file only: the search's code comes from three."""
    solver_folder = Path(jit.__file__).parent
    for name in jit.COMPILED_SOURCES:
        shutil.copy(solver_folder / name, tmp_path / name)
    first = jit.cache_folder(tmp_path)
    assert first.parent == tmp_path / "__pycache__"
    for name in jit.COMPILED_SOURCES:
        source = tmp_path / name
        kept = source.read_bytes()
        source.write_bytes(kept + b"\n# changed\n")
        assert jit.cache_folder(tmp_path) != first, name
        source.write_bytes(kept)
    assert jit.cache_folder(tmp_path) == first


def test_a_small_board_gets_a_table_sized_to_it_and_solves_the_same() -> None:
    assert table_size_for(7 * 6) == table_size_for(8 * 7) == TABLE_SIZE
    assert table_size_for(5 * 6) == 1 << (30 - CELLS_OVER_TABLE_BITS) < TABLE_SIZE
    assert table_size_for(4 * 4) == 1 << MIN_TABLE_BITS  # never below the tag's least
    small, large = Solver(5, 6), Solver(5, 6, table_size=TABLE_SIZE)
    assert len(small.table) == table_size_for(30)
    for digits in ("", "3", "33", "1234", "35241"):
        position = Position.of(play_sequence(digits, 5, 6))
        assert small.solve(position) == large.solve(position), digits
