"""The lobby's stateful test with §7's moderators: mutes as the model keeps them, and bans.

A mixin of rules for ``LobbyProtocol`` (tests/net/test_lobby_stateful.py). A moderator
(the account ``mod``, given its role in the database before its first login) comes
in for each of its acts on a connection of its own:
- MUTE for a minute: :0 for an account, :1 for none; the model keeps when the mute
  ends (between the bounds it can prove, epoch seconds, as the server counts it), and
  while it surely holds, the user's CHAT is answered CHAT:ACKSTATUS:1 and reaches
  nobody (the chat rule asks ``Muted``); near its end the user says nothing. Mutes
  hold across a restart; each example lifts its own at the end.
- BAN then UNBAN in one step: the banned user's game ends as a forfeit (GAMEEND :2 to
  everyone there, RATING after a rated one), its waiting room closes, as a viewer it
  leaves; it hears BYE:banned and is closed; its LOGIN answers :4 until the UNBAN, and
  then it logs in again. So between steps everyone is logged in, as the machine wants.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hypothesis import strategies as st
from hypothesis.stateful import rule

from tests.net.stateful_blocks import NAMES, TARGETS
from tests.net.stores import run_sql

if TYPE_CHECKING:
    from c4tui.engine import GameState
    from tests.net.test_lobby_stateful import Client, LobbyProtocol


def _client(port: int, name: str) -> Client:
    """A new connection for ``name``, of the machine's own kind (imported late: the
    machine's module imports this one)."""
    from tests.net.test_lobby_stateful import Client

    return Client(port, name)


def make_moderator(machine: LobbyProtocol) -> None:
    """The moderator's account, registered once per database, its role set behind its back."""
    if MODERATOR in machine.registered:
        return
    client = _client(machine.port, MODERATOR)
    client.send(f"REGISTER:{MODERATOR}:pw")
    client.expect("REGISTER:ACKSTATUS:0")
    client.close()
    machine.registered.add(MODERATOR)
    role = "UPDATE accounts SET role = 'moderator' WHERE name = ?"
    run_sql(_database(machine), role, [(MODERATOR,)])


def unmute_everyone(machine: LobbyProtocol) -> None:
    """Lift the mutes of this example, behind the server's back (no request lifts one):
    the next example's logins read none, so each starts as hypothesis first saw it."""
    if machine.muted.ends:
        lift = "UPDATE accounts SET muted_until = NULL WHERE name = ?"
        run_sql(_database(machine), lift, [(user,) for user in machine.muted.ends])
    machine.muted.ends.clear()


def _database(machine: LobbyProtocol) -> str:
    database = machine.server.config.db
    assert database is not None
    return str(database)


def _moderator(port: int) -> Client:
    """A connection logged in as the moderator (its role is read at login)."""
    client = _client(port, MODERATOR)
    client.send(f"LOGIN:{MODERATOR}:pw")
    client.expect("LOGIN:ACKSTATUS:0")
    return client


def _cells(state: GameState) -> str:
    """The spec's board, as the machine's module writes it."""
    from tests.net.test_lobby_stateful import cells

    return cells(state)


#: The moderator's account (not one of the four: no other rule names it).
MODERATOR = "mod"
#: How long a MUTE asks for, in minutes and in seconds.
MUTE_MINUTES = 1
MUTE_SECONDS = 60.0 * MUTE_MINUTES
#: Seconds either side of a mute's end when the model cannot say which side the server is on.
UNSURE = 5.0


@dataclass
class Muted:
    """When each mute ends, as the model can bound it: user: (no sooner, no later)."""

    ends: dict[str, tuple[float, float]] = field(default_factory=dict)

    def surely(self, user: str, now: float) -> bool:
        """Whether ``user`` is muted at ``now`` whatever the server's moment of the MUTE."""
        return user in self.ends and now < self.ends[user][0] - UNSURE

    def unsure(self, user: str, now: float) -> bool:
        """Whether ``user``'s mute may or may not hold at ``now`` (the model keeps quiet)."""
        return (
            user in self.ends and not self.surely(user, now) and now <= self.ends[user][1] + UNSURE
        )


class ModerationRules:
    """Rules for a moderator's MUTE and BAN (then UNBAN), against the model's ``muted``."""

    @rule(whom=TARGETS)
    def mute(self: LobbyProtocol, whom: str) -> None:
        """MUTE:<whom>:1 by the moderator: :0 for an account (its CHAT reaches nobody), else :1."""
        moderator = _moderator(self.port)
        earliest = time.time() + MUTE_SECONDS
        moderator.send(f"MUTE:{whom}:{MUTE_MINUTES}")
        status = 0 if whom in self.registered else 1
        moderator.expect(f"MUTE:ACKSTATUS:{status}")
        if status == 0:
            self.muted.ends[whom] = (earliest, time.time() + MUTE_SECONDS)
        moderator.quiet()
        moderator.close()

    @rule(whom=st.sampled_from(NAMES), hours=st.sampled_from([0, 1]))
    def ban_and_unban(self: LobbyProtocol, whom: str, hours: int) -> None:
        """BAN: out of its room (a game forfeited), BYE:banned; LOGIN :4; UNBAN; back in."""
        moderator = _moderator(self.port)
        found = self.room_of(whom)
        moderator.send(f"BAN:{whom}:{hours}:in the model")
        if found is not None:
            name, room = found
            if room.yellow is not None and whom in room.players:
                winner = self._opponent(room, whom)
                board = _cells(room.state)
                self._end(name, f"GAMEEND:{board}:2:{winner}", winner, "forfeit")
            elif whom == room.red:
                del self.rooms[name]  # a waiting room closes; its viewers are in no room
            else:
                room.viewers.remove(whom)
        banned = self.clients[whom]
        banned.expect("BYE:banned")
        assert banned.hung_up_on() and not banned.buffer, f"{whom} got {banned.buffer!r}"
        banned.close()
        moderator.expect("BAN:ACKSTATUS:0")
        again = self.clients[whom] = _client(self.port, whom)
        again.send(f"LOGIN:{whom}:pw:with:colons")
        again.expect("LOGIN:ACKSTATUS:4")
        moderator.send(f"UNBAN:{whom}")
        moderator.expect("UNBAN:ACKSTATUS:0")
        moderator.close()
        self._log_in(whom)
        self._wait_until_the_server_agrees()
