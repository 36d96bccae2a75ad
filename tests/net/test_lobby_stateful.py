"""The lobby protocol as a state machine: random requests from four clients, every reply
predicted by a model (hypothesis.stateful), over real sockets to a real server.

The model is written from spec/protocols.md §4, with the engine as the referee of
every move: rooms in creation order, their settings, players and viewers, each
game's position, and what each client must receive, in order, after each step.
Where the spec is silent the model follows the choices the server documents (which
status wins when two apply; a second login closes the first connection and takes
its game over). A player who drops out of a game comes straight back, so the model
sees AWAY and BACK (§5.1) but never a grace running out (``test_lobby_stateful_restarts``
lets it run out, and restarts the server). Every game that ends is kept: HISTORY and
GAME:<id> (§5.2) must give it back as the model saw it played. A refusal's wording is
the server's own: the model predicts ``INVALID:`` and a reason. Rooms may be timed
(§5.4): CLOCK follows BEGIN, each BOARDSTATUS and a catching-up board, its times
checked between the bounds the model can prove (``stateful_clocks``). Rooms may be
rated (§5.3): the model keeps every account's Glicko-2 rating and record itself
(``stateful_ratings``), expects both RATING lines after a rated game's GAMEEND, and
holds PROFILE and LEADERBOARD to them; the module's server keeps its accounts from
one example to the next, and so does the model's table. Players block each other (§7):
the model's table of blocks (``stateful_blocks``) must come back from BLOCKS and
decide CHALLENGE's answers, and chat, quick play, the room list and JOIN:<room>:PLAYER
follow it; REPORT is answered by the model's count of each one's reports. Each example
starts with no block and lifts its own at the end (the module's server would keep them,
and a block changes which rooms and games an example goes through: hypothesis must see
the same steps do the same). §7's limits are off here, as ``ServerConfig``'s default
(the golden tests attack them). A moderator mutes and bans (``stateful_moderation``):
a muted player's CHAT is answered CHAT:ACKSTATUS:1 and reaches nobody while the model
knows the mute holds (each example lifts its own mutes at the end, as its blocks); a
ban forfeits the player's game, closes its waiting room or takes it from its seat as a
viewer, says BYE:banned, refuses its LOGIN (:4) until the UNBAN.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
import socket
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from c4tui.engine import DrawReason, GameState, Move, MoveKind, Player, Rules, format_move
from c4tui.protocols.terms import CASUAL, Clock, Terms
from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.sql_games import utc_now
from c4tui.server.store import HISTORY_LIMIT
from tests.net.conftest import server_in_a_thread
from tests.net.lobby_client import TEST_ROUNDS
from tests.net.stateful import machine_settings, wait_until_rooms_are
from tests.net.stateful_blocks import Blocked, BlockRules
from tests.net.stateful_clocks import TERMS, ModelClock, terms_asked, terms_words
from tests.net.stateful_moderation import (
    ModerationRules,
    Muted,
    make_moderator,
    unmute_everyone,
)
from tests.net.stateful_ratings import Standings
from tests.net.stateful_table import TableRules, Talk

NAMES = ("ann", "bob", "cid", "dee")
TIMEOUT = 3.0
#: The server's grace for a dropped player (the default), as AWAY says it.
GRACE = 60
#: One server for every example (each ends with everyone hung up, so no room is left),
#: the names it has accounts for, and every account's rating and record on it as the
#: model worked them out. An example that fails leaves them disagreeing (games left
#: with players away, ratings the model did not follow): the next example then starts
#: on a new server (``SPOILED``), so what hypothesis shrinks to runs on a clean one.
SERVER: C4Server | None = None
REGISTERED: set[str] = set()
STANDINGS = Standings()
REPORTS_SENT: Counter[str] = Counter()  # each user's reports kept (§7: 10 an hour)
SPOILED = False
_RUNNING = contextlib.ExitStack()
#: Names no account has: each failed login uses a new one (failures are throttled per user).
STRANGERS = (f"ghost{n}" for n in itertools.count())


@pytest.fixture(autouse=True, scope="module")
def one_server() -> Iterator[None]:
    """Start the server the examples share; stop it at the end."""
    _a_new_shared_server()
    try:
        yield
    finally:
        _stop_the_shared_server()


def _a_new_shared_server() -> C4Server:
    """Stop the shared server if one runs; start a new one on a new database."""
    global SERVER, SPOILED  # noqa: PLW0603 (hypothesis makes the machines; they find it here)
    _stop_the_shared_server()
    folder = _RUNNING.enter_context(tempfile.TemporaryDirectory())
    config = ServerConfig(port=0, db=Path(folder) / "accounts.sqlite3", bcrypt_rounds=TEST_ROUNDS)
    SERVER = _RUNNING.enter_context(server_in_a_thread(config))
    SPOILED = False
    return SERVER


def _stop_the_shared_server() -> None:
    global SERVER  # noqa: PLW0603
    _RUNNING.close()
    SERVER = None
    REGISTERED.clear()
    STANDINGS.table.clear()
    REPORTS_SENT.clear()


ROOMS = ("r1", "r2", "room 3", "nowhere", "bad'name", "")
#: (what CREATE or QUICKPLAY adds after the room, the game it asks for or None if malformed)
SETTINGS: tuple[tuple[str, tuple[int, int, Rules] | None], ...] = (
    ("", (7, 6, Rules.POPOUT)),
    (":4:4:classic", (4, 4, Rules.CLASSIC)),
    (":4:4:popout", (4, 4, Rules.POPOUT)),
    (":5:4:classic", (5, 4, Rules.CLASSIC)),
    (":3:4:classic", None),
    (":4:21:popout", None),
    (":4:4:Classic", None),
    (":4:4", None),
    (":4:4:classic:x", None),
)
RULE_WORDS = {Rules.CLASSIC: "classic", Rules.POPOUT: "popout"}
#: Seconds after GAMEEND within which the model is sure its room's chat still works (of 60).
AFTERMATH_SURE = 45.0
#: Chat in any Unicode (§5.6), line ends aside (they end the line), and the edges of the rule.
CHAT_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), min_size=1, max_size=8
) | st.sampled_from(
    ["", "x" * 200, "x" * 201, "é" * 200, "é" * 201, "\x1b[2J", "a\u202eb", "gg 🙂"]
)


def chat_allowed(text: str) -> bool:
    """1-200 characters, none of them a control, format, private, unassigned or separator one."""
    categories = {unicodedata.category(character) for character in text}
    return 0 < len(text) <= 200 and not any(c[0] == "C" or c in ("Zl", "Zp") for c in categories)


@dataclass
class Room:
    """A room as the model sees it."""

    red: str
    game: tuple[int, int, Rules]
    yellow: str | None = None
    viewers: list[str] = field(default_factory=list)
    state: GameState = field(init=False)
    moves: list[Move] = field(default_factory=list)
    #: Players away from the game, and in what order they left (equal: at once, a restart).
    away: dict[str, int] = field(default_factory=dict)
    terms: Terms = CASUAL  # rated or casual, and the clock it was asked with (§5.4)
    clock: ModelClock | None = None  # a timed game's times, once it began
    talk: Talk = field(default_factory=Talk)  # offers and the game before its last move (§5.6)
    colour: str = "red"  # the creator's (§5.6): red, yellow, or random (quick play's)

    def __post_init__(self) -> None:
        self.state = GameState.new(*self.game)

    @property
    def timing(self) -> Clock | None:
        """The clock it was asked with (None: untimed)."""
        return self.terms.clock

    @property
    def members(self) -> list[str]:
        """Everyone in the room now: players first (not those away), then viewers."""
        return [player for player in self.players if player not in self.away] + self.viewers

    @property
    def players(self) -> list[str]:
        return [self.red] if self.yellow is None else [self.red, self.yellow]

    def name_of(self, player: Player) -> str:
        name = self.red if player is Player.RED else self.yellow
        assert name is not None
        return name


@dataclass(eq=False)
class Aftermath:
    """A finished room's last minute (§5.6): who of those there at the end is still in it."""

    ended: float  # the model's monotonic time (a moment after the server's)
    present: list[str]

    @property
    def stale(self) -> bool:
        """Too near the window's end (60 s) to say which side of it a chat would fall."""
        return time.monotonic() - self.ended > AFTERMATH_SURE


@dataclass
class FinishedGame:
    """A game that ended, as GAME:<id> must give it back (its id once HISTORY said it)."""

    red: str
    yellow: str
    game: tuple[int, int, Rules]
    winner: str | None
    reason: str
    moves: list[Move]
    rated: bool
    clock: Clock | None
    number: int | None = None


def cells(state: GameState) -> str:
    """The spec's board: cols*rows digits from the top row down; 0 empty, 1 red, 2 yellow."""
    digit = {None: "0", Player.RED: "1", Player.YELLOW: "2"}
    return "".join(
        digit[state.cell(column, row)]
        for row in reversed(range(state.rows))
        for column in range(state.columns)
    )


def game_words(game: tuple[int, int, Rules]) -> str:
    columns, rows, rules = game
    return f"{columns}:{rows}:{RULE_WORDS[rules]}"


class Client:
    """A blocking socket, lines in and out; what it receives is matched against the model."""

    def __init__(self, port: int, name: str) -> None:
        self.name = name
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buffer = b""

    def send(self, line: str | bytes) -> None:
        self.sent_at = time.monotonic()  # a timed turn it begins began no earlier
        self.socket.sendall(line if isinstance(line, bytes) else (line + "\n").encode("utf-8"))

    def line(self) -> str:
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self.buffer and time.monotonic() < deadline:
            chunk = self.socket.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        line, newline, self.buffer = self.buffer.partition(b"\n")
        assert newline, f"{self.name} expected a line, got {line!r} and then nothing"
        return line.decode("utf-8").removesuffix("\r")

    def expect(self, message: str) -> None:
        got = self.line()
        assert got == message, f"{self.name} expected {message!r}, got {got!r}"

    def expect_away(self, user: str, at_most: int) -> None:
        """AWAY for ``user`` with the seconds it has left (a moment after it left: fewer)."""
        got = self.line()
        found = re.fullmatch(rf"AWAY:{user}:([0-9]+)", got)
        assert found and int(found[1]) <= at_most, f"{self.name} expected AWAY:{user}, got {got!r}"

    def expect_refusal(self) -> None:
        got = self.line()
        assert re.fullmatch(r"INVALID:.+", got), f"{self.name} expected INVALID, got {got!r}"

    def quiet(self, seconds: float = 0.05) -> None:
        self.socket.settimeout(seconds)
        try:
            extra = self.socket.recv(65536)
        except TimeoutError:
            extra = b""
        finally:
            self.socket.settimeout(TIMEOUT)
        assert not self.buffer and not extra, f"{self.name} got {self.buffer!r}{extra!r}"

    def hung_up_on(self) -> bool:
        """True once the server has closed the connection (after anything still unread)."""
        try:
            while chunk := self.socket.recv(65536):
                self.buffer += chunk
        except ConnectionResetError:
            pass
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.close()


class LobbyProtocol(TableRules, BlockRules, ModerationRules, RuleBasedStateMachine):
    """Four logged-in clients; rooms r1, r2, "room 3" and quick ones (and names never made)."""

    #: Seconds a dropped player has to come back, as AWAY says them.
    grace = GRACE
    #: Whether the server has kept no game but this example's (HISTORY lists no others).
    complete_history = False

    def __init__(self) -> None:
        super().__init__()
        self.began = utc_now()
        self.failed = False
        self.server, self.registered = self.a_server()
        self.server.lobby.rooms.coin = random.Random(0)  # random colours alike on every replay
        self.standings = self.the_standings()
        self.blocked = self.the_blocks()
        self.reports_sent = self.the_reports()
        self.muted = Muted()  # none yet (``teardown`` lifts this example's mutes)
        self.rooms: dict[str, Room] = {}  # in creation order
        self.finished: list[FinishedGame] = []  # in the order they ended
        self.after: dict[str, Aftermath] = {}  # who is still in a finished room (§5.6)
        self.clients: dict[str, Client] = {}
        for name in NAMES:
            client = Client(self.port, name)
            status = 1 if name in self.registered else 0
            client.send(f"REGISTER:{name}:pw:with:colons")
            client.expect(f"REGISTER:ACKSTATUS:{status}")
            self.registered.add(name)
            self.clients[name] = client
            self._log_in(name)
        make_moderator(self)

    def a_server(self) -> tuple[C4Server, set[str]]:
        """The server to talk to, and the names it has accounts for: the module's (a new
        one after an example that failed)."""
        assert SERVER is not None, "the module's fixture starts the server"
        return _a_new_shared_server() if SPOILED else SERVER, REGISTERED

    def spoiled(self) -> None:
        """This example failed: the next one starts on a new server."""
        global SPOILED  # noqa: PLW0603
        SPOILED = self.failed = True

    def the_standings(self) -> Standings:
        """The model's ratings and records of the server's accounts: the module's."""
        return STANDINGS

    def the_blocks(self) -> Blocked:
        """Who blocks whom on the server, as the model has it: none yet (``teardown`` lifts
        this example's blocks)."""
        return Blocked()

    def the_reports(self) -> Counter[str]:
        """How many reports each user sent to the server (all within the hour): the module's."""
        return REPORTS_SENT

    @property
    def port(self) -> int:
        return self.server.port

    def _log_in(self, name: str) -> None:
        client = self.clients[name]
        client.send(f"LOGIN:{name}:pw:with:colons")
        client.expect("LOGIN:ACKSTATUS:0")

    def teardown(self) -> None:
        """Check nothing more came; end the games; everyone's history and profile; out of
        every finished room (§5.6: a login within the minute would be back in it); hang up;
        wait until no room is left.

        A game under way is forfeited first: its players hanging up would only be away.
        """
        # Hypothesis calls teardown from a ``finally``: a rule that failed is in flight.
        if sys.exc_info()[1] is not None:
            self.spoiled()
        try:
            for client in self.clients.values():
                client.quiet()
            for room in [room for room in self.rooms.values() if room.yellow is not None]:
                self.forfeit(room.red, "")
            for name in NAMES:
                self.history(name, "")
                self.profile(NAMES[0], name)
            for game in self.finished:
                self.look_at_a_finished_game(game, NAMES[0])
            for name in NAMES:  # out of any finished room: the next example's model knows none
                if self.room_of(name) is None:
                    self.clients[name].send(f"CREATE:leaving {name}")
                    self.clients[name].expect("CREATE:ACKSTATUS:0")
            self.unblock_everyone()  # the next example starts with no block
            unmute_everyone(self)  # nor any mute
        except BaseException:
            self.spoiled()
            raise
        finally:
            for client in self.clients.values():
                client.close()
            self.rooms.clear()
            if not self.failed:  # else games are left, with their players away
                self._wait_until_the_server_agrees()

    def _entered(self, who: str) -> None:
        """``who`` entered a room: it is no longer in a finished one (§5.6)."""
        aftermath = self.after.pop(who, None)
        if aftermath is not None:
            aftermath.present.remove(who)

    def room_of(self, name: str) -> tuple[str, Room] | None:
        return next(((n, r) for n, r in self.rooms.items() if name in r.members), None)

    def _to(self, names: list[str], message: str) -> None:
        for name in names:
            self.clients[name].expect(message)

    # ----- rules: rooms ----------------------------------------------------------------

    @initialize(
        first=st.sampled_from(NAMES),
        second=st.sampled_from(NAMES),
        game=st.sampled_from([":4:4:classic", ":4:4:popout", ""]),
        viewer=st.sampled_from([None, *NAMES]),
        terms=st.sampled_from(["", ":casual:10+5", ":rated", ":rated:10+5"]),
    )
    def start_a_game(
        self, first: str, second: str, game: str, viewer: str | None, terms: str
    ) -> None:
        """Every example starts with a game under way, or a room waiting (the same name twice),
        and maybe a viewer; timed or not, rated or casual."""
        self.create(first, "r1", game, terms if game else "")
        self.join(second, "r1", "PLAYER")
        if viewer is not None:
            self.join(viewer, "r1", "VIEWER")

    @rule(game=st.sampled_from([":4:4:classic", ""]))
    def the_free_wait_alike(self, game: str) -> None:
        """All but one of those in no room create rooms alike; the last one quick-plays.

        QUICKPLAY must pick the oldest of the rooms that wait with those settings.
        """
        free = [name for name in NAMES if self.room_of(name) is None]
        names = [n for n in ("r1", "r2", "room 3") if n not in self.rooms]
        for who, room in zip(free[:-1], names, strict=False):
            self.create(who, room, game)
        if free:
            self.quick_play(free[-1], game)

    @precondition(lambda self: any(room.yellow is None for room in self.rooms.values()))
    @rule(data=st.data())
    def quick_play_as_a_room_waits(self, data: st.DataObject) -> None:
        """QUICKPLAY with the settings of a room that waits (most random ones match none)."""
        waiting = [(r.game, r.terms) for r in self.rooms.values() if r.yellow is None]
        game, room_terms = data.draw(st.sampled_from(waiting))
        columns, rows, rules = game
        asked = "" if game == (7, 6, Rules.POPOUT) else f":{columns}:{rows}:{RULE_WORDS[rules]}"
        terms = terms_asked(room_terms)
        if terms and not asked:
            asked = f":{columns}:{rows}:{RULE_WORDS[rules]}"  # terms follow the board only
        free = [name for name in NAMES if self.room_of(name) is None]
        self.quick_play(data.draw(st.sampled_from(free or NAMES)), asked, terms)

    @rule(who=st.sampled_from(NAMES), mode=st.sampled_from(["PLAYER", "VIEWER", "player", ""]))
    def room_list(self, who: str, mode: str) -> None:
        self.clients[who].send(f"ROOMLIST:{mode}")
        got = self.clients[who].line()
        if mode not in ("PLAYER", "VIEWER"):
            assert got == "ROOMLIST:ACKSTATUS:1", got
            return
        prefix = "ROOMLIST:ACKSTATUS:0:"
        assert got.startswith(prefix), got
        listed = got.removeprefix(prefix)
        wanted = [
            n
            for n, r in self.rooms.items()
            if mode == "VIEWER" or (r.yellow is None and not self.blocked.between(r.red, who))
        ]  # a waiting room across a block is not the asker's to play in (§7)
        assert sorted(listed.split(",") if listed else []) == sorted(wanted)  # any order

    @rule(who=st.sampled_from(NAMES), room=st.sampled_from([*ROOMS, "r1:x"]))
    def room_info(self, who: str, room: str) -> None:
        self.clients[who].send(f"ROOMINFO:{room}")
        target = self.rooms.get(room)
        if target is None:
            self.clients[who].expect("ROOMINFO:ACKSTATUS:1")
            return
        stage = "waiting" if target.yellow is None else "playing"
        seats = f"{target.red}:{target.yellow or ''}"
        if stage == "waiting" and target.colour == "yellow":
            seats = f":{target.red}"  # the creator waits in yellow's seat, red's is empty
        self.clients[who].expect(
            f"ROOMINFO:ACKSTATUS:0:{game_words(target.game)}:{seats}:"
            f"{len(target.viewers)}:{stage}:{terms_words(target.terms)}"
        )

    @rule(
        who=st.sampled_from(NAMES),
        room=st.sampled_from(ROOMS),
        game=st.sampled_from([suffix for suffix, _ in SETTINGS]),
        terms=st.sampled_from([suffix for suffix, _ in TERMS]),
        colour=st.sampled_from(["", ":yellow", ":random", ":red"]),
    )
    def create(self, who: str, room: str, game: str, terms: str = "", colour: str = "") -> None:
        self.clients[who].send(f"CREATE:{room}{game}{terms}{colour}")
        settings_asked = dict(SETTINGS)[game]
        asked_terms = dict(TERMS)[terms]
        if room in ("bad'name", ""):
            status = 1
        elif (
            settings_asked is None
            or self.room_of(who) is not None
            or asked_terms == "bad"
            or (terms and not game)
        ):
            status = 4
        elif room in self.rooms:
            status = 2
        else:
            status = 0
            self._entered(who)
            self.rooms[room] = Room(
                who, settings_asked, terms=_well_formed(asked_terms), colour=colour[1:] or "red"
            )
        self.clients[who].expect(f"CREATE:ACKSTATUS:{status}")

    @rule(
        who=st.sampled_from(NAMES),
        room=st.sampled_from(ROOMS),
        mode=st.sampled_from(["PLAYER", "VIEWER", "viewer"]),
    )
    def join(self, who: str, room: str, mode: str) -> None:
        client = self.clients[who]
        client.send(f"JOIN:{room}:{mode}")
        target = self.rooms.get(room)
        if mode not in ("PLAYER", "VIEWER") or self.room_of(who) is not None:
            client.expect("JOIN:ACKSTATUS:3")
        elif target is None:
            client.expect("JOIN:ACKSTATUS:1")
        elif mode == "PLAYER" and target.yellow is not None:
            client.expect("JOIN:ACKSTATUS:2")
        elif mode == "PLAYER" and self.blocked.between(target.red, who):
            client.expect("JOIN:ACKSTATUS:1")  # §7: as if there were no such room
        elif mode == "PLAYER":
            client.expect("JOIN:ACKSTATUS:0")
            self._entered(who)
            self._begin(target, who)
        else:
            client.expect("JOIN:ACKSTATUS:0")
            self._entered(who)
            target.viewers.append(who)
            if target.yellow is not None:
                state = target.state
                to_move, other = target.name_of(state.turn), target.name_of(state.turn.other)
                client.expect(f"INPROGRESS:{to_move}:{other}:{game_words(target.game)}")
                client.expect(f"BOARDSTATUS:{cells(state)}")
                self._clock_caught_up(who, target)
                self._still_away(who, target)

    def _still_away(self, who: str, room: Room) -> None:
        """One who enters a game hears who is away from it, in the order they left."""
        for player in room.away:
            self.clients[who].expect_away(player, self.grace)

    def _begin(self, room: Room, yellow: str) -> None:
        """The second player sits down in the seat the creator did not choose (§5.6); a random
        colour (quick play's) is the server's coin's: BEGIN says."""
        room.yellow = yellow
        if room.colour == "yellow":
            room.red, room.yellow = yellow, room.red
        begin = f"BEGIN:{room.red}:{room.yellow}:{game_words(room.game)}"
        if room.colour == "random":
            first, *others = room.members
            got = self.clients[first].line()
            assert got in (begin, f"BEGIN:{yellow}:{room.red}:{game_words(room.game)}"), got
            if got != begin:
                room.red, room.yellow, begin = yellow, room.red, got
            self._to(others, begin)
        else:
            self._to(room.members, begin)
        if room.timing is not None:
            line = self._clock_heard(room.members)
            room.clock = ModelClock.began(room.timing, line, self.clients[yellow].sent_at)

    def _clock_heard(self, names: list[str]) -> str:
        """The CLOCK line everyone in ``names`` hears alike (the first of them reads it)."""
        line = self.clients[names[0]].line()
        self._to(names[1:], line)
        return line

    def _clock_caught_up(self, who: str, room: Room) -> None:
        """CLOCK to one who joins or comes back to a timed game under way."""
        if room.clock is not None:
            room.clock.caught_up(room.state.turn, self.clients[who].line())

    @precondition(lambda self: bool(self.rooms))
    @rule(data=st.data())
    def join_a_room_that_exists(self, data: st.DataObject) -> None:
        """Most random JOINs miss; these find a room (waiting or playing)."""
        room = data.draw(st.sampled_from(list(self.rooms)))
        who = data.draw(st.sampled_from(NAMES))
        self.join(who, room, data.draw(st.sampled_from(["PLAYER", "VIEWER"])))

    @rule(
        who=st.sampled_from(NAMES),
        game=st.sampled_from(
            [":4:4:classic", ":4:4:popout", ":5:4:classic", ":7:6:popout", ":3:4:classic", ""]
        ),
        terms=st.sampled_from([suffix for suffix, _ in TERMS]),
    )
    def quick_play(self, who: str, game: str, terms: str = "") -> None:
        client = self.clients[who]
        client.send(f"QUICKPLAY{game}{terms}")
        settings_asked = dict(SETTINGS).get(game.replace(":7:6:popout", ""))
        asked_terms = dict(TERMS)[terms]
        if settings_asked is None or self.room_of(who) is not None:
            client.expect("QUICKPLAY:ACKSTATUS:1")
            return
        if asked_terms == "bad" or (terms and not game):  # terms follow the board only
            client.expect("QUICKPLAY:ACKSTATUS:1")
            return
        waiting = [
            n
            for n, r in self.rooms.items()
            if r.yellow is None
            and (r.game, r.terms) == (settings_asked, _well_formed(asked_terms))
            and not self.blocked.between(r.red, who)  # never across a block (§7)
        ]
        if waiting:  # the oldest, which comes first in creation order
            client.expect(f"QUICKPLAY:ACKSTATUS:0:{waiting[0]}")
            self._entered(who)
            self._begin(self.rooms[waiting[0]], who)
            return
        got = client.line()
        found = re.fullmatch(r"QUICKPLAY:ACKSTATUS:0:(quick-[0-9]+)", got)
        assert found, got
        assert found[1] not in self.rooms, f"{found[1]} was already a room"
        self._entered(who)
        self.rooms[found[1]] = Room(
            who, settings_asked, terms=_well_formed(asked_terms), colour="random"
        )

    # ----- rules: games ----------------------------------------------------------------

    @precondition(lambda self: any(room.yellow for room in self.rooms.values()))
    @rule(data=st.data(), moves=st.integers(1, 12))
    def play_in_a_game(self, data: st.DataObject, moves: int) -> None:
        """A game under way goes on: legal moves by the player to move (several in a row)."""
        name = data.draw(st.sampled_from([n for n, r in self.rooms.items() if r.yellow]))
        for _ in range(moves):
            room = self.rooms.get(name)
            if room is None:
                return  # it ended
            move = data.draw(st.sampled_from(room.state.legal_moves()))
            self.move(room.name_of(room.state.turn), move.kind.name, str(move.column + 1))

    @precondition(lambda self: any(room.yellow for room in self.rooms.values()))
    @rule(data=st.data())
    def try_any_move_in_a_game(self, data: st.DataObject) -> None:
        """A member of a game under way tries a move: in turn or not, legal or not."""
        room = data.draw(st.sampled_from([r for r in self.rooms.values() if r.yellow]))
        who = data.draw(st.sampled_from(room.members))
        column = data.draw(st.integers(0, room.game[0] + 1))
        self.move(who, data.draw(st.sampled_from(["DROP", "POP"])), str(column))

    @rule(
        who=st.sampled_from(NAMES),
        kind=st.sampled_from(["DROP", "POP"]),
        column=st.sampled_from(["1", "4", "0", "-1", "x", "", "99999999999"]),
    )
    def move(self, who: str, kind: str, column: str) -> None:
        self.clients[who].send(f"{kind}:{column}")
        found = self.room_of(who)
        if found is None:
            self.clients[who].expect("NOROOM")
            return
        name, room = found
        state = room.state
        playing = room.yellow is not None and who in room.players
        if not playing or room.name_of(state.turn) != who or not column.isdigit():
            self.clients[who].expect_refusal()
            return
        move = Move(MoveKind[kind], int(column) - 1)
        if not state.is_legal(move):
            self.clients[who].expect_refusal()
            return
        self.moving(room, who)  # what it declines (§5.6), and how to take it back
        room.state = state.play(move)
        room.moves.append(move)
        self._after_a_move(name, room, who)

    def _after_a_move(self, name: str, room: Room, mover: str) -> None:
        state = room.state
        if not state.is_over:
            self._to(room.members, f"BOARDSTATUS:{cells(state)}")
            if room.clock is not None:
                line = self._clock_heard(room.members)
                room.clock.moved(state.turn.other, line, self.clients[mover].sent_at)
        elif state.winner is None:
            reason = "repetition" if state.draw_reason is DrawReason.REPETITION else "full"
            self._end(name, f"GAMEEND:{cells(state)}:1", None, reason)
        else:
            winner = room.name_of(state.winner)
            assert winner == mover or state.rules is Rules.POPOUT  # only a pop can lose
            self._end(name, f"GAMEEND:{cells(state)}:0:{winner}", winner, "four")

    def _end(self, name: str, message: str, winner: str | None, reason: str) -> None:
        """The game in ``name`` ended: everyone there hears ``message``, and it is kept.

        It counts in both players' records; a rated one changes their ratings, and
        each player still there hears both RATING lines right after GAMEEND (§5.3).
        """
        room = self.rooms.pop(name)
        self._to(room.members, message)
        aftermath = Aftermath(time.monotonic(), list(room.members))
        self.after.update(dict.fromkeys(aftermath.present, aftermath))
        assert room.yellow is not None, "only a game under way ends"
        self.finished.append(
            FinishedGame(
                room.red,
                room.yellow,
                room.game,
                winner,
                reason,
                room.moves,
                room.terms.rated,
                room.terms.clock,
            )
        )
        news = []  # an aborted game counts in nobody's record (§5.6)
        if reason != "aborted":
            news = self.standings.game_ended(
                room.red, room.yellow, winner, room.terms.rated, len(room.moves)
            )
        for player in room.players:
            if player not in room.away and player in self.clients:
                for line in news:
                    self.clients[player].expect(line)

    @rule(who=st.sampled_from(NAMES), argument=st.sampled_from(["", ":now"]))
    def forfeit(self, who: str, argument: str) -> None:
        self.clients[who].send(f"FORFEIT{argument}")
        found = self.room_of(who)
        if argument:
            self.clients[who].expect_refusal()  # FORFEIT takes no arguments
        elif found is None:
            self.clients[who].expect("NOROOM")
        elif found[1].yellow is None or who not in found[1].players:
            self.clients[who].expect_refusal()  # a viewer, or a creator still waiting
        else:
            name, room = found
            winner = self._opponent(room, who)
            self._end(name, f"GAMEEND:{cells(room.state)}:2:{winner}", winner, "forfeit")

    @staticmethod
    def _opponent(room: Room, player: str) -> str:
        opponent = room.yellow if player == room.red else room.red
        assert opponent is not None
        return opponent

    @rule(who=st.sampled_from(NAMES), text=CHAT_TEXT)
    def chat(self, who: str, text: str) -> None:
        now = time.time()
        if self.muted.unsure(who, now):
            return  # its mute ends about now: the model cannot say which answer comes
        self.clients[who].send(f"CHAT:{text}")
        found = self.room_of(who)
        aftermath = self.after.get(who)
        if not chat_allowed(text):
            self.clients[who].expect_refusal()
        elif self.muted.surely(who, now):
            self.clients[who].expect("CHAT:ACKSTATUS:1")  # and nobody hears it (§7)
        elif found is None and aftermath is not None and not aftermath.stale:
            hearing = self.blocked.hearing(aftermath.present, who)
            self._to(hearing, f"CHAT:{who}:{text}")  # the finished room's (§5.6)
        elif found is None and aftermath is not None:  # near the window's end: either answer
            got = self.clients[who].line()
            assert got in ("NOROOM", f"CHAT:{who}:{text}"), got
            if got != "NOROOM":
                self._to(self.blocked.hearing([u for u in aftermath.present if u != who], who), got)
        elif found is None:
            self.clients[who].expect("NOROOM")
        else:  # a blocker never hears the one it blocks (§7)
            self._to(self.blocked.hearing(found[1].members, who), f"CHAT:{who}:{text}")

    # ----- rules: the past (§5.2) ---------------------------------------------------------

    @rule(who=st.sampled_from(NAMES), whose=st.sampled_from(["", *NAMES, "nobody", "no one"]))
    def history(self, who: str, whose: str) -> None:
        """HISTORY[:<user>]: the games that user finished in this example, newest first.

        The ids are the server's: the model learns each game's from the first HISTORY
        that lists it, and holds the server to it from then on. Games of earlier
        examples come after (the module's server keeps them), unless ``complete_history``.
        """
        self.clients[who].send(f"HISTORY:{whose}" if whose else "HISTORY")
        user = whose or who
        got = self.clients[who].line()
        if user not in self.registered:
            assert got == "HISTORY:ACKSTATUS:1", got
            return
        assert got.startswith("HISTORY:ACKSTATUS:0:"), got
        listed = got.removeprefix("HISTORY:ACKSTATUS:0:")
        numbers = [int(number) for number in listed.split(",")] if listed else []
        games = [game for game in reversed(self.finished) if user in (game.red, game.yellow)]
        assert len(numbers) >= len(games[:HISTORY_LIMIT]), f"{user}: {numbers}, model {games}"
        if self.complete_history:
            assert len(numbers) == len(games[:HISTORY_LIMIT]), f"{user}: {numbers}, model {games}"
        for game, number in zip(games, numbers, strict=False):
            if game.number is None:
                assert number not in {known.number for known in self.finished}, numbers
                game.number = number
            assert game.number == number, f"{user}'s games: {numbers}, model {games}"

    @precondition(lambda self: any(game.number is not None for game in self.finished))
    @rule(data=st.data())
    def look_at_a_kept_game(self, data: st.DataObject) -> None:
        """GAME:<id> of a finished game whose id HISTORY said, or of none."""
        kept = [game for game in self.finished if game.number is not None]
        game = data.draw(st.sampled_from(kept))
        who = data.draw(st.sampled_from(NAMES))
        if data.draw(st.booleans()):
            self.look_at_a_finished_game(game, who)
            return
        nonsense = data.draw(st.sampled_from(["x", "", "-1", "99999999999"]))
        self.clients[who].send(f"GAME:{nonsense}")
        self.clients[who].expect("GAME:ACKSTATUS:1")

    def look_at_a_finished_game(self, game: FinishedGame, who: str) -> None:
        """GAME:<id> gives the game back as it was played (a game's id the model does not
        know yet is not asked for)."""
        if game.number is None:
            return
        self.clients[who].send(f"GAME:{game.number}")
        moves = " ".join(format_move(move) for move in game.moves)
        expected = (
            f"GAME:ACKSTATUS:0:{game.number}:{game.red}:{game.yellow}:{game_words(game.game)}:"
            f"{game.winner or ''}:{game.reason}:{moves}:{int(game.rated)}:"
        )
        got = self.clients[who].line()
        assert got.startswith(expected), f"{who} expected {expected!r}…, got {got!r}"
        started, clock = got.removeprefix(expected).rsplit(":", 1)
        assert clock == ("-" if game.clock is None else game.clock.text), got  # its last field
        assert re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", started)
        assert self.began <= started <= utc_now(), f"started {started}, not in this example"

    # ----- rules: standing (§5.3) --------------------------------------------------------

    @rule(who=st.sampled_from(NAMES), whose=st.sampled_from([*NAMES, "eve", "nobody", "", "a b"]))
    def profile(self, who: str, whose: str) -> None:
        """PROFILE:<user>: the rating and deviation (whole numbers) and the record the model
        worked out; no such user (or no name an account can have) is status 1."""
        self.clients[who].send(f"PROFILE:{whose}")
        if whose in self.registered:
            self.clients[who].expect(self.standings.profile(whose))
        else:
            self.clients[who].expect("PROFILE:ACKSTATUS:1")

    @rule(who=st.sampled_from(NAMES))
    def leaderboard(self, who: str) -> None:
        """LEADERBOARD: the established ratings (deviation below 110), highest first."""
        self.clients[who].send("LEADERBOARD")
        self.clients[who].expect(self.standings.leaderboard())

    # ----- rules: accounts and connections ----------------------------------------------

    @rule(who=st.sampled_from(NAMES), again=st.sampled_from(["LOGIN", "REGISTER", "LOGIN:bad"]))
    def account_requests_when_logged_in(self, who: str, again: str) -> None:
        """A second LOGIN on the same connection is refused; REGISTER of a taken name too."""
        client = self.clients[who]
        if again == "LOGIN:bad":
            client.send("LOGIN:no spaces:pw")
            client.expect("LOGIN:ACKSTATUS:3")
            return
        client.send(f"{again}:{who}:pw:with:colons")
        client.expect(f"{again}:ACKSTATUS:{3 if again == 'LOGIN' else 1}")

    @rule(password=st.sampled_from(["pw", "pw:with:colon", "wrong"]))
    def a_stranger(self, password: str) -> None:
        """Someone not logged in: failed logins, BADAUTH for everything else, then a login.

        The failures are a new user's and ``eve``'s, whose login then succeeds: failures
        are slowed from a user's third, and a success resets the count.
        """
        stranger = Client(self.port, "stranger")
        try:
            stranger.send("REGISTER:eve:pw")
            stranger.expect(f"REGISTER:ACKSTATUS:{1 if 'eve' in self.registered else 0}")
            self.registered.add("eve")
            stranger.send(f"LOGIN:{next(STRANGERS)}:pw")
            stranger.expect("LOGIN:ACKSTATUS:1")
            for request in ("ROOMLIST:PLAYER", "CREATE:r9", "DROP:1", "CHAT:hi", "FORFEIT"):
                stranger.send(request)
                stranger.expect("BADAUTH")
            stranger.send(f"LOGIN:eve:{password}")
            if password != "pw":
                stranger.expect("LOGIN:ACKSTATUS:2")
                stranger.send("LOGIN:eve:pw")
            stranger.expect("LOGIN:ACKSTATUS:0")
            stranger.send("ROOMLIST:VIEWER")
            listed = stranger.line().removeprefix("ROOMLIST:ACKSTATUS:0:")
            assert sorted(filter(None, listed.split(","))) == sorted(self.rooms)  # any order
        finally:
            stranger.close()

    @rule(
        who=st.sampled_from(NAMES),
        how=st.sampled_from(
            [
                "hang up",
                "hang up mid-line",
                "unknown command",
                "not UTF-8",
                "a line too long",
                "log in elsewhere",
            ]
        ),
    )
    def leave(self, who: str, how: str) -> None:
        """Leave by hanging up, by breaking the protocol, or by logging in elsewhere; come back.

        A player of a game under way is away (the others hear AWAY) and back (BACK)
        when it logs in again; a second login takes its game over without a word to them.
        """
        old = self.clients[who]
        found = self.room_of(who)
        playing = found is not None and found[1].yellow is not None and who in found[1].players
        self._say_goodbye(old, how)
        if found is not None and not playing:
            name, room = found
            if who == room.red:
                del self.rooms[name]  # its viewers are in no room now, without a word
            else:
                room.viewers.remove(who)
        if how == "log in elsewhere":
            old.expect("BYE:elsewhere")
            with contextlib.suppress(OSError):  # the server has closed it: nothing comes back
                old.send("ROOMLIST:VIEWER")
        elif found is not None and playing:
            self._to([m for m in found[1].members if m != who], f"AWAY:{who}:{self.grace}")
        if how not in ("hang up", "hang up mid-line"):
            assert old.hung_up_on() and not old.buffer, f"{who}'s old line got {old.buffer!r}"
        old.close()
        if how != "log in elsewhere":
            self.clients[who] = Client(self.port, who)
            self._log_in(who)
        if found is not None and playing:
            self._rejoined(who, *found, back=how != "log in elsewhere")
        self._wait_until_the_server_agrees()

    def _rejoined(self, who: str, name: str, room: Room, *, back: bool) -> None:
        """``who`` is back in its game: REJOIN and the game to it, BACK to the others."""
        state = room.state
        self.clients[who].expect(f"REJOIN:{name}")
        to_move, other = room.name_of(state.turn), room.name_of(state.turn.other)
        self.clients[who].expect(f"INPROGRESS:{to_move}:{other}:{game_words(room.game)}")
        self.clients[who].expect(f"BOARDSTATUS:{cells(state)}")
        self._clock_caught_up(who, room)
        self._still_away(who, room)
        if back:
            self._to([m for m in room.members if m != who], f"BACK:{who}")

    def _say_goodbye(self, old: Client, how: str) -> None:
        if how == "hang up":
            old.close()
        elif how == "hang up mid-line":
            old.send(b"CHAT:half a li")
            old.close()
        elif how == "unknown command":
            old.send("HELLO:there")
        elif how == "not UTF-8":
            old.send(b"CHAT:caf\xe9\n")  # Latin-1's e-acute: a violation (UTF-8 is fine)
        elif how == "a line too long":
            old.send(b"CHAT:" + b"x" * 9000 + b"\n")
        else:  # the newest login wins: the old connection is closed
            self.clients[old.name] = Client(self.port, old.name)
            self._log_in(old.name)

    def _wait_until_the_server_agrees(self) -> None:
        wait_until_rooms_are(self.server.lobby.rooms, list(self.rooms), TIMEOUT, in_order=False)

    @invariant()
    def every_game_in_the_model_is_unfinished(self) -> None:
        assert all(not room.state.is_over for room in self.rooms.values())


def _well_formed(terms: Terms | str) -> Terms:
    """Terms asked for in a well-formed way (``TERMS``' values other than "bad")."""
    assert isinstance(terms, Terms), terms
    return terms


LobbyProtocol.TestCase.settings = machine_settings(examples=20, steps=30)
test_the_lobby_behaves_like_its_model = LobbyProtocol.TestCase
