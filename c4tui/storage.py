"""Where c4tui keeps the user's files and finds its own, and how it writes them: whole.

One data folder (``$XDG_DATA_HOME/c4tui`` on Linux) for accounts, saved games and
high scores, and one config folder (``$XDG_CONFIG_HOME/c4tui``) for the player's
preferences; every file is written to a temporary file and renamed over the old
one, so a crash never leaves half a file behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import platformdirs

#: The package's folder: shipped files are under it (installed) or beside it (a checkout).
_PACKAGE = Path(__file__).resolve().parent


def asset_path(name: str) -> Path:
    """The path of ``assets/<name>``: inside the installed package, else in the checkout."""
    installed = _PACKAGE / "assets" / name
    if installed.exists():
        return installed
    return _PACKAGE.parent / "assets" / name


def data_folder() -> Path:
    """c4tui's folder in the user's data directory (it may not exist yet)."""
    return platformdirs.user_data_path("c4tui")


def config_folder() -> Path:
    """c4tui's folder in the user's config directory (it may not exist yet)."""
    return platformdirs.user_config_path("c4tui")


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (UTF-8 if a string) in one step (never half-written).

    A device or a pipe (``/dev/null``, ``/dev/stdout``) is written to, never replaced by
    a file: replacing ``/dev/null`` broke every program that read it afterwards.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    if path.exists() and not path.is_file() and not path.is_dir():
        path.write_bytes(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


#: Where each web or ssh visitor's app keeps its files for the length of its visit.
VISITORS = "visitors"


def new_visitor_folder() -> Path:
    """A folder of this process's own for one visit, named after its process id.

    The name lets ``sweep_visitor_folders`` tell a folder whose app has gone (killed,
    its machine stopped) from a visit still going on.
    """
    visitors = data_folder() / VISITORS
    visitors.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=visitors))


def sweep_visitor_folders() -> int:
    """Remove the folders of visits whose app is no longer running; how many went."""
    swept = 0
    for folder in (data_folder() / VISITORS).glob("*-*"):
        pid = folder.name.split("-", 1)[0]
        if folder.is_dir() and pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
            swept += 1
    return swept


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: running
        return True
    return True
