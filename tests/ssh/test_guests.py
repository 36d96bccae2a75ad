"""ssh guests (``--ssh-guests``, §9): a key without an account watches the lobby's games.

The real OpenSSH client on a terminal, as a visitor has it: the guest chooses "Watch as
a guest" on its key's welcome, is in the lobby as ``guest-<n>``, is told that guests only
watch when it presses a play key, and watches a game two account holders play (at
plain lobby connections: one app over ssh is enough here).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from c4tui.server.core import C4Server
from c4tui.ui.screens.lobby_guests import GUESTS_ONLY_WATCH
from tests.ssh.terminal import SCREEN_SECONDS, SshTerminal, door_port, visitor
from tests.ssh.test_visits import NEW_KEY

#: The first words of what a guest's play key says (the line may wrap after them).
ONLY_WATCH = " ".join(GUESTS_ONLY_WATCH.split()[:3])


#: The welcome's buttons, in their focus order.
BUTTONS = ("Make my account", "I have an account", "Watch as a guest", "Play without one")


def focused_button(terminal: SshTerminal) -> str | None:
    """The button drawn as focused (its label in reverse video), if any."""
    for label in BUTTONS:
        for y, line in enumerate(terminal.screen.display):
            x = line.find(label)
            if x >= 0 and terminal.screen.buffer[y][x + 1].reverse:
                return label
    return None


def watch_as_guest(terminal: SshTerminal) -> None:
    """On a new key's welcome, Tab to the "Watch as a guest" button (seen focused), Enter."""
    terminal.wait_for(NEW_KEY, *BUTTONS)
    deadline = time.monotonic() + SCREEN_SECONDS
    focused = None  # the name field's
    while focused != "Watch as a guest":
        terminal.press("tab")
        moved = None  # until the focus is drawn on the next button (not mid-redraw)
        while moved in (None, focused):
            assert time.monotonic() < deadline, terminal.text()
            time.sleep(0.02)
            moved = focused_button(terminal)
        focused = moved
    terminal.press("enter")


class Player:
    """An account holder at a plain lobby connection (blocking: the server runs in a thread)."""

    def __init__(self, port: int, user: str) -> None:
        self._socket = socket.create_connection(("127.0.0.1", port), timeout=SCREEN_SECONDS)
        self._lines = self._socket.makefile("r", encoding="utf-8", newline="\n")
        assert self.ask(f"REGISTER:{user}:pw") == "REGISTER:ACKSTATUS:0"
        assert self.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"

    def send(self, line: str) -> None:
        self._socket.sendall(f"{line}\n".encode())

    def line(self) -> str:
        return self._lines.readline().rstrip("\n")

    def ask(self, line: str) -> str:
        self.send(line)
        return self.line()

    def close(self) -> None:
        self._lines.close()
        self._socket.close()


def test_a_guest_watches_a_game_and_its_play_keys_say_guests_only_watch(
    guests_server: C4Server, alice_key: Path
) -> None:
    alice, bob = Player(guests_server.port, "alice"), Player(guests_server.port, "bob")
    try:
        with visitor(door_port(guests_server), alice_key) as guest:
            watch_as_guest(guest)
            guest.wait_for("logged in as guest-1", "You watch as a guest")
            guest.press("c")  # create: not for a guest, and nothing is asked of the server
            guest.wait_for(ONLY_WATCH)
            assert alice.ask("CREATE:friday:7:6:classic") == "CREATE:ACKSTATUS:0"
            assert bob.ask("JOIN:friday:PLAYER") == "JOIN:ACKSTATUS:0"
            guest.press("r")
            guest.wait_for("friday", "playing")
            guest.press("g")  # quick play: refused here too
            guest.wait_for(ONLY_WATCH)
            guest.press("w")
            guest.wait_for("Watching alice", "alice vs bob")
            for player, column, moves in [(alice, 1, "1. d1"), (bob, 2, "1. d1 d2")]:
                player.send(f"DROP:{column}")
                guest.wait_for(moves)
            guest.press("t")  # no chat from a guest, in the game either
            guest.wait_for(ONLY_WATCH)
    finally:
        alice.close()
        bob.close()
