"""What the player chose in the app and gets again next time (for now: the theme).

Kept as a small JSON file in the user's data directory. It is written whole to a
temporary file and then renamed over the old one, so a crash mid-write never leaves
half a file; and a file that is missing, unreadable or not what we wrote gives the
defaults: preferences are a convenience, never a reason not to start.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from c4tui.storage import data_folder, write_atomically
from c4tui.ui.themes import DEFAULT_THEME

FILE_NAME = "preferences.json"


@dataclass(frozen=True)
class Preferences:
    """The player's choices that outlive a run of the app."""

    theme: str = DEFAULT_THEME


def preferences_path() -> Path:
    """Where the preferences live (``$XDG_DATA_HOME/c4tui/`` on Linux)."""
    return data_folder() / FILE_NAME


def load_preferences(path: Path | None = None) -> Preferences:
    """The saved preferences, or the defaults if there are none that can be read."""
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
