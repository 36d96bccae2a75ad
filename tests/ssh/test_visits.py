"""The whole app over ssh, as a visitor has it: the real OpenSSH client on a terminal.

A new key names its account and is in the lobby; the same key is logged in at once
next time; two visitors play each other; a resize redraws; a visitor whose ssh dies
takes its app with it, and its game waits for it to come back.
"""

from __future__ import annotations

import time
from pathlib import Path

from c4tui.server.core import C4Server
from tests.ssh.terminal import SshTerminal, alive, door_port, visitor

NEW_KEY = "This ssh key is new here"


def make_account(terminal: SshTerminal, name: str) -> None:
    """Name a new key's account (the field holds the ssh user's name: replaced)."""
    terminal.wait_for(NEW_KEY)
    terminal.press(*["\x7f"] * 20, name, "enter")
    terminal.wait_for(f"logged in as {name}")


def test_a_new_key_names_its_account_and_is_logged_in_at_once_next_time(
    ssh_server: C4Server, alice_key: Path
) -> None:
    with visitor(door_port(ssh_server), alice_key, user="alice") as first:
        first.wait_for(NEW_KEY, "alice")  # the ssh user's name, offered
        first.press("enter")
        first.wait_for("logged in as alice")
    with visitor(door_port(ssh_server), alice_key, user="someone") as again:
        shown = again.wait_for("logged in as alice")
        assert NEW_KEY not in shown


def test_a_name_taken_is_said_and_another_is_asked(
    ssh_server: C4Server, alice_key: Path, bob_key: Path
) -> None:
    with visitor(door_port(ssh_server), alice_key) as alice:
        make_account(alice, "alice")
    with visitor(door_port(ssh_server), bob_key) as bob:
        bob.wait_for(NEW_KEY)
        bob.press(*["\x7f"] * 20, "Alice", "enter")
        bob.wait_for("taken")
        bob.press(*["\x7f"] * 20, "bob", "enter")
        bob.wait_for("logged in as bob")


def test_a_resize_redraws_the_app(ssh_server: C4Server, alice_key: Path) -> None:
    with visitor(door_port(ssh_server), alice_key, columns=80, rows=24) as alice:
        make_account(alice, "alice")
        alice.resize(120, 40)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the footer is drawn on the new last row
            if alice.screen.display[39].strip() and len(alice.screen.display[39]) == 120:
                break
            time.sleep(0.05)
        assert alice.screen.display[39].strip(), alice.text()


def test_killing_ssh_ends_the_app(ssh_server: C4Server, alice_key: Path) -> None:
    with visitor(door_port(ssh_server), alice_key) as alice:
        make_account(alice, "alice")
        apps = ssh_server.ssh.app_pids() if ssh_server.ssh else []
        assert len(apps) == 1
        alice.kill()
        deadline = time.monotonic() + 30
        while alive(apps[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(apps[0])
