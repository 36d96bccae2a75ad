"""Games against the server's AI as a state machine: three slots, each a connection in
I32CFSP, CFSP or C4N, their messages interleaved at random (hypothesis.stateful), over
real sockets to a real server, every reply predicted by a model.

The model is written from spec/protocols.md §1-3 and spec/rules.md, with the engine as
the referee: for each slot, its protocol, where its conversation is, and the game's
position. It predicts every word the server sends and whether it then closes. The one
thing it cannot predict is the random AI's choice: there it lists the reply each legal
AI move would bring (C4N: the whole BOARD, cell by cell), the server's reply must be
exactly one of them, and that move is played on the model's board.

Where the spec is silent the model follows a choice the server makes (each is marked
"(spec silent)"): CFSP's client asks MOVE before COLUMN, and after the AI's last move
the server closes once it has answered COLUMN; C4N's STOP is answered by a close
without a word; a first line that opens none of the protocols gets ``ERROR`` and a close.

The server's random AI is made repeatable (its move depends on the example's seed and
the position only), so that hypothesis meets the same AI when it replays an example.
When the last connection closes, a client comes back at once and starts a game.
"""

from __future__ import annotations

import contextlib
import random
import socket
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum, auto
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from c4tui.ai.random_player import RandomPlayer
from c4tui.engine import GameState, Move, MoveKind, Player, Rules
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.stateful import machine_settings

#: One server for every example (each ends with every connection closed).
SERVER: C4Server | None = None
#: The random AI's seed in this example: its moves depend on this and the position only.
AI_SEED = 0


def repeatable_random_move(
    _player: RandomPlayer, state: GameState, *_how_long: object, **_: object
) -> Move:
    """A random legal move that is the same whenever the example is run again.

    Hypothesis replays examples (and shrinks a failing one) and needs the same AI each
    time; the server's random AI draws from one generator shared by every game, so its
    moves depend on what every other game drew first.
    """
    return random.Random(f"{AI_SEED} {state.position_key()}").choice(state.legal_moves())


@pytest.fixture(autouse=True, scope="module")
def one_server() -> Iterator[None]:
    """Start the server the examples share (its account database in a folder of its own)."""
    global SERVER  # noqa: PLW0603 (hypothesis makes the machines; they find it here)
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(RandomPlayer, "choose_move", repeatable_random_move)
        config = ServerConfig(
            port=0, db=Path(folder) / "accounts.sqlite3", max_connections=50, max_per_address=50
        )
        with server_in_a_thread(config) as server:
            SERVER = server
            yield
            SERVER = None


I32CFSP, CFSP, C4N = "I32CFSP", "CFSP", "C4N"
PROTOCOLS = (I32CFSP, CFSP, C4N)
SLOTS = (0, 1, 2)
TIMEOUT = 2.0
CRLF = "\r\n"
#: The longest line a peer may send (bytes, without its end).
MAX_LINE = 8192
#: C4N plays classic rules on 7 columns x 6 rows.
C4N_GAME = (7, 6, Rules.CLASSIC)
#: Board sizes asked for: mostly small (games end), some too small or too big.
SIZES = st.sampled_from([4, 4, 4, 5, 7, 20, 3, 21])
GOOD_SIZES = st.sampled_from([4, 4, 5, 7, 20])

T = TypeVar("T")


class Client:
    """A blocking socket; what it receives is matched against what the model expects."""

    def __init__(self, port: int, name: str) -> None:
        self.name = name
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.received = ""

    def send(self, text: str) -> None:
        self.socket.sendall(text.encode("ascii"))

    def expect(self, text: str) -> None:
        """Exactly ``text`` comes next."""
        self.expect_one_of({text: None})

    def expect_one_of(self, replies: Mapping[str, T]) -> T:
        """Exactly one of ``replies`` comes next; returns what the model keys it to."""
        while True:
            done = [text for text in replies if self.received.startswith(text)]
            if done:
                text = max(done, key=len)
                self.received = self.received[len(text) :]
                return replies[text]
            if not any(text.startswith(self.received) for text in replies):
                break
            if not self._receive_more():
                break
        got, self.received = self.received, ""  # told here, not again by the teardown
        example = next(iter(replies))
        raise AssertionError(
            f"{self.name} got {got!r}; expected "
            + (f"{example!r}" if len(replies) == 1 else f"one of {len(replies)}, e.g. {example!r}")
        )

    def expect_closed(self) -> None:
        """Nothing more comes: the server has closed the connection."""
        assert not self.received, f"{self.name} got {self.received!r} before the close"
        try:
            extra = self.socket.recv(8192)
        except TimeoutError:
            raise AssertionError(f"{self.name}: the server did not close the connection") from None
        assert extra == b"", f"{self.name} got {extra!r} instead of the close"

    def quiet(self) -> None:
        """Nothing more has come (the caller has given it time to)."""
        self.socket.setblocking(False)
        try:
            extra = self.socket.recv(8192)
        except BlockingIOError:
            extra = b""
        except OSError as error:
            extra = repr(error).encode()
        finally:
            self.socket.settimeout(TIMEOUT)
        assert not self.received and not extra, f"{self.name} got {self.received!r}{extra!r}"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.close()

    def _receive_more(self) -> bool:
        try:
            chunk = self.socket.recv(8192)
        except TimeoutError:
            return False
        self.received += chunk.decode("latin-1")
        return bool(chunk)


class Phase(Enum):
    """Where a slot's conversation is."""

    NEW = auto()  # connected; nothing said yet
    GREETED = auto()  # I32CFSP: WELCOME came; no game asked for yet
    PLAYING = auto()  # a game; the client to move; the model knows the board
    ASKING = auto()  # CFSP: the AI has moved; the client has not yet asked its whole move
    CLOSED = auto()  # hung up, by either side


OPEN = (Phase.NEW, Phase.GREETED, Phase.PLAYING, Phase.ASKING)


@dataclass
class Slot:
    """One connection as the model sees it."""

    protocol: str
    client: Client
    line_end: str = CRLF
    phase: Phase = Phase.NEW
    game: GameState | None = None
    #: CFSP: the answers to MOVE and COLUMN about the AI's last move (None: not asked yet).
    ai_kind: str | None = None
    ai_column: str | None = None

    @property
    def state(self) -> GameState:
        assert self.game is not None
        return self.game


# ----- the wire, written from the spec -------------------------------------------------


def i32cfsp_move(move: Move) -> str:
    """``DROP 3`` / ``POP 3``, 1-based."""
    return f"{'DROP' if move.kind is MoveKind.DROP else 'POP'} {move.column + 1}"


def i32cfsp_result(state: GameState) -> str | None:
    """The line that ends a finished game; None while it goes on."""
    if state.winner is Player.RED:
        return "WINNER_RED"
    if state.winner is Player.YELLOW:
        return "WINNER_YELLOW"
    return "DRAW" if state.is_draw else None


def cfsp_kind(move: Move) -> str:
    return "0" if move.kind is MoveKind.DROP else "1"


def cfsp_move(move: Move) -> str:
    """``USER <0 drop | 1 pop> <column>``, 1-based."""
    return f"USER {cfsp_kind(move)} {move.column + 1}"


def c4n(kind: str, payload: object = "") -> str:
    """One C4N message: the header, then a newline and the payload if there is one."""
    header = f"C4N 1.0 {kind}"
    return f"{header}\n{payload}" if payload != "" else header


def c4n_board(state: GameState) -> str:
    """BOARD: rows, columns, then every cell from the top row down; 1 the player, 2 the AI."""
    digit = {None: "0", Player.RED: "1", Player.YELLOW: "2"}
    cells = [
        digit[state.cell(column, row)]
        for row in reversed(range(state.rows))
        for column in range(state.columns)
    ]
    return c4n("BOARD", f"{state.rows} {state.columns} {' '.join(cells)}")


def c4n_result(state: GameState) -> str | None:
    """RESULT for a finished game (1 the player won, 2 the AI, -1 a draw); None while it goes on."""
    if not state.is_over:
        return None
    outcome = {Player.RED: 1, Player.YELLOW: 2, None: -1}[state.winner]
    return c4n("RESULT", outcome)


def c4n_answer_to_a_round(state: GameState) -> str:
    """What the server sends once a move is played: the BOARD, or RESULT and the final BOARD."""
    result = c4n_result(state)
    return c4n_board(state) if result is None else result + c4n_board(state)


def illegal_moves(state: GameState, pops: bool) -> list[Move]:
    """Well-formed moves the rules refuse: full columns, pops of others' discs, no such column."""
    columns = state.columns
    # A column of twenty digits is a column too (the rules refuse it; it is not garbage).
    moves = [Move.drop(-1), Move.drop(-2), Move.drop(columns), Move.drop(99), Move.drop(10**19)]
    moves += [Move.drop(c) for c in range(columns) if state.column_height(c) == state.rows]
    if pops:
        moves += [Move.pop(-1), Move.pop(columns)]
        moves += [Move.pop(c) for c in range(columns) if state.cell(c, 0) is not state.turn]
        if state.rules is Rules.CLASSIC:
            moves += [Move.pop(c) for c in range(columns)]
    assert not any(state.is_legal(move) for move in moves)
    return moves


#: Lines that are no move at all (a column that is not a number, a word that is no command).
NOT_A_MOVE = {
    I32CFSP: ["DROP x", "DROP 1.5", "DROP", "POP 1 2", "drop 1", "PUSH 1"],
    CFSP: ["USER 0 x", "USER 2 1", "USER 0", "USER drop 1", "USER 0 1.5"],
    C4N: [c4n("MOVE", "x"), c4n("MOVE", "1.5"), c4n("MOVE", "3a")],
}
#: Lines that break the protocol wherever they come (the server's greeting words included).
GARBAGE = {
    I32CFSP: ["HELLO there", "", "WELCOME you", "OKAY", "READY"],
    CFSP: ["HELLO there", "", "START", "RECEIVED", "GAMES 6 7"],
    C4N: [c4n("NOPE"), c4n("RESULT", 1), c4n("START", "now"), "C4N 2.0 START"],
}
#: Half of a message, for a client that hangs up in the middle of one.
HALVES = {I32CFSP: "I32CFSP_HEL", CFSP: "GAME 4", C4N: "C4N 1.0 STA"}
HALVES_IN_GAME = {I32CFSP: "DROP 1", CFSP: "USER 0", C4N: c4n("MOVE", "")}


class AIGames(RuleBasedStateMachine):
    """Three slots, each a connection (or none) in one of the three protocols."""

    def __init__(self) -> None:
        super().__init__()
        assert SERVER is not None, "the module's fixture starts the server"
        self.server = SERVER
        self.port = SERVER.port
        self.slots: dict[int, Slot | None] = dict.fromkeys(SLOTS)

    def teardown(self) -> None:
        """Check nothing more came; hang up; wait until the server has let every client go."""
        open_slots = [slot for slot in self.slots.values() if slot is not None]
        time.sleep(0.05)  # for anything still on its way
        try:
            for slot in open_slots:
                slot.client.quiet()
        finally:
            for slot in open_slots:
                slot.client.close()
        deadline = time.monotonic() + TIMEOUT
        while self.server.connections:
            assert time.monotonic() < deadline, "the server kept a connection after its hang-up"
            time.sleep(0.005)

    # ----- the model's bookkeeping ------------------------------------------------------

    def where(self, protocols: tuple[str, ...], *phases: Phase) -> list[int]:
        """The slots speaking one of ``protocols`` whose conversation is in one of ``phases``."""
        return [
            index
            for index, slot in self.slots.items()
            if slot is not None and slot.protocol in protocols and slot.phase in phases
        ]

    def free(self) -> list[int]:
        """The slots without a connection (never used, or closed)."""
        return [index for index, slot in self.slots.items() if slot is None]

    def pick(self, data: st.DataObject, protocols: tuple[str, ...], *phases: Phase) -> Slot:
        return self.slot(data.draw(st.sampled_from(self.where(protocols, *phases)), label="slot"))

    def slot(self, index: int) -> Slot:
        found = self.slots[index]
        assert found is not None
        return found

    def closed_by_the_server(self, slot: Slot) -> None:
        """The server has said its last word: it must close the connection now."""
        slot.client.expect_closed()
        self.forget(slot)

    def forget(self, slot: Slot) -> None:
        """The slot's connection is closed.

        When it was the last one, a client comes back at once (in the next protocol) and
        starts a game: there is always a game to play, and a rule to run.
        """
        slot.client.close()
        slot.phase = Phase.CLOSED
        index = next(i for i, s in self.slots.items() if s is slot)
        self.slots[index] = None
        if not any(self.slots.values()):
            after = PROTOCOLS[(PROTOCOLS.index(slot.protocol) + 1) % len(PROTOCOLS)]
            self.start_a_game_on(index, after, (4, 4, Rules.CLASSIC))

    def line(self, slot: Slot, text: str) -> None:
        """Send one line of a line protocol."""
        slot.client.send(text + slot.line_end)

    def error_and_close(self, slot: Slot) -> None:
        """The protocol's error message, then the close.

        (A first line that opens no protocol gets ``ERROR`` too: spec silent. The model
        sends such lines only in I32CFSP and CFSP, whose error message that is.)
        """
        slot.client.expect(c4n("ERROR", 1) if slot.protocol == C4N else "ERROR" + CRLF)
        self.closed_by_the_server(slot)

    def start_playing(self, slot: Slot, game: tuple[int, int, Rules]) -> None:
        slot.phase = Phase.PLAYING
        slot.game = GameState.new(*game)
        event(f"{slot.protocol}: a game began")

    def game_over(self, slot: Slot, state: GameState) -> None:
        how = "a draw" if state.winner is None else f"{state.winner.name.lower()} won"
        event(f"{slot.protocol}: a game ended ({how})")
        self.closed_by_the_server(slot)

    # ----- connecting and greeting ------------------------------------------------------

    @initialize(
        protocol=st.sampled_from(PROTOCOLS),
        columns=GOOD_SIZES,
        rows=GOOD_SIZES,
        rules=st.sampled_from(Rules),
        ai_seed=st.integers(0, 2**16),
    )
    def start_a_game(
        self, protocol: str, columns: int, rows: int, rules: Rules, ai_seed: int
    ) -> None:
        """Every example starts with a game under way on slot 0."""
        global AI_SEED  # noqa: PLW0603 (read by the server's AI, in the server's thread)
        AI_SEED = ai_seed
        self.start_a_game_on(0, protocol, (columns, rows, rules))

    def start_a_game_on(self, index: int, protocol: str, game: tuple[int, int, Rules]) -> None:
        """Connect, greet and start a game (of this size, and rules if the protocol lets)."""
        self.connect(index, protocol, CRLF)
        slot = self.slot(index)
        columns, rows, rules = game
        if protocol == I32CFSP:
            self.i32cfsp_hello(slot, "boo")
            ending = " CLASSIC" if rules is Rules.CLASSIC else ""
            self.i32cfsp_game_request(slot, f"AI_GAME {columns} {rows}{ending}", (columns, rows))
        elif protocol == CFSP:
            self.cfsp_game_request(slot, f"GAME {rows} {columns}")
        else:
            self.c4n_start(slot)

    @precondition(lambda self: self.free())
    @rule(
        data=st.data(),
        protocol=st.sampled_from(PROTOCOLS),
        line_end=st.sampled_from([CRLF, "\n"]),
    )
    def connect_a_slot(self, data: st.DataObject, protocol: str, line_end: str) -> None:
        """A free slot (never used, or its connection closed) connects in some protocol."""
        self.connect(data.draw(st.sampled_from(self.free()), label="slot"), protocol, line_end)

    def pick_or_connect(self, data: st.DataObject, protocol: str) -> Slot:
        """A slot of ``protocol`` that has said nothing yet, or a free one, connected now.

        (The greetings connect too, so that several rules can go on when every slot is free.)
        """
        index = data.draw(st.sampled_from(self.where((protocol,), Phase.NEW) + self.free()))
        if self.slots[index] is None:
            self.connect(index, protocol, data.draw(st.sampled_from([CRLF, "\n"])))
        return self.slot(index)

    def connect(self, index: int, protocol: str, line_end: str) -> None:
        # Only I32CFSP promises to accept a bare LF.
        line_end = line_end if protocol == I32CFSP else CRLF
        client = Client(self.port, f"slot {index} ({protocol})")
        self.slots[index] = Slot(protocol, client, line_end)

    @precondition(lambda self: self.where((I32CFSP,), Phase.NEW) or self.free())
    @rule(
        data=st.data(),
        username=st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=34)
        | st.sampled_from(["a b", "tab\there", "boo "]),
    )
    def say_i32cfsp_hello(self, data: st.DataObject, username: str) -> None:
        self.i32cfsp_hello(self.pick_or_connect(data, I32CFSP), username)

    def i32cfsp_hello(self, slot: Slot, username: str) -> None:
        """WELCOME echoes a username of 1-32 printable characters without whitespace."""
        self.line(slot, f"I32CFSP_HELLO {username}")
        good = 1 <= len(username) <= 32 and all("!" <= c <= "~" for c in username)
        if not good:
            self.error_and_close(slot)
            return
        slot.client.expect(f"WELCOME {username}{CRLF}")
        slot.phase = Phase.GREETED

    @precondition(lambda self: self.where((I32CFSP,), Phase.GREETED))
    @rule(
        data=st.data(),
        columns=SIZES,
        rows=SIZES,
        ending=st.sampled_from(["", " CLASSIC", " classic", " POPOUT", " CLASSIC x"]),
        form=st.sampled_from(["default", "sized", "sized", "malformed"]),
    )
    def ask_for_an_i32cfsp_game(
        self, data: st.DataObject, columns: int, rows: int, ending: str, form: str
    ) -> None:
        """AI_GAME, AI_GAME <columns> <rows> [CLASSIC], or something like it."""
        slot = self.pick(data, (I32CFSP,), Phase.GREETED)
        if form == "default":
            self.i32cfsp_game_request(slot, "AI_GAME", (7, 6))
        elif form == "sized":
            self.i32cfsp_game_request(slot, f"AI_GAME {columns} {rows}{ending}", (columns, rows))
        else:
            malformed = ["AI_GAME 7", "AI_GAME seven six", "AI_GAMES", "AI_GAME 7 6 5 CLASSIC"]
            self.line(slot, data.draw(st.sampled_from(malformed)))
            self.error_and_close(slot)

    def i32cfsp_game_request(self, slot: Slot, request: str, size: tuple[int, int]) -> None:
        self.line(slot, request)
        ending = request.split(" ")[3:]
        if not (all(4 <= n <= 20 for n in size) and ending in ([], ["CLASSIC"])):
            self.error_and_close(slot)
            return
        slot.client.expect("READY" + CRLF)
        self.start_playing(slot, (*size, Rules.CLASSIC if ending else Rules.POPOUT))

    @precondition(lambda self: self.where((CFSP,), Phase.NEW) or self.free())
    @rule(
        data=st.data(),
        word=st.sampled_from(["GAME", "Game", "game", "gAmE"]),
        rows=SIZES,
        columns=SIZES,
        malformed=st.sampled_from(["", "", "", " 8", " x"]),
    )
    def ask_for_a_cfsp_game(
        self, data: st.DataObject, word: str, rows: int, columns: int, malformed: str
    ) -> None:
        """GAME <rows> <columns> in any case; sizes 4-20; anything more or less is an error."""
        slot = self.pick_or_connect(data, CFSP)
        self.cfsp_game_request(slot, f"{word} {rows} {columns}{malformed}")

    def cfsp_game_request(self, slot: Slot, request: str) -> None:
        self.line(slot, request)
        parts = request.split(" ")
        sizes = [int(part) for part in parts[1:] if part.isdigit()]
        if len(parts) != 3 or len(sizes) != 2 or not all(4 <= n <= 20 for n in sizes):
            self.error_and_close(slot)
            return
        slot.client.expect("START" + CRLF)
        rows, columns = sizes
        self.start_playing(slot, (columns, rows, Rules.POPOUT))

    @precondition(lambda self: self.where((C4N,), Phase.NEW) or self.free())
    @rule(data=st.data())
    def start_a_c4n_game(self, data: st.DataObject) -> None:
        self.c4n_start(self.pick_or_connect(data, C4N))

    def c4n_start(self, slot: Slot) -> None:
        """START is answered with the empty board (the player moves first)."""
        slot.client.send(c4n("START"))
        slot.client.expect(c4n_board(GameState.new(*C4N_GAME)))
        self.start_playing(slot, C4N_GAME)

    # ----- playing ----------------------------------------------------------------------

    @precondition(lambda self: self.where(PROTOCOLS, Phase.PLAYING))
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        slot = self.pick(data, PROTOCOLS, Phase.PLAYING)
        self.play(slot, data.draw(st.sampled_from(slot.state.legal_moves()), label="move"))

    @precondition(lambda self: self.where(PROTOCOLS, Phase.PLAYING))
    @rule(data=st.data(), moves=st.integers(2, 24))
    def play_legal_moves_in_a_row(self, data: st.DataObject, moves: int) -> None:
        """Several rounds on one slot (CFSP asking the AI's move each time): games end."""
        slot = self.pick(data, PROTOCOLS, Phase.PLAYING)
        for _ in range(moves):
            if slot.phase is Phase.ASKING:
                self.ask_cfsp(slot, "MOVE")
                self.ask_cfsp(slot, "COLUMN")
            if slot.phase is not Phase.PLAYING:
                return
            self.play(slot, data.draw(st.sampled_from(slot.state.legal_moves()), label="move"))

    def play(self, slot: Slot, move: Move) -> None:
        assert slot.state.is_legal(move)
        if slot.protocol == I32CFSP:
            self.play_i32cfsp(slot, move)
        elif slot.protocol == CFSP:
            self.play_cfsp(slot, move)
        else:
            self.play_c4n(slot, move)

    def play_i32cfsp(self, slot: Slot, move: Move) -> None:
        """OKAY, the AI's move and READY; or the result (the client's move, the AI's); DRAW."""
        self.line(slot, i32cfsp_move(move))
        after = slot.state.play(move)
        if after.is_over:
            slot.client.expect(f"{i32cfsp_result(after)}{CRLF}")
            self.game_over(slot, after)
            return
        replies = {
            f"OKAY{CRLF}{i32cfsp_move(ai)}{CRLF}"
            f"{i32cfsp_result(after.play(ai)) or 'READY'}{CRLF}": ai
            for ai in after.legal_moves()
        }
        slot.game = after.play(slot.client.expect_one_of(replies))
        if slot.state.is_over:
            self.game_over(slot, slot.state)

    def play_cfsp(self, slot: Slot, move: Move) -> None:
        """RECEIVED; a close too when the move ended the game; else the AI moves, unsaid."""
        self.line(slot, cfsp_move(move))
        slot.client.expect("RECEIVED" + CRLF)
        slot.game = slot.state.play(move)
        slot.ai_kind = slot.ai_column = None
        if slot.state.is_over:
            self.game_over(slot, slot.state)
            return
        slot.phase = Phase.ASKING

    def play_c4n(self, slot: Slot, move: Move) -> None:
        """One BOARD with the AI's disc; or RESULT and the final BOARD, and a close."""
        slot.client.send(c4n("MOVE", move.column))
        after = slot.state.play(move)
        if after.is_over:
            slot.client.expect(c4n_answer_to_a_round(after))
            self.game_over(slot, after)
            return
        replies = {c4n_answer_to_a_round(after.play(ai)): ai for ai in after.legal_moves()}
        slot.game = after.play(slot.client.expect_one_of(replies))
        if slot.state.is_over:
            self.game_over(slot, slot.state)

    @precondition(lambda self: self.where(PROTOCOLS, Phase.PLAYING))
    @rule(data=st.data())
    def play_an_illegal_move(self, data: st.DataObject) -> None:
        """A full column, a pop of a disc not the client's, a column that does not exist."""
        slot = self.pick(data, PROTOCOLS, Phase.PLAYING)
        pops = slot.protocol != C4N
        move = data.draw(st.sampled_from(illegal_moves(slot.state, pops)), label="illegal move")
        if slot.protocol == I32CFSP:
            self.line(slot, i32cfsp_move(move))
            slot.client.expect(f"INVALID{CRLF}READY{CRLF}")  # the client moves again
        elif slot.protocol == CFSP:
            self.line(slot, cfsp_move(move))
            self.error_and_close(slot)
        else:
            slot.client.send(c4n("MOVE", move.column))
            slot.client.expect(c4n("ERROR", 2))  # the player moves again

    @precondition(lambda self: self.where(PROTOCOLS, Phase.PLAYING))
    @rule(data=st.data())
    def send_a_move_that_is_not_one(self, data: st.DataObject) -> None:
        """A column that is not a number, a move word that does not exist: error and close."""
        slot = self.pick(data, PROTOCOLS, Phase.PLAYING)
        text = data.draw(st.sampled_from(NOT_A_MOVE[slot.protocol]), label="message")
        if slot.protocol == C4N:
            slot.client.send(text)
        else:
            self.line(slot, text)
        self.error_and_close(slot)

    # ----- CFSP's questions -------------------------------------------------------------

    @precondition(lambda self: self.where((CFSP,), Phase.ASKING))
    @rule(data=st.data())
    def ask_the_cfsp_ai_move(self, data: st.DataObject) -> None:
        """MOVE (its type), then COLUMN: the model learns the AI's move."""
        slot = self.pick(data, (CFSP,), Phase.ASKING)
        self.ask_cfsp(slot, "MOVE" if slot.ai_kind is None else "COLUMN")

    def asked_cfsp_slots(self) -> list[int]:
        """CFSP slots whose client may ask again: it knows the AI's move, or part of it."""
        return self.where((CFSP,), Phase.PLAYING) + [
            index for index in self.where((CFSP,), Phase.ASKING) if self.slot(index).ai_kind
        ]

    @precondition(lambda self: self.asked_cfsp_slots())
    @rule(data=st.data(), question=st.sampled_from(["MOVE", "COLUMN"]))
    def ask_the_cfsp_ai_move_again(self, data: st.DataObject, question: str) -> None:
        """Asked again, the answer is the same (before the AI's first move: an error)."""
        slot = self.slot(data.draw(st.sampled_from(self.asked_cfsp_slots()), label="slot"))
        if slot.phase is Phase.ASKING:
            question = "MOVE"  # its COLUMN is not known yet
        self.line(slot, question)
        answer = slot.ai_kind if question == "MOVE" else slot.ai_column
        if answer is None:
            self.error_and_close(slot)  # nobody but the client has moved: no such question
            return
        slot.client.expect(answer + CRLF)

    def ask_cfsp(self, slot: Slot, question: str) -> None:
        """The first MOVE or COLUMN after the AI's move: any legal answer, then it is known."""
        assert slot.phase is Phase.ASKING
        self.line(slot, question)
        legal = slot.state.legal_moves()
        if question == "MOVE":
            kinds = {cfsp_kind(move) for move in legal}
            slot.ai_kind = slot.client.expect_one_of({f"{kind}{CRLF}": kind for kind in kinds})
            return
        assert slot.ai_kind is not None, "the model asks MOVE first (spec silent on the order)"
        mine = [move for move in legal if cfsp_kind(move) == slot.ai_kind]
        ai = slot.client.expect_one_of({f"{move.column + 1}{CRLF}": move for move in mine})
        slot.ai_column = str(ai.column + 1)
        slot.game = slot.state.play(ai)
        slot.phase = Phase.PLAYING
        if slot.state.is_over:
            self.game_over(slot, slot.state)  # after COLUMN, the last answer (spec silent)

    # ----- leaving, and breaking the protocol -------------------------------------------

    @precondition(lambda self: self.where((C4N,), Phase.NEW, Phase.PLAYING))
    @rule(data=st.data())
    def stop_a_c4n_game(self, data: st.DataObject) -> None:
        """STOP ends the game: the server just closes (spec silent on a word back)."""
        slot = self.pick(data, (C4N,), Phase.NEW, Phase.PLAYING)
        slot.client.send(c4n("STOP"))
        self.closed_by_the_server(slot)

    @precondition(lambda self: any(slot is not None for slot in self.slots.values()))
    @rule(data=st.data())
    def send_garbage(self, data: st.DataObject) -> None:
        """Something that breaks the protocol where the slot is: error and close."""
        slot = self.pick(data, PROTOCOLS, *OPEN)
        text = data.draw(st.sampled_from(self.garbage_for(slot)), label="garbage")
        if slot.protocol == C4N:
            slot.client.send(text)
        else:
            self.line(slot, text)
        self.error_and_close(slot)

    @staticmethod
    def garbage_for(slot: Slot) -> list[str]:
        """Lines that break the protocol at this point of the conversation."""
        garbage = list(GARBAGE[slot.protocol])
        if slot.protocol == I32CFSP:
            garbage += {
                Phase.NEW: ["AI_GAME", "DROP 1"],
                Phase.GREETED: ["I32CFSP_HELLO boo", "DROP 1"],
                Phase.PLAYING: ["I32CFSP_HELLO boo", "AI_GAME"],
            }[slot.phase]
        elif slot.protocol == CFSP:
            garbage += {
                Phase.NEW: ["USER 0 1", "MOVE"],
                Phase.PLAYING: ["GAME 6 7"],
                Phase.ASKING: ["GAME 6 7", "USER 0 x"],
            }[slot.phase]
        elif slot.phase is Phase.NEW:
            garbage += [c4n("MOVE", 3)]
        else:
            garbage += [c4n("START"), "hello"]  # before START, "hello" would be no C4N at all
        return garbage

    @precondition(lambda self: self.where((I32CFSP, CFSP), Phase.GREETED, Phase.PLAYING))
    @rule(data=st.data())
    def send_an_overlong_line(self, data: st.DataObject) -> None:
        """A line over 8,192 bytes breaks the protocol: ERROR and a close.

        8,194 bytes and no line end: too long whatever comes next, and the server has read
        every byte before it closes (unread bytes would make the close a reset).
        """
        slot = self.pick(data, (I32CFSP, CFSP), Phase.GREETED, Phase.PLAYING)
        slot.client.send("1" * (MAX_LINE + 2))
        self.error_and_close(slot)

    @precondition(lambda self: any(slot is not None for slot in self.slots.values()))
    @rule(data=st.data(), midway=st.booleans())
    def hang_up(self, data: st.DataObject, midway: bool) -> None:
        """A client leaves, perhaps in the middle of a message (the slot reconnects later)."""
        slot = self.pick(data, PROTOCOLS, *OPEN)
        if midway:
            halves = HALVES if slot.phase is Phase.NEW else HALVES_IN_GAME
            slot.client.send(halves[slot.protocol])
        self.forget(slot)

    @invariant()
    def every_game_in_the_model_is_unfinished(self) -> None:
        for slot in self.slots.values():
            if slot is not None and slot.game is not None:
                assert not slot.state.is_over, f"{slot.client.name}: over, yet still open"


AIGames.TestCase.settings = machine_settings(examples=30, steps=40)
test_games_against_the_ai_behave_like_their_model = AIGames.TestCase
