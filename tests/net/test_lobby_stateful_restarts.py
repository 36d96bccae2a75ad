"""The lobby's state machine (``test_lobby_stateful``) with players who stay away and a
server that stops and starts again, against the same model (spec/protocols.md §5.1, §5.2).

Each example has a server of its own, on a database of its own, with a grace of two
seconds: a dropped player is AWAY to the others; while it is away the others play on
(the one to move may move), watch, chat, forfeit or drop too; then each away player
comes back in time (REJOIN, INPROGRESS, BOARDSTATUS; BACK to the others) or does
not, and the game ends as a disconnect forfeit (the one who left first loses; after
a restart, when neither came back, it is aborted: status 5). A graceful restart tells
everyone BYE:shutdown; the new server, on the same database, restores every game
under way (not the rooms still waiting, nor the viewers) with both players away.
Every game that ended must come back from HISTORY and GAME:<id> as the model kept it,
and every rating and record from PROFILE, and every block (§7) from BLOCKS and in the
answers to CHALLENGE, JOIN, QUICKPLAY and the room list, before a restart and after (a rated game
that ends by disconnect changes ratings too; its RATING goes only to a player there).

The grace is real time, so the model keeps time: a comeback is tried only early in
the grace (the rest of it is margin for a loaded machine), and every drop, return
and expiry is settled within one step, so between steps everyone is logged in and
nobody is away, as the rules of ``test_lobby_stateful`` expect.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.lobby_client import TEST_ROUNDS
from tests.net.stateful import machine_settings
from tests.net.stateful_ratings import Standings
from tests.net.stateful_table import Talk
from tests.net.test_lobby_stateful import NAMES, Client, LobbyProtocol, Room, cells

#: The server's grace for a dropped player, in seconds.
GRACE_SECONDS = 2.0
#: A comeback is tried only this soon after the grace began; the rest is margin.
IN_TIME = 1.0
#: Ways a connection ends without a word from the server first.
HANG_UPS = ("hang up", "hang up mid-line", "unknown command", "not UTF-8", "a line too long")
#: What may happen while players are away (each when it can).
MEANWHILE = ("come back", "move", "watch", "look", "chat", "drop too", "forfeit", "log in")


def a_game_under_way(machine: LobbyThroughDropsAndRestarts) -> bool:
    return any(room.yellow for room in machine.rooms.values())


class LobbyThroughDropsAndRestarts(LobbyProtocol):
    """The lobby's machine on a server of its own with a short grace, which may restart."""

    grace = math.ceil(GRACE_SECONDS)
    complete_history = True  # the example's own database
    #: Not rules here: accounts are the first machine's; their steps go to drops and restarts.
    a_stranger = None
    account_requests_when_logged_in = None

    def a_server(self) -> tuple[C4Server, set[str]]:
        """A new server on a new database (a restart keeps the database)."""
        self.folder = tempfile.TemporaryDirectory()
        self.database = Path(self.folder.name) / "lobby.sqlite3"
        self.departures = itertools.count()  # who left first, when two are away
        self.returning: set[str] = set()  # who is away and will come back in time
        return self._start(), set()

    def the_standings(self) -> Standings:
        """A new database's accounts: everyone starts at 1500."""
        return Standings()

    def the_reports(self) -> Counter[str]:
        """A new database's reports: none (a restart keeps them, and the model its count)."""
        return Counter()

    def _start(self) -> C4Server:
        config = ServerConfig(
            port=0,
            db=self.database,
            bcrypt_rounds=TEST_ROUNDS,
            reconnect_grace=GRACE_SECONDS,
        )
        self.running = contextlib.ExitStack()
        server = self.running.enter_context(server_in_a_thread(config))
        server.lobby.rooms.coin = random.Random(0)  # random colours alike on every replay
        return server

    def teardown(self) -> None:
        try:
            super().teardown()
        finally:
            self.running.close()
            self.folder.cleanup()

    # ----- rules -----------------------------------------------------------------------

    @precondition(a_game_under_way)
    @rule(data=st.data(), how=st.sampled_from(HANG_UPS))
    def a_player_drops_out(self, data: st.DataObject, how: str) -> None:
        """A player's connection ends: AWAY to the others, and its grace begins."""
        name = data.draw(st.sampled_from([n for n, r in self.rooms.items() if r.yellow]))
        room = self.rooms[name]
        since = time.monotonic()
        self._drop(data, room, data.draw(st.sampled_from(room.players)), how)
        self._while_away(data, since)

    @rule(data=st.data(), moves=st.integers(0, 5))
    def the_server_restarts(self, data: st.DataObject, moves: int) -> None:
        """A graceful stop (BYE:shutdown to everyone), then a new server on the same database.

        Every game under way is restored with both players away; a room still waiting
        and every viewer are not. Everyone logs in again on the new server's port, and
        every rating and record is as it was (PROFILE). (A game goes on a little first,
        so that either player may be to move.)
        """
        if moves and a_game_under_way(self):
            self.play_in_a_game(data, moves)
        self.running.close()
        for client in self.clients.values():
            client.expect("BYE:shutdown")
            assert client.hung_up_on() and not client.buffer, client.buffer
            client.close()
        self.clients.clear()
        self.after.clear()  # a finished room's last minute does not outlive its server
        departure = next(self.departures)
        for name, room in list(self.rooms.items()):
            if room.yellow is None:
                del self.rooms[name]
            else:
                room.viewers.clear()
                room.away = dict.fromkeys(room.players, departure)
                room.talk = Talk()  # a restored game has no offers, nothing to take back
                for player in room.players:
                    self._will_it_return(data, player)
        since = time.monotonic()
        self.server = self._start()
        self._while_away(data, since)
        for whose in NAMES:
            self.profile(data.draw(st.sampled_from(NAMES), label="asks"), whose)

    # ----- away and back ---------------------------------------------------------------

    def _drop(self, data: st.DataObject, room: Room, who: str, how: str) -> None:
        """``who``'s connection ends (``how``): it is away, the others hear it."""
        old = self.clients.pop(who)
        self._say_goodbye(old, how)
        if how not in ("hang up", "hang up mid-line"):
            assert old.hung_up_on() and not old.buffer, f"{who}'s old line got {old.buffer!r}"
        old.close()
        room.away[who] = next(self.departures)
        self._to(room.members, f"AWAY:{who}:{self.grace}")
        self._will_it_return(data, who)

    def _will_it_return(self, data: st.DataObject, who: str) -> None:
        """Whether ``who``, away, comes back in time (if time allows) or lets the grace run out."""
        if data.draw(st.booleans(), label=f"{who} comes back"):
            self.returning.add(who)

    def _while_away(self, data: st.DataObject, since: float) -> None:
        """Players are away since ``since``: meanwhile things happen; then the graces run out.

        Whatever still happens in the grace happens early in it (``IN_TIME``); those who
        have not come back by then lose their games, and everyone logs in again.
        """
        for _ in range(data.draw(st.integers(0, 6), label="meanwhile")):
            happenings = [what for what in MEANWHILE if self._can(what)]
            if time.monotonic() - since > IN_TIME or not happenings:
                break
            self._meanwhile(data, data.draw(st.sampled_from(happenings)))
        for name, room in self._away_rooms():
            for who in [who for who in room.away if who in self.returning]:
                if time.monotonic() - since < IN_TIME:  # else too late: its game is lost
                    self._comes_back(who, name, room)
        self.returning.clear()
        for name, room in self._away_rooms():
            self._grace_runs_out(name, room)
        self._wait_until_the_server_agrees()  # those games are over (none may be there to hear)
        for who in NAMES:
            if who not in self.clients:
                self._logs_in(who)

    def _away_rooms(self) -> list[tuple[str, Room]]:
        return [(name, room) for name, room in self.rooms.items() if room.away]

    def _can(self, what: str) -> bool:
        """Whether ``what`` can happen now (someone who can do it is there)."""
        if what == "log in":
            return bool(self._offline())
        if (what == "watch" and not self._free()) or (what == "look" and not self.clients):
            return False
        return any(self._can_in(what, room) for _, room in self._away_rooms())

    def _offline(self) -> list[str]:
        """Who is offline and away from no game (after a restart, anyone)."""
        away = {who for _, room in self._away_rooms() for who in room.away}
        return [who for who in NAMES if who not in self.clients and who not in away]

    def _free(self) -> list[str]:
        """Who is logged in and in no room."""
        return [who for who in self.clients if self.room_of(who) is None]

    def _meanwhile(self, data: st.DataObject, what: str) -> None:
        """One thing happening while players are away."""
        if what == "log in":
            self._logs_in(data.draw(st.sampled_from(self._offline())))
            return
        name, room = data.draw(
            st.sampled_from([(n, r) for n, r in self._away_rooms() if self._can_in(what, r)])
        )
        present = [p for p in room.players if p not in room.away]
        if what == "come back":
            who = data.draw(st.sampled_from([p for p in room.away if p in self.returning]))
            self._comes_back(who, name, room)
        elif what == "watch":
            self.join(data.draw(st.sampled_from(self._free())), name, "VIEWER")
        elif what == "look":  # the room is still playing, with both players named
            self.room_info(data.draw(st.sampled_from(list(self.clients))), name)
        elif what == "move":
            move = data.draw(st.sampled_from(room.state.legal_moves()))
            self.move(room.name_of(room.state.turn), move.kind.name, str(move.column + 1))
        elif what == "chat":
            self.chat(data.draw(st.sampled_from(room.members)), "meanwhile")
        elif what == "drop too":
            self._drop(data, room, data.draw(st.sampled_from(present)), "hang up")
        else:
            self.forfeit(data.draw(st.sampled_from(present)), "")

    def _can_in(self, what: str, room: Room) -> bool:
        """Whether ``what`` can happen in ``room`` (anything else: anywhere)."""
        if what == "move":
            return room.name_of(room.state.turn) not in room.away
        if what == "come back":
            return any(player in self.returning for player in room.away)
        if what in ("drop too", "forfeit"):
            return any(player not in room.away for player in room.players)
        if what == "chat":
            return bool(room.members)
        return True

    def _comes_back(self, who: str, name: str, room: Room) -> None:
        """``who`` logs in again in time: back in its game (BACK to the others)."""
        del room.away[who]
        self.returning.discard(who)
        self._logs_in(who)
        self._rejoined(who, name, room, back=True)

    def _logs_in(self, who: str) -> None:
        self.clients[who] = Client(self.port, who)
        self._log_in(who)

    def _grace_runs_out(self, name: str, room: Room) -> None:
        """Nobody away came back: the one who left first loses by disconnect, and those there
        hear GAMEEND with status 2; both at once (a restart, neither back): aborted, status 5."""
        first = min(room.away.values())
        leavers = [player for player, left in room.away.items() if left == first]
        if len(leavers) == 2:  # nobody's fault (its standing: as the server counts an abort)
            self._end(name, f"GAMEEND:{cells(room.state)}:5", None, "aborted")
            return
        winner = self._opponent(room, leavers[0])
        self._end(name, f"GAMEEND:{cells(room.state)}:2:{winner}", winner, "disconnect")


LobbyThroughDropsAndRestarts.TestCase.settings = machine_settings(examples=15, steps=25)
test_players_away_and_restarts_behave_like_the_model = LobbyThroughDropsAndRestarts.TestCase
