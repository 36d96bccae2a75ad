"""Where game records live: the saved games folder and the unfinished game kept for next time.

Files are written whole or not at all (a temporary file renamed over the old one),
so a crash never leaves half a record behind.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from c4tui.numbers import ascii_digits
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
    if len(parts) == 5 and ascii_digits(parts[4]):
        return "-".join(parts[:4]), int(parts[4])
    return path.stem, 1


class _Keeper:
    """Keeps the unfinished game from a thread of its own, so a move never waits for the disk.

    The app keeps the game after every move; a write that waits for the disk (it is
    synced) would hold up the move's frame. Writes happen in order, only the newest
    of those that piled up is written, and reading the kept game (or keeping one at
    once) first waits for the writes under way. The thread is not a daemon: the last
    move is written before the program ends.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._wanted: tuple[GameRecord | None, Callable[[OSError], None]] | None = None
        self._writing = False

    def keep_soon(self, record: GameRecord | None, failed: Callable[[OSError], None]) -> None:
        """Keep ``record`` (None: none) soon; ``failed`` is called, from the thread, on an error."""
        with self._changed:
            self._wanted = (record, failed)
            if not self._writing:
                self._writing = True
                threading.Thread(target=self._write, name="c4tui-keeper").start()

    def _write(self) -> None:
        while True:
            with self._changed:
                wanted, self._wanted = self._wanted, None
                if wanted is None:
                    self._writing = False
                    self._changed.notify_all()
                    return
            record, failed = wanted
            try:
                _keep_now(record)
            except OSError as error:
                failed(error)

    def wait(self) -> None:
        """Return once every write asked for is done."""
        with self._changed:
            self._changed.wait_for(lambda: not self._writing)


_keeper = _Keeper()


def keep_unfinished_soon(
    record: GameRecord | None, failed: Callable[[OSError], None] = lambda _: None
) -> None:
    """Keep ``record`` as the unfinished game (None: none) from a thread, in order.

    ``failed`` is called from that thread if the write fails (a full disk).
    """
    _keeper.keep_soon(record, failed)


def keep_unfinished(record: GameRecord | None) -> None:
    """Keep ``record`` as the unfinished game (None: there is none any more), now."""
    _keeper.wait()
    _keep_now(record)


def _keep_now(record: GameRecord | None) -> None:
    path = unfinished_game_path()
    if record is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    write_atomically(path, format_record(record))


def unfinished_game() -> GameRecord | None:
    """The unfinished game kept last time, if any and readable (a bad file is set aside)."""
    _keeper.wait()
    path = unfinished_game_path()
    if not path.exists():
        return None
    try:
        return read_record(path)
    except RecordError:
        with contextlib.suppress(OSError):
            path.replace(path.with_suffix(".unreadable"))
        return None
