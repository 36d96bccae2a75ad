"""Where game records live: the saved games folder and the unfinished game kept for next time.

Files are written whole or not at all (a temporary file renamed over the old one),
so a crash never leaves half a record behind.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path

from c4tui.records.format import RECORD_SUFFIX, GameRecord, RecordError, format_record, parse_record
from c4tui.storage import data_folder, write_atomically

UNFINISHED_NAME = "unfinished" + RECORD_SUFFIX


def saved_games_folder() -> Path:
    """Where ``s`` saves games."""
    return data_folder() / "games"


def unfinished_game_path() -> Path:
    """The unfinished local game, kept after every move and offered at the next start."""
    return data_folder() / UNFINISHED_NAME


def read_record(path: Path) -> GameRecord:
    """The record in ``path``; RecordError (naming the file) if it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from None
    try:
        return parse_record(text)
    except RecordError as error:
        raise RecordError(f"{path.name}: {error}") from None


def save_game(record: GameRecord, folder: Path | None = None, now: datetime | None = None) -> Path:
    """Save ``record`` under a new name that says when it was played; returns the path."""
    folder = folder or saved_games_folder()
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{stamp}{RECORD_SUFFIX}"
    counter = 2
    while path.exists():
        path = folder / f"{stamp}-{counter}{RECORD_SUFFIX}"
        counter += 1
    write_atomically(path, format_record(record))
    return path


def saved_games(folder: Path | None = None) -> list[Path]:
    """The saved games, newest first."""
    folder = folder or saved_games_folder()
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{RECORD_SUFFIX}"), key=_saved_order, reverse=True)


def _saved_order(path: Path) -> tuple[str, int]:
    """Names are ``<date>-<time>[-<n>]``: by time, then by the counter of the same second."""
    parts = path.stem.split("-")
    if len(parts) == 5 and parts[4].isdigit():
        return "-".join(parts[:4]), int(parts[4])
    return path.stem, 1


def keep_unfinished(record: GameRecord | None) -> None:
    """Keep ``record`` as the unfinished game (None: there is none any more)."""
    path = unfinished_game_path()
    if record is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    write_atomically(path, format_record(record))


def unfinished_game() -> GameRecord | None:
    """The unfinished game kept last time, if any and readable (a bad file is set aside)."""
    path = unfinished_game_path()
    if not path.exists():
        return None
    try:
        return read_record(path)
    except RecordError:
        with contextlib.suppress(OSError):
            path.replace(path.with_suffix(".unreadable"))
        return None
