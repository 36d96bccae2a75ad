"""Game records: the plain-text file a game is saved in, and the solvers' digit strings.

``format`` is pure (text in, text out); ``store`` is where the files live.
"""

from c4tui.records.format import (
    RECORD_SUFFIX,
    GameRecord,
    RecordError,
    Result,
    format_record,
    moves_to_digits,
    parse_record,
    record_from_digits,
)

__all__ = [
    "RECORD_SUFFIX",
    "GameRecord",
    "RecordError",
    "Result",
    "format_record",
    "moves_to_digits",
    "parse_record",
    "record_from_digits",
]
