"""The ssh door's host key: made once, kept in c4tui's data folder, its fingerprint logged.

Players check that fingerprint the first time they connect (ssh asks them to), so the
key must never change by itself: it is read back at every start, and made only when
there is none.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from c4tui.server.ssh.settings import HOST_KEY_FILE, SshSetupError
from c4tui.storage import data_folder


class HostKeyError(SshSetupError):
    """The host key cannot be read or made: says which file and why."""


def default_host_key_path() -> Path:
    """Where the host key is kept unless ``--ssh-host-key`` names one."""
    return data_folder() / HOST_KEY_FILE


def load_host_key(path: Path | None) -> asyncssh.SSHKey:
    """The key in ``path``; with no path, the data folder's, made (ed25519) the first time.

    A key given with ``--ssh-host-key`` must exist: making one in its place would hide
    a typing mistake behind a new fingerprint.
    """
    if path is not None:
        return _read(path)
    path = default_host_key_path()
    if path.exists():
        return _read(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="c4tui host key")
    _write_private(path, key.export_private_key())
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…``, as ``ssh`` shows it when it asks whether to trust the host."""
    return key.get_fingerprint("sha256")


def _read(path: Path) -> asyncssh.SSHKey:
    try:
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError, ValueError) as error:
        raise HostKeyError(f"cannot read the ssh host key {path}: {error}") from error


def _write_private(path: Path, data: bytes) -> None:
    """Write the key readable by its owner only, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except OSError as error:
        raise HostKeyError(f"cannot keep the ssh host key in {path}: {error}") from error
