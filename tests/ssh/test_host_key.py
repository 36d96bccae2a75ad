"""The ssh door's host key: made once in c4tui's data folder, the same at every start, logged.

Players check its fingerprint the first time (ssh asks them); a key that changed by
itself would make every player's ssh refuse the server as an impostor.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from c4tui.server.core import ServerConfig
from c4tui.server.ssh.host_key import HostKeyError, default_host_key_path, load_host_key
from c4tui.server.ssh.settings import SshSettings
from tests.net.conftest import server_in_a_thread
from tests.ssh.terminal import door_port, make_key, ssh_client


def test_the_key_is_made_once_kept_private_and_read_back() -> None:
    made = load_host_key(None)  # in the test's own data folder (tests/conftest.py)
    assert stat.S_IMODE(default_host_key_path().stat().st_mode) == 0o600
    assert load_host_key(None).get_fingerprint() == made.get_fingerprint()


def test_a_key_file_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HostKeyError, match="cannot read the ssh host key"):
        load_host_key(tmp_path / "no-such-key")


def fingerprint_ssh_saw(port: int, key: Path, known_hosts: Path) -> str:
    """Connect with the real ssh, keeping the host's key as a player's ssh does; its fingerprint."""
    options = ["-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR"]
    options += ["-o", "StrictHostKeyChecking=accept-new", "-o", f"UserKnownHostsFile={known_hosts}"]
    subprocess.run(
        [
            ssh_client(),
            "-F",
            "/dev/null",
            "-p",
            str(port),
            "-i",
            str(key),
            *options,
            "127.0.0.1",
            "true",
        ],
        capture_output=True,
        timeout=30,
        check=False,
    )
    listed = subprocess.run(
        ["ssh-keygen", "-lf", str(known_hosts)], capture_output=True, text=True, check=True
    )
    return listed.stdout.split()[1]


def test_the_fingerprint_is_logged_and_is_what_ssh_sees_at_every_start(
    ssh_config: ServerConfig, alice_key: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "c4tui.server.ssh")
    config = replace(ssh_config, ssh=SshSettings(port=0))  # the data folder's key, made now
    with server_in_a_thread(config) as server:
        first = fingerprint_ssh_saw(door_port(server), alice_key, tmp_path / "first")
    assert first.startswith("SHA256:")
    assert any(f"host key {first}" in record.getMessage() for record in caplog.records)
    with server_in_a_thread(config) as server:  # started again
        assert fingerprint_ssh_saw(door_port(server), alice_key, tmp_path / "again") == first


def test_a_key_given_on_the_command_line_is_the_one_served(
    ssh_config: ServerConfig, alice_key: Path, tmp_path: Path
) -> None:
    given = make_key(tmp_path / "given_key")
    config = replace(ssh_config, ssh=SshSettings(port=0, host_key=given))
    with server_in_a_thread(config) as server:
        seen = fingerprint_ssh_saw(door_port(server), alice_key, tmp_path / "known")
    listed = subprocess.run(
        ["ssh-keygen", "-lf", str(given)], capture_output=True, text=True, check=True
    )
    assert seen == listed.stdout.split()[1]


def run_serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``c4tui serve`` with ``options``, to its end (each of these stops at once)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "c4tui", "serve", "--port", "0", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)


def test_a_missing_host_key_stops_the_server_saying_so(tmp_path: Path) -> None:
    ran = run_serve(tmp_path, "--ssh-port", "0", "--ssh-host-key", str(tmp_path / "none"))
    assert ran.returncode == 1
    assert f"cannot read the ssh host key {tmp_path / 'none'}" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_ssh_options_without_the_ssh_port_are_refused(tmp_path: Path) -> None:
    ran = run_serve(tmp_path, "--ssh-guests")
    assert ran.returncode == 2
    assert "need --ssh-port" in ran.stderr
