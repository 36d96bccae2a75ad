"""What the player chose in the app and gets again next time: theme, last game, login.

The login is where and as whom the player last logged in online, never the password.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from c4tui.engine import MAX_SIZE, MIN_SIZE, Player, Rules
from c4tui.match.backends import opponent_kind
from c4tui.match.backends.base import Option
from c4tui.match.settings import MatchSettings
from c4tui.match.timing import HomeClock, parse_home_clock
from c4tui.storage import config_folder, data_folder, write_atomically
from c4tui.ui.themes import DEFAULT_THEME

FILE_NAME = "preferences.json"

#: What the login dialog remembers of what was typed: where the lobby is and who you are.
#: Never the password (the file is plain text, readable by anyone with the account).
LOGIN_KEYS = ("game", "host", "port", "tls", "tls_ca", "user")
#: The longest text kept for a field (the longest field, a host or a file, is 255).
MAX_KEPT_TEXT = 255


@dataclass(frozen=True)
class Preferences:
    """The player's choices that outlive a run of the app."""

    theme: str = DEFAULT_THEME
    #: The choices of the last game started (mode, level, size, rules, colour); None: none yet.
    last_game: MatchSettings | None = None
    #: The login dialog's fields last logged in with (``LOGIN_KEYS``); empty: none yet.
    login: Mapping[str, str] = field(default_factory=dict)


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
    if not isinstance(saved, dict):
        return Preferences()
    theme = saved.get("theme")
    return Preferences(
        theme=theme if isinstance(theme, str) and theme else DEFAULT_THEME,
        last_game=game_from_json(saved.get("last_game")),
        login=login_from_json(saved.get("login")),
    )


def save_preferences(preferences: Preferences, path: Path | None = None) -> None:
    """Write ``preferences`` atomically: readers see the old file or the new one, whole."""
    saved: dict[str, object] = {"theme": preferences.theme}
    if preferences.last_game is not None:
        saved["last_game"] = game_to_json(preferences.last_game)
    if preferences.login:
        saved["login"] = dict(preferences.login)
    write_atomically(path or preferences_path(), json.dumps(saved, indent=2) + "\n")


def remember_game(settings: MatchSettings) -> None:
    """Keep the choices of a game just started, for the menu of the next start.

    Read again first: the theme may have been chosen since this run read the file.
    Raises OSError when it cannot be written.
    """
    save_preferences(replace(load_preferences(), last_game=settings))


def remember_login(values: Mapping[str, str]) -> None:
    """Keep where and as whom the player logged in (``LOGIN_KEYS`` only: no password).

    Read again first, as ``remember_game``. Raises OSError when it cannot be written.
    """
    login = {key: values[key] for key in LOGIN_KEYS if key in values}
    save_preferences(replace(load_preferences(), login=login))


def login_from_json(saved: object) -> dict[str, str]:
    """The kept login fields that are text of a sane length; the dialog checks the rest."""
    if not isinstance(saved, dict):
        return {}
    return {
        key: value
        for key in LOGIN_KEYS
        if isinstance(value := saved.get(key), str) and len(value) <= MAX_KEPT_TEXT
    }


def game_to_json(settings: MatchSettings) -> dict[str, object]:
    """The menu's choices in ``settings``, as kept in the file (the seed and pace are not)."""
    return {
        "opponent": settings.opponent,
        "options": settings.options,
        "columns": settings.columns,
        "rows": settings.rows,
        "rules": settings.rules.value,
        "colour": settings.person_colour.name.lower(),
        "clock": None if settings.clock is None else settings.clock.text,
    }


def game_from_json(saved: object) -> MatchSettings | None:
    """The kept choices, or None if any is missing or not one the menu offers.

    A file edited by hand or written by another version must not stop the start.
    """
    if not isinstance(saved, dict):
        return None
    try:
        kind = opponent_kind(saved["opponent"])
        columns, rows = saved["columns"], saved["rows"]
        if not all(type(size) is int and MIN_SIZE <= size <= MAX_SIZE for size in (columns, rows)):
            return None
        settings = MatchSettings(
            opponent=kind.key,
            columns=columns,
            rows=rows,
            rules=Rules(saved["rules"]),
            person_colour=Player[str(saved["colour"]).upper()],
        )
    except (KeyError, TypeError, ValueError):
        return None
    options = menu_options(kind.options, saved.get("options"))
    return replace(settings, options=options, clock=kept_clock(saved.get("clock")))


def kept_clock(saved: object) -> HomeClock | None:
    """The clock kept with the last game (None: none, or one this version does not read)."""
    try:
        return parse_home_clock(saved) if isinstance(saved, str) else None
    except ValueError:
        return None


def menu_options(offered: Sequence[Option], saved: object) -> dict[str, str]:
    """The kept option values that the menu offers as choices (e.g. the AI's level).

    Typed values (a server's address) are left out: the connect dialog asks for them;
    those kept on purpose (a program's command, ``remembered``) come back as typed.
    """
    if not isinstance(saved, dict):
        return {}
    return {
        option.key: saved[option.key] for option in offered if _kept(option, saved.get(option.key))
    }


def _kept(option: Option, value: object) -> bool:
    """True when ``value``, read from the file, is one ``option`` may be given back."""
    if option.choices:
        return value in {choice.value for choice in option.choices}
    return option.remembered and isinstance(value, str) and len(value) <= option.max_length
