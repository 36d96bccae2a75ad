"""ssh guests (``--ssh-guests``, §9): a key without an account watches the lobby's games.

The real OpenSSH client on a terminal, as a visitor has it: the guest chooses "Watch as
a guest" on its key's welcome, is in the lobby as ``guest-<n>``, is told that guests only
watch when it presses a play key, and watches a game two account holders play.
"""

from __future__ import annotations

from pathlib import Path

from c4tui.server.core import C4Server
from c4tui.ui.screens.lobby_guests import GUESTS_ONLY_WATCH
from tests.ssh.terminal import SshTerminal, door_port, make_key, visitor
from tests.ssh.test_visits import NEW_KEY, make_account, play

#: The first words of what a guest's play key says (the line may wrap after them).
ONLY_WATCH = " ".join(GUESTS_ONLY_WATCH.split()[:3])


def watch_as_guest(terminal: SshTerminal) -> None:
    """On a new key's welcome, the "Watch as a guest" button (after the name and two)."""
    terminal.wait_for(NEW_KEY, "Watch as a guest", "Play without one")
    terminal.press(*["\x7f"] * 20, "guestly")  # the name field has the focus, then:
    terminal.wait_for("guestly")
    terminal.press("tab", "tab", "tab", "enter")  # Make my account, I have one, Watch
    terminal.wait_for("logged in as guest-1")


def test_a_guest_watches_a_game_and_its_play_keys_say_guests_only_watch(
    guests_server: C4Server, alice_key: Path, bob_key: Path, tmp_path: Path
) -> None:
    port = door_port(guests_server)
    carol_key = make_key(tmp_path / "carol_ed25519")
    with (
        visitor(port, alice_key) as alice,
        visitor(port, bob_key) as bob,
        visitor(port, carol_key) as guest,
    ):
        watch_as_guest(guest)
        guest.wait_for("You watch as a guest")
        guest.press("c")  # create: not for a guest, and nothing is asked of the server
        guest.wait_for(ONLY_WATCH)
        make_account(alice, "alice")
        make_account(bob, "bob")
        alice.press("c")
        alice.wait_for("is open")
        bob.press("r")
        bob.wait_for("alic")  # its room (columns may stay narrow on a loaded machine)
        bob.press("enter")
        alice.wait_for("alice vs bob")
        guest.press("r")
        guest.wait_for("playing")
        guest.press("g")  # quick play: refused here too
        guest.wait_for(ONLY_WATCH)
        guest.press("w")
        guest.wait_for("Watching alice", "alice vs bob")
        play(alice, 1)
        guest.wait_for("1. d1")
        play(bob, 2)
        guest.wait_for("1. d1 d2")
        guest.press("t")  # no chat from a guest, in the game either
        guest.wait_for(ONLY_WATCH)
        guest.press("escape")  # out of the game, and out of its room: a new guest's login
        guest.wait_for("You left the room", "You watch as a guest")
