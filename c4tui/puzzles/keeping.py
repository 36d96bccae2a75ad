"""The player's puzzle record in c4tui's data folder (``puzzles.json``), written whole.

A record that cannot be read is not thrown away: it is renamed ``puzzles.json.broken``
(for the player to look at) and a new record starts, and the caller is told so, to
say it: nothing is lost without a word.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from c4tui.puzzles.progress import PuzzleProgress, progress_from_json, progress_json
from c4tui.storage import data_folder, write_atomically

#: The record's file name in the data folder.
RECORD_NAME = "puzzles.json"


def record_path() -> Path:
    """Where the record is kept."""
    return data_folder() / RECORD_NAME


def load_progress(path: Path | None = None) -> tuple[PuzzleProgress, str | None]:
    """The record (a new one when there is none) and a notice when a broken one was set aside."""
    path = path or record_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return PuzzleProgress(), None
    except (OSError, UnicodeDecodeError) as error:
        return PuzzleProgress(), f"Your puzzle record could not be read ({error}); starting anew."
    try:
        return progress_from_json(json.loads(text)), None
    except (ValueError, TypeError, KeyError, AttributeError):
        aside = path.with_name(path.name + ".broken")
        with contextlib.suppress(OSError):
            os.replace(path, aside)
        return (
            PuzzleProgress(),
            f"Your puzzle record was damaged: it is kept as {aside}; starting anew.",
        )


def save_progress(progress: PuzzleProgress, path: Path | None = None) -> None:
    """Write the record whole (raises OSError when it cannot be written)."""
    write_atomically(path or record_path(), json.dumps(progress_json(progress)) + "\n")
