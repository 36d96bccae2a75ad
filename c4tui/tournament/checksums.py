"""The programs' files, fingerprinted (sha256): what a tournament played, what ``--resume`` checks.

A player's files are those its description names: those an engine's command names, as
the sandbox grants them to it (``sandbox.grants_for_words``: ``engines/bob.py``,
``./cy``, ``bob.jar``, a folder; not the runtime's ``/usr/bin/python3``, nor ``c4tui`` in
``python -m c4tui``), or a Kaggle agent's file, folder or ``.tar.gz``. A folder's checksum
covers the names and contents of every file in it. The paths are kept as written, like
the players' descriptions, so a resumed tournament (run from the same folder) finds them
again.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from c4tui.outside.sandbox import grants_for_words
from c4tui.outside.spec import BARE_AGENT_SUFFIXES

#: The most files of a folder a checksum reads (the rest would make it take too long).
FOLDER_FILES_LIMIT = 10_000
#: How much of a file is read at a time.
_CHUNK = 1 << 20

#: Each player's files, by name: the path as written → its sha256 in hexadecimal.
Checksums = dict[str, dict[str, str]]


def checksums(names: Sequence[str], specs: Sequence[str]) -> Checksums:
    """The files of each player (its name, its description without NAME=) and their sha256."""
    return {
        name: {path: checksum(Path(path)) for path in named_files(spec)}
        for name, spec in zip(names, specs, strict=True)
    }


def named_files(body: str) -> list[str]:
    """The files and folders a player's description names, as written (none for a level)."""
    kind, colon, rest = body.partition(":")
    if colon and kind == "kaggle":
        return [rest] if Path(rest).exists() else []
    if not (colon and kind == "engine"):
        bare = body.endswith(BARE_AGENT_SUFFIXES) and Path(body).exists()
        return [body] if bare else []
    try:
        words = shlex.split(rest)
    except ValueError:  # unbalanced quotes: its words as they stand
        words = rest.split()
    return list(grants_for_words(words, Path.cwd()))


def checksum(path: Path) -> str:
    """``path``'s sha256: a file's contents, or a folder's files' names and contents.

    ``""`` when it cannot be read (it is gone): that differs from any checksum.
    """
    try:
        if path.is_dir():
            whole = hashlib.sha256()
            for name, inside in _files_in(path):
                whole.update(f"{name}\0{_file_checksum(inside)}\n".encode())
            return whole.hexdigest()
        return _file_checksum(path)
    except OSError:
        return ""


def changed(saved: Mapping[str, Mapping[str, str]], now: Checksums) -> str | None:
    """What differs between the files ``saved`` and those ``now``, in words (None: the same)."""
    for name, files in saved.items():
        for path, digest in files.items():
            current = now.get(name, {}).get(path, "")
            if current != digest:
                how = "is gone" if not current else "changed"
                return f"{name}'s file {path} {how} since the tournament began"
    return None


def _file_checksum(path: Path) -> str:
    """A regular file's sha256; ``""`` for anything else (a FIFO or a device is never read)."""
    if not stat.S_ISREG(path.stat().st_mode):
        return ""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _files_in(folder: Path) -> list[tuple[str, Path]]:
    """The files under ``folder`` in a fixed order (FOLDER_FILES_LIMIT at most; no links)."""
    found: list[tuple[str, Path]] = []
    for top, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            path = Path(top) / name
            if path.is_file() and not path.is_symlink():
                found.append((str(path.relative_to(folder)), path))
            if len(found) >= FOLDER_FILES_LIMIT:
                return found
    return found
