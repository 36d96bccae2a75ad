"""The whole app over ssh, as a visitor has it: the real OpenSSH client on a terminal.

A new key names its account and is in the lobby; the same key is logged in at once
next time; two visitors play each other; a resize redraws; a visitor whose ssh dies
takes its app with it, and its game waits for it to come back.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from c4tui.server.core import C4Server
from tests.ssh.terminal import SshTerminal, alive, door_port, visitor

NEW_KEY = "This ssh key is new here"


def type_name(terminal: SshTerminal, name: str) -> None:
    """Type ``name`` in a new key's name field (it holds the ssh user's name: replaced).

    The keys go once the field has the focus (they would go elsewhere before): until
    the field shows the name typed, it is typed again.
    """
    terminal.wait_for(NEW_KEY)
    for _ in range(3):
        terminal.press(*["\x7f"] * 20, name)
        try:
            terminal.wait_for(f"Name {name} ", seconds=10)
            return
        except AssertionError:
            continue
    terminal.wait_for(f"Name {name} ")


def make_account(terminal: SshTerminal, name: str) -> None:
    """Name a new key's account, and be in the lobby."""
    type_name(terminal, name)
    terminal.press("enter")
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
        type_name(bob, "Alice")
        bob.press("enter")
        bob.wait_for("taken")  # and the name field has the focus again
        bob.press(*["\x7f"] * 20, "bob")
        bob.wait_for("Name bob ")
        bob.press("enter")
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


def app_pids(server: C4Server) -> list[int]:
    assert server.ssh is not None
    return server.ssh.app_pids()


def play(terminal: SshTerminal, column: int) -> None:
    terminal.press(str(column))
    time.sleep(0.1)  # a second digit within a moment would make a two-digit column
    terminal.press("enter")


def test_two_visitors_play_and_one_whose_ssh_dies_comes_back_to_its_game(
    ssh_server: C4Server, alice_key: Path, bob_key: Path
) -> None:
    port = door_port(ssh_server)
    with visitor(port, alice_key) as alice, visitor(port, bob_key) as bob:
        make_account(alice, "alice")
        make_account(bob, "bob")
        alice.press("c")
        alice.wait_for("is open")
        bob.press("r")
        bob.wait_for("alice room")
        bob.press("enter")
        alice.wait_for("alice vs bob")
        play(alice, 1)
        bob.wait_for("1. d1")
        play(bob, 2)
        alice.wait_for("1. d1 d2")
        apps_before = set(app_pids(ssh_server))
        bob.kill()
        alice.wait_for("bob lost the", "connection")
        gone = apps_before - set(app_pids(ssh_server))
        assert len(gone) == 1
        (bob_app,) = gone
        deadline = time.monotonic() + 30
        while alive(bob_app) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(bob_app)  # the visitor's app ended with its ssh
        with visitor(port, bob_key) as bob_again:
            bob_again.wait_for("Back in the game", "1. d1 d2")
            alice.wait_for("bob is back")
            for move in range(2, 4):
                play(alice, 1)
                bob_again.wait_for(f"{move}. d1")
                play(bob_again, 2)
                alice.wait_for(f"{move}. d1 d2")
            play(alice, 1)  # four in column 1
            alice.wait_for("wins")
            bob_again.wait_for("wins")


def test_a_game_against_the_computer_is_played_to_its_end(
    ssh_server: C4Server, alice_key: Path
) -> None:
    with visitor(door_port(ssh_server), alice_key) as alice:
        make_account(alice, "alice")
        alice.press("escape")  # the lobby's Back: the menu, Online chosen
        menu = alice.wait_for("Two players", "Computer", "ssh key logs you in")
        assert "Network" not in menu  # only this server's lobby: no other server
        alice.press("left")  # Computer (Random, red)
        levels = alice.wait_for("Level", "Perfect")
        assert "Program" not in levels  # a visitor's command would run on the server
        alice.press("enter")
        alice.wait_for("vs computer")
        deadline = time.monotonic() + 90
        column = 0
        while not any(end in alice.text() for end in ("wins", "draw", "Draw")):
            assert time.monotonic() < deadline, alice.text()
            play(alice, column % 7 + 1)
            column += 1
            time.sleep(0.3)


def test_the_app_draws_in_the_colours_the_visitor_s_terminal_reports(
    ssh_server: C4Server, alice_key: Path, bob_key: Path
) -> None:
    port = door_port(ssh_server)
    with visitor(port, alice_key, term="xterm-256color") as palette:
        palette.wait_for(NEW_KEY)
        assert b"\x1b[38;5;" in palette.written  # 256 colours, as TERM says
        assert b"\x1b[38;2;" not in palette.written
    truecolor = ["-o", "SetEnv=COLORTERM=truecolor"]
    with visitor(port, bob_key, term="xterm-256color", options=truecolor) as rgb:
        rgb.wait_for(NEW_KEY)
        assert b"\x1b[38;2;" in rgb.written  # millions, as COLORTERM says


def test_an_account_made_elsewhere_logs_in_with_its_password_once_then_with_the_key(
    ssh_server: C4Server, alice_key: Path
) -> None:
    with socket.create_connection(("127.0.0.1", ssh_server.port), timeout=10) as lobby:
        lobby.sendall(b"REGISTER:dave:secret-dave\n")
        assert lobby.recv(100) == b"REGISTER:ACKSTATUS:0\n"
    with visitor(door_port(ssh_server), alice_key) as dave:
        type_name(dave, "dave")  # the name field has the focus
        dave.press("tab", "tab", "enter")  # from it: Make my account, I have an account
        dave.wait_for("Log in to your account")
        dave.press("dave", "tab")
        dave.type_at_once("secret-dave", "enter")  # in one packet, as a fast typist's come
        dave.wait_for("logged in as dave")
    with visitor(door_port(ssh_server), alice_key) as again:
        shown = again.wait_for("logged in as dave")
        assert NEW_KEY not in shown
