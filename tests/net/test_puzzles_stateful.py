"""The lobby's puzzles (§8) as a state machine: tries, retries, NEXT and restarts against a model.

The model is the trainer's own record (``PuzzleProgress``, one per account) with the
puzzles' ratings shared by every account, as the server keeps them: a first try moves
the account's rating and the puzzle's for everyone, a retry moves nothing, NEXT is the
untried puzzle nearest the account's rating with the ratings as the others' tries left
them, and all of it is the same after the server restarts on its database.
"""

from __future__ import annotations

import contextlib
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from c4tui.lobby.ratings import Rating
from c4tui.protocols.puzzles import PuzzleOffer, puzzle_answer
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, shipped_puzzles
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.lobby_client import TEST_ROUNDS
from tests.net.stateful import machine_settings
from tests.net.test_lobby_puzzles import a_wrong_move
from tests.net.test_lobby_stateful import Client

NAMES = ("ann", "bob")
#: A few shipped puzzles to try: some of one solver move, some of several.
PUZZLES = [p for p in shipped_puzzles() if p.solver_moves == 1][:2]
PUZZLES += [p for p in shipped_puzzles() if p.solver_moves >= 3][:2]
WAYS = ("right", "wrong", "too few", "given up", "one too many")


def moves_for(puzzle: Puzzle, way: str) -> str:
    """PUZZLESOLVED's moves for a try made ``way``."""
    right = list(puzzle.solution[::2])
    if way == "right":
        return ",".join(right)
    if way == "too few":
        return ",".join(right[:-1])
    if way == "one too many":
        return ",".join([*right, right[-1]])
    if way == "given up":
        return ""
    return a_wrong_move(puzzle)


class PuzzlesOnline(RuleBasedStateMachine):
    """Two accounts trying puzzles on one server, which may restart."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.database = Path(self.folder.name) / "lobby.sqlite3"
        self.records = {name: PuzzleProgress() for name in NAMES}
        self.shared: dict[str, Rating] = {}  # each tried puzzle's rating, for everyone
        self.clients: dict[str, Client] = {}
        self.running: contextlib.ExitStack | None = None
        self.server = self._start()

    def _start(self) -> C4Server:
        self.running = contextlib.ExitStack()
        config = ServerConfig(port=0, db=self.database, bcrypt_rounds=TEST_ROUNDS)
        return self.running.enter_context(server_in_a_thread(config))

    def _log_in(self, name: str, register: bool) -> None:
        client = self.clients[name] = Client(self.server.port, name)
        if register:
            client.send(f"REGISTER:{name}:pw")
            client.expect("REGISTER:ACKSTATUS:0")
        client.send(f"LOGIN:{name}:pw")
        client.expect("LOGIN:ACKSTATUS:0")

    def _record(self, name: str) -> PuzzleProgress:
        """``name``'s record with every puzzle's rating as the others' tries left it."""
        record = self.records[name]
        record.puzzle_ratings = dict(self.shared)
        return record

    @initialize()
    def accounts(self) -> None:
        for name in NAMES:
            self._log_in(name, register=True)

    @rule(
        name=st.sampled_from(NAMES),
        which=st.sampled_from(range(len(PUZZLES))),
        way=st.sampled_from(WAYS),
    )
    def a_try(self, name: str, which: int, way: str) -> None:
        puzzle, record = PUZZLES[which], self._record(name)
        first, before = not record.tried(puzzle.id), round(record.rating.rating)
        record.record(puzzle, way == "right", datetime.now(UTC).date().isoformat())
        if first:
            self.shared[puzzle.id] = record.puzzle_rating(puzzle)
        after = round(record.rating.rating)
        verdict = ":".join(
            ["solved" if way == "right" else "failed", "rated" if first else "retry", str(after)]
        )
        client = self.clients[name]
        client.send(f"PUZZLESOLVED:{puzzle.id}:{moves_for(puzzle, way)}")
        client.expect(f"PUZZLESOLVED:ACKSTATUS:0:{verdict}:{after - before:+d}:{record.streak}")

    @rule(name=st.sampled_from(NAMES), following=st.booleans())
    def a_puzzle_asked_for(self, name: str, following: bool) -> None:
        record, shipped = self._record(name), shipped_puzzles()
        if following:
            puzzle = next_puzzle(shipped, record)
        else:
            puzzle = daily_puzzle(shipped, datetime.now(UTC).date())
        rating = round(record.puzzle_rating(puzzle).rating)
        offer = PuzzleOffer(
            puzzle.id,
            puzzle.moves,
            puzzle.goal,
            puzzle.solution,
            puzzle.themes,
            rating,
            round(record.rating.rating),
        )
        client = self.clients[name]
        client.send("PUZZLE:NEXT" if following else "PUZZLE")
        client.expect(puzzle_answer(offer))

    @rule(
        name=st.sampled_from(NAMES),
        line=st.sampled_from(["PUZZLE:x", "PUZZLESOLVED:1", "PUZZLESOLVED:9:d1"]),
    )
    def a_bad_line(self, name: str, line: str) -> None:
        client = self.clients[name]
        client.send(line)
        client.expect(
            {"PUZZLE:x": "PUZZLE:ACKSTATUS:1", "PUZZLESOLVED:1": "PUZZLESOLVED:ACKSTATUS:2"}.get(
                line, "PUZZLESOLVED:ACKSTATUS:1"
            )
        )

    @rule()
    def a_restart(self) -> None:
        for client in self.clients.values():
            client.socket.close()
        assert self.running is not None
        self.running.close()
        self.server = self._start()
        for name in NAMES:
            self._log_in(name, register=False)

    def teardown(self) -> None:
        for client in self.clients.values():
            client.socket.close()
        if self.running is not None:
            self.running.close()
        self.folder.cleanup()


PuzzlesOnline.TestCase.settings = machine_settings(examples=8, steps=12)
TestPuzzlesOnline = PuzzlesOnline.TestCase
