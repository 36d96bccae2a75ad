"""Where game records live: the saved games folder and the unfinished game kept for next time.

Files are written whole or not at all (a temporary file renamed over the old one),
so a crash never leaves half a record behind.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from c4tui.records.format import RECORD_SUFFIX, GameRecord, RecordError, format_record, parse_record
from c4tui.storage import data_folder, write_atomically

UNFINISHED_NAME = "unfinished" + RECORD_SUFFIX
#: The characters a save's name may not have: path separators, and what some file
#: systems refuse (FAT, NTFS, a folder shared with Windows).
FORBIDDEN_IN_NAMES = '/\\:*?"<>|'
#: The longest name a save may have (file systems allow 255 bytes, accents take two).
LONGEST_NAME = 100
#: What names that say when a game was saved look like (``2026-11-22-093000[-2]``).
_STAMP_NAME = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6})(?:-([0-9]+))?")
_STAMP_FORMAT = "%Y-%m-%d-%H%M%S"


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


def save_game(
    record: GameRecord,
    folder: Path | None = None,
    now: datetime | None = None,
    *,
    name: str | None = None,
) -> Path:
    """Save ``record``; returns the path.

    Saved as ``name`` (replacing a save of that name), or by default under a new name
    that says when it was saved. Raises ValueError (saying why) for a name that cannot
    be a file's, OSError if the file cannot be written.
    """
    folder = folder or saved_games_folder()
    if name is None:
        name = free_stamp_name(folder, now)
    path = saved_game_path(name, folder)
    write_atomically(path, format_record(record))
    return path


def free_stamp_name(folder: Path | None = None, now: datetime | None = None) -> str:
    """The name a save gets by default: when it was saved, numbered if that one is taken."""
    folder = folder or saved_games_folder()
    stamp = (now or datetime.now()).strftime(_STAMP_FORMAT)
    name, counter = stamp, 2
    while (folder / f"{name}{RECORD_SUFFIX}").exists():
        name = f"{stamp}-{counter}"
        counter += 1
    return name


def saved_game_path(name: str, folder: Path | None = None) -> Path:
    """Where the save called ``name`` is (the suffix may be typed or not).

    Raises ValueError, saying why, for a name that cannot be a file's in the folder.
    """
    name = plain_name(name)
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return (folder or saved_games_folder()) / f"{name}{RECORD_SUFFIX}"


def plain_name(typed: str) -> str:
    """A typed name without the spaces around it and the records' suffix."""
    name = typed.strip()
    if name.lower().endswith(RECORD_SUFFIX):
        name = name[: -len(RECORD_SUFFIX)].rstrip()
    return name


def name_problem(name: str) -> str | None:
    """Why ``name`` (plain: see ``plain_name``) cannot name a save, in words; None if it can."""
    if not name:
        return "Type a name for the game."
    forbidden = "".join(dict.fromkeys(char for char in name if char in FORBIDDEN_IN_NAMES))
    if forbidden:
        return f"A name cannot have {' '.join(forbidden)} in it (file names cannot)."
    if not name.isprintable():
        return "A name cannot have control characters (tabs, line breaks)."
    if name.startswith("."):
        return "A name cannot start with a dot."
    if len(name) > LONGEST_NAME:
        return f"A name has at most {LONGEST_NAME} characters (this one {len(name)})."
    return None


def given_name(path: Path) -> str | None:
    """The name a person gave the save at ``path``; None for a name saying when it was saved."""
    return None if _STAMP_NAME.fullmatch(path.stem) else path.stem


def saved_games(folder: Path | None = None) -> list[Path]:
    """The saved games, newest first."""
    folder = folder or saved_games_folder()
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{RECORD_SUFFIX}"), key=_saved_order, reverse=True)


def _saved_order(path: Path) -> tuple[str, int]:
    """By when saved, for the newest first.

    A default name (``<date>-<time>[-<n>]``) says when, then the counter of the same
    second; for a name a person gave, the time the file was written.
    """
    stamp = _STAMP_NAME.fullmatch(path.stem)
    if stamp is not None:
        counter = stamp.group(2)
        return stamp.group(1), int(counter) if counter else 1
    with contextlib.suppress(OSError):
        return datetime.fromtimestamp(path.stat().st_mtime).strftime(_STAMP_FORMAT), 1
    return "", 1


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
