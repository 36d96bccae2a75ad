"""A real c4tui server with its ssh door on 127.0.0.1 (port 0), and keys for its visitors."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.ssh.settings import SshSettings
from tests.net.conftest import server_in_a_thread
from tests.ssh.terminal import make_key, ssh_client


@pytest.fixture(scope="session")
def host_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One host key for every server of the run (a real server makes its own once)."""
    return make_key(tmp_path_factory.mktemp("host") / "ssh_host_ed25519_key")


@pytest.fixture
def ssh_config(tmp_path: Path, host_key: Path) -> ServerConfig:
    """A server with its ssh door: its own database, cheap passwords, guests not allowed."""
    ssh_client()  # skips (fails on CI) without the OpenSSH client
    return ServerConfig(
        port=0,
        db=tmp_path / "lobby.sqlite3",
        bcrypt_rounds=4,
        ai_workers=1,
        ssh=SshSettings(port=0, host_key=host_key),
    )


@pytest.fixture
def ssh_server(ssh_config: ServerConfig) -> Iterator[C4Server]:
    """The server running, stopped cleanly after the test."""
    with server_in_a_thread(ssh_config) as server:
        yield server


@pytest.fixture
def guests_server(ssh_config: ServerConfig) -> Iterator[C4Server]:
    """The server with ``--ssh-guests``: keys without an account may play locally."""
    assert ssh_config.ssh is not None
    config = replace(ssh_config, ssh=replace(ssh_config.ssh, guests=True))
    with server_in_a_thread(config) as server:
        yield server


@pytest.fixture
def alice_key(tmp_path: Path) -> Path:
    """A visitor's key."""
    return make_key(tmp_path / "alice_ed25519")


@pytest.fixture
def bob_key(tmp_path: Path) -> Path:
    """Another visitor's key."""
    return make_key(tmp_path / "bob_ed25519")
