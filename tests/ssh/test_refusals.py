"""Nothing but the app over ssh: commands, sftp, forwarding and passwords are refused.

Each refusal is tried with the real OpenSSH client, as an attacker would, and the
server's log says what it refused.
"""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from c4tui.server.core import C4Server
from tests.ssh.terminal import door_port, run_ssh, ssh_client, ssh_options


def test_a_command_is_refused(
    ssh_server: C4Server, alice_key: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "c4tui.server.ssh")
    ran = run_ssh(door_port(ssh_server), alice_key, "127.0.0.1", "cat /etc/passwd")
    assert ran.returncode != 0
    assert "root:" not in ran.stdout
    assert "refused a command ('cat /etc/passwd')" in caplog.text


def test_scp_is_refused(ssh_server: C4Server, alice_key: Path, tmp_path: Path) -> None:
    scp = shutil.which("scp")
    assert scp is not None, "scp comes with openssh-client"
    options = [o if o != "-p" else "-P" for o in ssh_options(door_port(ssh_server), alice_key)]
    copied = subprocess.run(
        [scp, "-O", *options, "127.0.0.1:/etc/hostname", str(tmp_path / "stolen")],
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert copied.returncode != 0
    assert not (tmp_path / "stolen").exists()


def test_sftp_is_refused(
    ssh_server: C4Server, alice_key: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "c4tui.server.ssh")
    sftp = shutil.which("sftp")
    assert sftp is not None, "sftp comes with openssh-client"
    options = [o if o != "-p" else "-P" for o in ssh_options(door_port(ssh_server), alice_key)]
    listed = subprocess.run(
        [sftp, "-b", "-", *options, "127.0.0.1"],
        input="ls /\n",
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert listed.returncode != 0
    assert "etc" not in listed.stdout
    assert "refused the 'sftp' subsystem" in caplog.text


def test_local_forwarding_reaches_nothing(
    ssh_server: C4Server, alice_key: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``ssh -L`` to the server's own lobby: the tunnel's connections are refused."""
    caplog.set_level(logging.INFO, "c4tui.server.ssh")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        local_port = free.getsockname()[1]
    target = f"{local_port}:127.0.0.1:{ssh_server.port}"
    command = [ssh_client(), *ssh_options(door_port(ssh_server), alice_key), "-N", "-L", target]
    tunnel = subprocess.Popen([*command, "127.0.0.1"], stderr=subprocess.PIPE)
    try:
        answer = _through_tunnel(local_port)
    finally:
        tunnel.kill()
        tunnel.wait(10)
    assert answer == b""  # opened by ssh, then closed: the server refused the channel
    assert f"refused forwarding to 127.0.0.1:{ssh_server.port}" in caplog.text


def _through_tunnel(port: int) -> bytes:
    """What comes back through the tunnel to a lobby LOGIN (b"": nothing, it closed)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as tunnel:
                tunnel.sendall(b"LOGIN:alice:secret\n")
                tunnel.settimeout(10)
                try:
                    return tunnel.recv(100)
                except ConnectionResetError:
                    return b""
        except ConnectionRefusedError:  # ssh is not listening yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_password_authentication_is_refused(ssh_server: C4Server) -> None:
    ran = run_ssh(
        door_port(ssh_server),
        None,
        "-o",
        "PreferredAuthentications=password,keyboard-interactive",
        "-o",
        "PubkeyAuthentication=no",
        "127.0.0.1",
        "true",
    )
    assert ran.returncode == 255
    assert "Permission denied (publickey)" in ran.stderr


def test_agent_and_x11_forwarding_are_refused(
    ssh_server: C4Server, alice_key: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A visitor's agent (its keys) and display never reach the server's side."""
    caplog.set_level(logging.INFO)
    agent_socket = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(agent_socket)], stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not agent_socket.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        env = {"SSH_AUTH_SOCK": str(agent_socket), "DISPLAY": ":99", "PATH": "/usr/bin:/bin"}
        command = [ssh_client(), *ssh_options(door_port(ssh_server), alice_key), "-A", "-X"]
        ran = subprocess.run(
            [*command, "127.0.0.1", "true"],
            capture_output=True,
            text=True,
            timeout=30,
            env=env,
            check=False,
        )
    finally:
        agent.kill()
        agent.wait(10)
    assert "X11 forwarding request failed" in ran.stderr
    assert "X11 forwarding request denied" in caplog.text
    assert "Agent forwarding request denied" in caplog.text
