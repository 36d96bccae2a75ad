"""What the player chose in the app and gets again next time (for now: the theme).

Kept as a small JSON file in the user's config directory (earlier versions kept it
in the data directory: it is moved on the first start). It is written whole to a
temporary file and then renamed over the old one, so a crash mid-write never leaves
half a file; and a file that is missing, unreadable or not what we wrote gives the
defaults: preferences are a convenience, never a reason not to start.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from c4tui.storage import config_folder, data_folder, write_atomically
from c4tui.ui.themes import DEFAULT_THEME

FILE_NAME = "preferences.json"


@dataclass(frozen=True)
class Preferences:
    """The player's choices that outlive a run of the app."""

    theme: str = DEFAULT_THEME


def preferences_path() -> Path:
    """Where the preferences live (``$XDG_CONFIG_HOME/c4tui/`` on Linux)."""
    return config_folder() / FILE_NAME


def old_preferences_path() -> Path:
    """Where versions before issue 27 kept them (``$XDG_DATA_HOME/c4tui/`` on Linux)."""
    return data_folder() / FILE_NAME


def move_old_preferences() -> None:
    """Move a preferences file left in the data folder to the config folder, once.

    Not if the config folder has one already (the newer choice wins); a move that
    fails leaves the old file where it was (the defaults are used meanwhile).
    """
    old, new = old_preferences_path(), preferences_path()
    if old.is_file() and not new.exists():
        with contextlib.suppress(OSError):
            new.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(old, new)


def load_preferences(path: Path | None = None) -> Preferences:
    """The saved preferences, or the defaults if there are none that can be read.

    Without ``path``: the player's, moved first from where earlier versions kept them.
    """
    if path is None:
        move_old_preferences()
    try:
        text = (path or preferences_path()).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return Preferences()
    try:
        saved = json.loads(text)
    except json.JSONDecodeError:
        return Preferences()
    theme = saved.get("theme") if isinstance(saved, dict) else None
    return Preferences(theme=theme) if isinstance(theme, str) and theme else Preferences()


def save_preferences(preferences: Preferences, path: Path | None = None) -> None:
    """Write ``preferences`` atomically: readers see the old file or the new one, whole."""
    text = json.dumps(asdict(preferences), indent=2) + "\n"
    write_atomically(path or preferences_path(), text)
