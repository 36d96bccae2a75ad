"""What an ssh visitor may not do, or not for long: the server's limits hold at its ssh door.

At most ``--ssh-max-visitors`` apps and ``--max-per-address`` connections from one
address; a key without an account plays only with ``--ssh-guests``; a visitor who
presses nothing and plays no game is cut off after the idle time.
"""

from __future__ import annotations

import logging
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.ssh.visit import TERMINAL_RESET
from tests.net.conftest import server_in_a_thread
from tests.ssh.terminal import (
    SshTerminal,
    door_port,
    make_key,
    run_ssh,
    ssh_client,
    ssh_options,
    visitor,
)
from tests.ssh.test_visits import make_account, type_name

NEW_KEY = "This ssh key is new here"


def with_ssh(config: ServerConfig, **settings: object) -> ServerConfig:
    assert config.ssh is not None
    return replace(config, ssh=replace(config.ssh, **settings))


@pytest.mark.parametrize(
    "limit",
    [{"ssh": {"max_visitors": 1}}, {"max_per_address": 1}],
    ids=["ssh-max-visitors", "max-per-address"],
)
def test_a_visitor_over_a_limit_is_told_the_server_is_full(
    ssh_config: ServerConfig, alice_key: Path, bob_key: Path, limit: dict[str, object]
) -> None:
    ssh_limits = limit.get("ssh")
    config = with_ssh(ssh_config, **ssh_limits) if isinstance(ssh_limits, dict) else ssh_config
    if "max_per_address" in limit:
        config = replace(config, max_per_address=1)
    with server_in_a_thread(config) as server, visitor(door_port(server), alice_key) as alice:
        alice.wait_for(NEW_KEY)
        refused = run_ssh(door_port(server), bob_key, "-tt", "127.0.0.1", seconds=30)
        assert refused.returncode == 255
        assert "c4tui is full" in refused.stderr
        alice.wait_for(NEW_KEY)  # the first visitor plays on


def test_without_guests_a_key_with_no_account_cannot_play(
    ssh_config: ServerConfig, alice_key: Path
) -> None:
    with server_in_a_thread(ssh_config) as server, visitor(door_port(server), alice_key) as alice:
        shown = alice.wait_for(NEW_KEY, "Quit")
        assert "Play without one" not in shown
        alice.press("escape")
        alice.process.wait(30)
        assert "need an account" in alice.written.decode(errors="replace")


def test_with_guests_a_key_with_no_account_plays_here(
    ssh_config: ServerConfig, alice_key: Path
) -> None:
    with (
        server_in_a_thread(with_ssh(ssh_config, guests=True)) as server,
        visitor(door_port(server), alice_key) as alice,
    ):
        alice.wait_for(NEW_KEY, "Play without one")
        alice.press("escape")
        alice.wait_for("Two players", "Computer", "Start game")


def test_a_visitor_who_presses_nothing_is_cut_off_but_not_in_a_game(
    ssh_config: ServerConfig, alice_key: Path, bob_key: Path
) -> None:
    config = with_ssh(ssh_config, guests=True, idle_seconds=1.0)
    with server_in_a_thread(config) as server:
        port = door_port(server)
        with visitor(port, alice_key) as idle, visitor(port, bob_key) as playing:
            playing.wait_for(NEW_KEY)
            playing.press("escape")  # a guest, to the menu
            playing.wait_for("Computer")
            playing.press("left", "enter")  # a game against the computer
            playing.wait_for("vs computer")
            idle.wait_for(NEW_KEY)
            idle.process.wait(30)  # nothing pressed: gone within the door's idle time
            assert "Nothing pressed for 1 s" in idle.written.decode(errors="replace")
            time.sleep(3)  # well past the idle time, and past the app's check
            assert playing.process.poll() is None  # a game in progress holds the visit


def test_registrations_are_counted_where_each_visitor_is(
    ssh_config: ServerConfig, alice_key: Path, bob_key: Path, tmp_path: Path
) -> None:
    """Every visitor's app reaches the lobby from this machine: the limit counts the visitor's
    own address (here 127.0.0.2 and 127.0.0.3), not that one."""
    config = replace(ssh_config, max_registrations=1)
    carol_key = make_key(tmp_path / "carol_ed25519")
    with server_in_a_thread(config) as server:
        port = door_port(server)
        with visitor(port, alice_key, options=["-b", "127.0.0.2"]) as alice:
            make_account(alice, "alice")
        with visitor(port, bob_key, options=["-b", "127.0.0.3"]) as bob:
            make_account(bob, "bob")  # another address: its own hour
        with visitor(port, carol_key, options=["-b", "127.0.0.2"]) as carol:
            type_name(carol, "carol")
            carol.press("enter")
            carol.wait_for("Too many accounts")  # alice's address had its one


def test_a_key_that_opens_no_session_is_cut(
    ssh_config: ServerConfig, alice_key: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``ssh -N`` (no terminal, no command) would hold a visitor's place for ever."""
    caplog.set_level(logging.INFO, "c4tui.server.ssh")
    config = with_ssh(ssh_config, session_seconds=1.0)
    with server_in_a_thread(config) as server:
        ran = run_ssh(door_port(server), alice_key, "-N", "127.0.0.1", seconds=30)
    assert ran.returncode == 255
    assert "opened no session in 1 s: cut" in caplog.text


def test_a_visitor_with_no_keyboard_floods_no_log_and_leaves_no_app(
    ssh_server: C4Server, alice_key: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``ssh -tt host < /dev/null``, then its ssh killed: nothing left, nothing spilled."""
    caplog.set_level(logging.INFO)
    command = [ssh_client(), *ssh_options(door_port(ssh_server), alice_key), "-tt", "127.0.0.1"]
    ssh = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    assert ssh_server.ssh is not None
    try:
        deadline = time.monotonic() + 60
        while not ssh_server.ssh.app_pids() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ssh_server.ssh.app_pids()
    finally:
        ssh.kill()
        ssh.wait(10)
    while ssh_server.ssh.app_pids() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ssh_server.ssh.app_pids() == []
    assert "Traceback" not in caplog.text


def test_a_server_that_stops_leaves_its_visitors_terminals_as_they_were(
    ssh_config: ServerConfig, alice_key: Path
) -> None:
    with server_in_a_thread(ssh_config) as server:
        alice = SshTerminal(door_port(server), alice_key)
        alice.wait_for(NEW_KEY)
    try:  # the server has stopped, its visitor in the app
        alice.process.wait(30)
        time.sleep(0.5)  # the last bytes, read
        written = bytes(alice.written)
    finally:
        alice.close()
    assert TERMINAL_RESET in written  # the main screen back, the mouse off, the cursor shown
    assert b"the server is stopping" in written
