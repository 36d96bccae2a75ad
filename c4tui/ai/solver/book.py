"""The 7 × 6 opening book: the exact outcome of every position with 12 discs.

The data is BitBully's ``12-ply-dist`` database (MIT licence), installed as the
``bitbully-databases`` package: 4.2 million positions, one record of five bytes
each, sorted by key. A key is a 32-bit big-endian Huffman code of the board (see
``core.book_code``), and the fifth byte is a signed distance to the end of the
game. Only the file is used; reading it takes a tenth of a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

#: The book holds every position with this many discs on the 7 × 6 board.
BOOK_DEPTH = 12
BOOK_COLUMNS, BOOK_ROWS = 7, 6
DATABASE = "12-ply-dist"
RECORD_BYTES = 5
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

    def __len__(self) -> int:
        return len(self.keys)


def read_book(path: str) -> OpeningBook:
    """Read a book file (raises OSError or ValueError when it is missing or malformed)."""
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size == 0 or raw.size % RECORD_BYTES:
        raise ValueError(f"{path} is not an opening book ({raw.size} bytes)")
    records = raw.reshape(-1, RECORD_BYTES)
    keys = np.ascontiguousarray(records[:, :4]).view(">i4").ravel().astype(np.int32)
    values = records[:, 4].copy().view(np.int8)
    if np.any(keys[1:] <= keys[:-1]):
        raise ValueError(f"{path} is not sorted by key")
    return OpeningBook(keys, values, *bucket_index(keys))


def bucket_index(keys: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], int, int]:
    """Where each bucket of the sorted ``keys`` starts; the lowest key; the bucket shift."""
    lowest, spread = int(keys[0]), int(keys[-1]) - int(keys[0]) + 1
    shift = max(0, spread.bit_length() - INDEX_BITS)
    starts = lowest + (np.arange((1 << INDEX_BITS) + 1, dtype=np.int64) << shift)
    index = np.searchsorted(keys.astype(np.int64), starts).astype(np.int32)
    return index, lowest, shift


@cache
def opening_book() -> OpeningBook | None:
    """The installed book, read once per process (None when the package is missing)."""
    try:
        from bitbully_databases import (  # type: ignore[import-untyped]  # noqa: PLC0415 (optional)
            BitBullyDatabases,
        )
    except ImportError:
        return None
    return read_book(BitBullyDatabases.get_database_path(DATABASE))
