"""Opening books: the exact outcome of every position with a given number of discs.

On 7 × 6 the data is BitBully's ``12-ply-dist`` database (MIT licence), installed as the
``bitbully-databases`` package: 4.2 million positions, one record of five bytes
each, sorted by key. A key is a 32-bit big-endian Huffman code of the board (see
``core.book_code``), and the fifth byte is a signed distance to the end of the
game. Only the file is used; reading it takes a tenth of a second.

Other boards of up to 42 cells whose start the solver takes long over have a
book of c4tui's own in ``assets/books/`` (``c4tui solve --make-book``, see
``book_maker.py``): the same records after a short header naming the board and
the depth, xz-compressed.
"""

from __future__ import annotations

import lzma
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from c4tui.ai.exact_boards import BOOK_COLUMNS, BOOK_ROWS, shipped_book

#: The book holds every position with this many discs on the 7 × 6 board.
BOOK_DEPTH = 12
DATABASE = "12-ply-dist"
RECORD_BYTES = 5
#: A c4tui book file starts with these bytes, then the version, columns, rows and depth.
BOOK_HEADER = b"C4TUI-BOOK"
BOOK_VERSION = 1
#: A key holds 32 bits: ``2 * depth + columns + 1`` must not be more.
KEY_BITS = 32
#: The index splits the keys' range into ``2 ** INDEX_BITS`` buckets (4 MB of offsets).
INDEX_BITS = 20


@dataclass(frozen=True)
class OpeningBook:
    """Sorted keys and their distances, with an index that narrows the search to one bucket.

    ``index[b]`` is where the keys of bucket ``b`` start, a bucket being the keys
    whose ``(key - lowest) >> shift`` is ``b``: a look-up reads one offset pair and
    searches a few dozen neighbouring keys, not 4.2 million scattered ones.
    """

    keys: npt.NDArray[np.int32]
    values: npt.NDArray[np.int8]
    index: npt.NDArray[np.int32]
    lowest: int
    shift: int
    depth: int = BOOK_DEPTH

    def __len__(self) -> int:
        return len(self.keys)


def read_book(path: str) -> OpeningBook:
    """Read BitBully's book file (raises OSError or ValueError when missing or malformed)."""
    return _from_records(np.fromfile(path, dtype=np.uint8), path, BOOK_DEPTH)


def book_file_header(columns: int, rows: int, depth: int) -> bytes:
    """The first bytes of c4tui's book of ``columns × rows`` at ``depth``."""
    return BOOK_HEADER + bytes([BOOK_VERSION, columns, rows, depth])


def read_book_file(path: str, columns: int, rows: int) -> OpeningBook:
    """Read c4tui's book of ``columns × rows`` (raises OSError or ValueError when it is not)."""
    with open(path, "rb") as packed:
        try:
            raw = lzma.decompress(packed.read())
        except lzma.LZMAError as error:
            raise ValueError(f"{path} is not an xz-compressed book: {error}") from None
    header = raw[: len(BOOK_HEADER) + 4]
    depth = header[-1] if len(header) == len(BOOK_HEADER) + 4 else 0
    if header != book_file_header(columns, rows, depth) or depth > max_book_depth(columns):
        raise ValueError(f"{path} is not c4tui's {columns} × {rows} book")
    return _from_records(np.frombuffer(raw[len(header) :], dtype=np.uint8), path, depth)


def max_book_depth(columns: int) -> int:
    """The most discs a book's positions may hold: a key of ``2 * depth + columns + 1`` bits."""
    return (KEY_BITS - 1 - columns) // 2


def _from_records(raw: npt.NDArray[np.uint8], path: str, depth: int) -> OpeningBook:
    """The book of ``raw``'s five-byte records, which must be sorted by key."""
    if raw.size == 0 or raw.size % RECORD_BYTES:
        raise ValueError(f"{path} is not an opening book ({raw.size} bytes)")
    records = raw.reshape(-1, RECORD_BYTES)
    keys = np.ascontiguousarray(records[:, :4]).view(">i4").ravel().astype(np.int32)
    values = records[:, 4].copy().view(np.int8)
    if np.any(keys[1:] <= keys[:-1]):
        raise ValueError(f"{path} is not sorted by key")
    return OpeningBook(keys, values, *bucket_index(keys), depth)


def bucket_index(keys: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], int, int]:
    """Where each bucket of the sorted ``keys`` starts; the lowest key; the bucket shift."""
    lowest, spread = int(keys[0]), int(keys[-1]) - int(keys[0]) + 1
    shift = max(0, spread.bit_length() - INDEX_BITS)
    starts = lowest + (np.arange((1 << INDEX_BITS) + 1, dtype=np.int64) << shift)
    index = np.searchsorted(keys.astype(np.int64), starts).astype(np.int32)
    return index, lowest, shift


@cache
def opening_book(columns: int = BOOK_COLUMNS, rows: int = BOOK_ROWS) -> OpeningBook | None:
    """The board's book, read once per process (None: the board has none, or it is missing)."""
    if (columns, rows) != (BOOK_COLUMNS, BOOK_ROWS):
        shipped = shipped_book(columns, rows)
        try:
            return read_book_file(str(shipped), columns, rows) if shipped else None
        except (OSError, ValueError):
            return None  # a damaged install: the board is then searched with a deadline
    try:
        from bitbully_databases import (  # type: ignore[import-untyped]  # noqa: PLC0415 (optional)
            BitBullyDatabases,
        )
    except ImportError:
        return None
    return read_book(BitBullyDatabases.get_database_path(DATABASE))
