"""The tic-tac-toe port as a state machine: random requests from three clients, every reply
predicted by a model (hypothesis.stateful), over real sockets to a real server.

The model is written from the handout and issue 16's choices, not from the server's
code: rooms in creation order, who sits where, the board, and what each client must
receive, in order, after each step. Leaving is hanging up (or breaking the protocol):
a player's game is forfeited, a waiting creator's room goes.
"""

from __future__ import annotations

import contextlib
import socket
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from c4tui.server.core import C4Server
from c4tui.tictactoe import Board
from tests.net.stateful import machine_settings, wait_until_rooms_are
from tests.net.tictactoe_client import threaded_tictactoe_server

NAMES = ("ann", "bob", "cid")
#: One server for every example (each ends with everyone hung up, so no room is left).
SERVER: C4Server | None = None
REGISTERED: set[str] = set()


@pytest.fixture(autouse=True, scope="module")
def one_server() -> Iterator[None]:
    """Start the server the examples share."""
    global SERVER  # noqa: PLW0603 (hypothesis makes the machines; they find it here)
    with tempfile.TemporaryDirectory() as folder, threaded_tictactoe_server(Path(folder)) as server:
        SERVER = server
        yield
        SERVER = None
        REGISTERED.clear()


ROOMS = ("r1", "r2", "nowhere", "bad'name")
TIMEOUT = 2.0


@dataclass
class Room:
    """A room as the model sees it."""

    first: str
    second: str | None = None
    viewers: list[str] = field(default_factory=list)
    board: Board = field(default_factory=Board)

    @property
    def members(self) -> list[str]:
        players = [self.first] if self.second is None else [self.first, self.second]
        return players + self.viewers


class Client:
    """A blocking socket; what it receives is matched against what the model expects."""

    def __init__(self, port: int, name: str) -> None:
        self.name = name
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.received = ""

    def send(self, message: str) -> None:
        self.socket.sendall(message.encode("ascii"))

    def expect(self, message: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while len(self.received) < len(message) and time.monotonic() < deadline:
            chunk = self.socket.recv(8192)
            if not chunk:
                break
            self.received += chunk.decode("ascii")
        got, self.received = self.received[: len(message)], self.received[len(message) :]
        assert got == message, f"{self.name} expected {message!r}, got {got + self.received!r}"

    def quiet(self, seconds: float = 0.05) -> None:
        self.socket.settimeout(seconds)
        try:
            extra = self.socket.recv(8192)
        except TimeoutError:
            extra = b""
        finally:
            self.socket.settimeout(TIMEOUT)
        assert not self.received and not extra, f"{self.name} got {self.received!r}{extra!r}"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.close()


class TicTacToePort(RuleBasedStateMachine):
    """Three logged-in clients; rooms r1 and r2 (and two names that never exist)."""

    def __init__(self) -> None:
        super().__init__()
        assert SERVER is not None, "the module's fixture starts the server"
        self.server = SERVER
        assert SERVER.tictactoe_port is not None
        self.port = SERVER.tictactoe_port
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, Client] = {}
        for name in NAMES:
            client = Client(self.port, name)
            client.send(f"REGISTER:{name}:pw")
            client.expect(
                "REGISTER:ACKSTATUS:0" if name not in REGISTERED else "REGISTER:ACKSTATUS:1"
            )
            REGISTERED.add(name)
            self.clients[name] = client
            self._log_in(name)

    def _log_in(self, name: str) -> None:
        client = self.clients[name]
        client.send(f"LOGIN:{name}:pw")
        client.expect("LOGIN:ACKSTATUS:0")

    def teardown(self) -> None:
        """Check nothing more came; hang up; wait until the server has no room left."""
        try:
            for client in self.clients.values():
                client.quiet()
        finally:
            for client in self.clients.values():
                client.close()
            self.rooms.clear()
            self._wait_until_the_server_agrees()  # no room is left for the next example

    def room_of(self, name: str) -> tuple[str, Room] | None:
        return next(((n, r) for n, r in self.rooms.items() if name in r.members), None)

    def _to(self, names: list[str], message: str) -> None:
        for name in names:
            self.clients[name].expect(message)

    # ----- rules -----------------------------------------------------------------------

    @initialize(first=st.sampled_from(NAMES), second=st.sampled_from(NAMES))
    def start_a_game(self, first: str, second: str) -> None:
        """Every example starts with a game under way, or a room waiting (the same name twice)."""
        self.create(first, "r1")
        self.join(second, "r1", "PLAYER")

    @rule(who=st.sampled_from(NAMES), mode=st.sampled_from(["PLAYER", "VIEWER", "player"]))
    def room_list(self, who: str, mode: str) -> None:
        self.clients[who].send(f"ROOMLIST:{mode}")
        if mode == "player":
            self.clients[who].expect("ROOMLIST:ACKSTATUS:1")
            return
        names = [n for n, r in self.rooms.items() if mode == "VIEWER" or r.second is None]
        self.clients[who].expect("ROOMLIST:ACKSTATUS:0:" + ",".join(names))

    @rule(who=st.sampled_from(NAMES), room=st.sampled_from(ROOMS))
    def create(self, who: str, room: str) -> None:
        self.clients[who].send(f"CREATE:{room}")
        if "'" in room:
            status = 1
        elif self.room_of(who) is not None:
            status = 4
        elif room in self.rooms:
            status = 2
        else:
            status = 0
            self.rooms[room] = Room(who)
        self.clients[who].expect(f"CREATE:ACKSTATUS:{status}")

    @rule(
        who=st.sampled_from(NAMES),
        room=st.sampled_from(ROOMS),
        mode=st.sampled_from(["PLAYER", "VIEWER"]),
    )
    def join(self, who: str, room: str, mode: str) -> None:
        client = self.clients[who]
        client.send(f"JOIN:{room}:{mode}")
        target = self.rooms.get(room)
        if self.room_of(who) is not None:
            client.expect("JOIN:ACKSTATUS:3")
        elif target is None:
            client.expect("JOIN:ACKSTATUS:1")
        elif mode == "PLAYER" and target.second is not None:
            client.expect("JOIN:ACKSTATUS:2")
        elif mode == "PLAYER":
            client.expect("JOIN:ACKSTATUS:0")
            target.second = who
            self._to(target.members, f"BEGIN:{target.first}:{who}")
        else:
            client.expect("JOIN:ACKSTATUS:0")
            target.viewers.append(who)
            if target.second is not None:
                to_move, other = self._turn(target)
                client.expect(f"INPROGRESS:{to_move}:{other}")
                client.expect(f"BOARDSTATUS:{target.board.text()}")

    @precondition(lambda self: bool(self.rooms))
    @rule(data=st.data())
    def join_a_room_that_exists(self, data: st.DataObject) -> None:
        """Most random JOINs miss; these find a room (waiting or playing)."""
        room = data.draw(st.sampled_from(sorted(self.rooms)))
        who = data.draw(st.sampled_from(NAMES))
        self.join(who, room, data.draw(st.sampled_from(["PLAYER", "VIEWER"])))

    @precondition(lambda self: any(room.second for room in self.rooms.values()))
    @rule(data=st.data())
    def play_in_a_game(self, data: st.DataObject) -> None:
        """A player of a game under way marks a cell: in turn or not, free or not."""
        room = data.draw(st.sampled_from([r for r in self.rooms.values() if r.second]))
        assert room.second is not None
        who = data.draw(st.sampled_from([room.first, room.second]))
        free = [i for i, mark in enumerate(room.board.cells) if mark is None]
        index = data.draw(st.sampled_from(free) | st.integers(0, 8))
        self.place(who, index % 3, index // 3)

    @staticmethod
    def _turn(room: Room) -> tuple[str, str]:
        assert room.second is not None
        players = [room.first, room.second]
        if room.board.turn.name == "O":
            players.reverse()
        return players[0], players[1]

    @rule(who=st.sampled_from(NAMES), x=st.integers(0, 3), y=st.integers(0, 3))
    def place(self, who: str, x: int, y: int) -> None:
        self.clients[who].send(f"PLACE:{x}:{y}")
        found = self.room_of(who)
        if found is None:
            self.clients[who].expect("NOROOM")
            return
        name, room = found
        playing = room.second is not None and who in (room.first, room.second)
        if not playing or self._turn(room)[0] != who or room.board.refusal(x, y) is not None:
            self.clients[who].expect(f"BOARDSTATUS:{room.board.text()}")
            return
        room.board = room.board.place(x, y)
        board = room.board
        if not board.is_over:
            self._to(room.members, f"BOARDSTATUS:{board.text()}")
            return
        end = (
            f"GAMEEND:{board.text()}:1"
            if board.winner is None
            else f"GAMEEND:{board.text()}:0:{who}"
        )
        self._to(room.members, end)
        del self.rooms[name]

    @rule(who=st.sampled_from(NAMES))
    def forfeit(self, who: str) -> None:
        self.clients[who].send("FORFEIT")
        found = self.room_of(who)
        if found is None:
            self.clients[who].expect("NOROOM")
            return
        name, room = found
        if room.second is None or who not in (room.first, room.second):
            self.clients[who].expect(f"BOARDSTATUS:{room.board.text()}")
            return
        winner = room.second if who == room.first else room.first
        self._to(room.members, f"GAMEEND:{room.board.text()}:2:{winner}")
        del self.rooms[name]

    @rule(who=st.sampled_from(NAMES), how=st.sampled_from(["hang up", "break the protocol"]))
    def leave(self, who: str, how: str) -> None:
        """Leave by hanging up or by a message of another protocol; then come back."""
        old = self.clients[who]
        if how == "hang up":
            old.close()
        else:
            old.send("CHAT:hello")  # the lobby's word: this port closes the connection
        found = self.room_of(who)
        if found is not None:
            name, room = found
            if room.second is not None and who in (room.first, room.second):
                winner = room.second if who == room.first else room.first
                others = [member for member in room.members if member != who]
                self._to(others, f"GAMEEND:{room.board.text()}:2:{winner}")
                del self.rooms[name]
            elif who == room.first:
                del self.rooms[name]  # its viewers are in no room now
            else:
                room.viewers.remove(who)
        if how != "hang up":
            old.socket.settimeout(TIMEOUT)
            assert old.socket.recv(100) == b""  # closed without a word
        old.close()
        self.clients[who] = Client(self.port, who)
        self._log_in(who)
        self._wait_until_the_server_agrees()

    def _wait_until_the_server_agrees(self) -> None:
        wait_until_rooms_are(self.server.tictactoe.rooms, list(self.rooms), TIMEOUT, in_order=True)

    @invariant()
    def every_game_in_the_model_is_unfinished(self) -> None:
        assert all(not room.board.is_over for room in self.rooms.values())


TicTacToePort.TestCase.settings = machine_settings(examples=20, steps=30)
test_the_tictactoe_port_behaves_like_its_model = TicTacToePort.TestCase
