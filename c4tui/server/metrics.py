"""What the operator sees of a running server: spec §7's series, counted as things happen.

Each server has its own ``Metrics``, on a registry of its own (never prometheus_client's
global one), so two servers in one process — a test's, a cluster's nodes in one
test — never count into each other. ``c4tui serve --metrics-port`` shows them in
Prometheus's text format (``metrics_door.py``).

The games are counted as the store keeps them (``MeteredKeeper``): a move is counted,
and its write timed, once it is on disk, as a client is told of it (committed before
announced), so the series say what the database holds. A game restored after a
restart is in progress again (``restored``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from c4tui.lobby.journal import EndReason, GameBegan, GameEvent, GameFinished, MoveMade
from c4tui.server.store import LoginResult, NewRatings
from c4tui.server.unkept import Keeper

# No ``<counter>_created`` series beside each counter: they would double what an operator
# reads, for a time Prometheus already knows from the process's start.
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]  # untyped in 0.26

#: LOGIN's outcome (``LoginResult``'s value, its ACKSTATUS) as c4tui_logins_total's ``result``.
LOGIN_RESULTS = {0: "ok", 1: "unknown", 2: "wrong", 4: "banned"}
#: The protocols a server speaks, as c4tui_connections's ``protocol`` (``ProtocolSpec.name``).
PROTOCOLS = ("i32cfsp", "cfsp", "c4n", "lobby", "tictactoe")
#: c4tui_move_commit_seconds's buckets: SQLite commits in about a millisecond, a
#: PostgreSQL on another machine in a few; a second is a database in trouble.
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
S = TypeVar("S")
M = TypeVar("M")


class Metrics:
    """One server's series (spec §7), and the methods the server's parts count with."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self._connections = Gauge(
            "c4tui_connections",
            "Clients served now, by the protocol they speak (once their first bytes tell it).",
            ["protocol"],
            registry=registry,
        )
        self._logins = Counter(
            "c4tui_logins_total", "LOGINs answered, by result.", ["result"], registry=registry
        )
        self._registrations = Counter(
            "c4tui_registrations_total", "Accounts registered.", registry=registry
        )
        self._games = Gauge("c4tui_games_in_progress", "Lobby games under way.", registry=registry)
        self._finished = Counter(
            "c4tui_games_finished_total",
            "Lobby games ended, by reason.",
            ["reason"],
            registry=registry,
        )
        self._moves = Counter("c4tui_moves_total", "Moves kept in the database.", registry=registry)
        self._commits = Histogram(
            "c4tui_move_commit_seconds",
            "Seconds a write of moves took to commit.",
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        self._chat = Counter("c4tui_chat_lines_total", "CHAT lines served.", registry=registry)
        self._reports = Counter("c4tui_reports_total", "REPORTs kept.", registry=registry)
        self._bans = Counter("c4tui_bans_total", "Bans given.", registry=registry)
        for label, values in (
            (self._connections, PROTOCOLS),
            (self._logins, LOGIN_RESULTS.values()),
            (self._finished, [reason.value for reason in EndReason]),
        ):
            for value in values:  # every series shown from the start, at 0
                label.labels(value)

    def connected(self, protocol: str) -> None:
        """A client began speaking ``protocol`` (its ``ProtocolSpec.name``)."""
        self._connections.labels(protocol.lower()).inc()

    def disconnected(self, protocol: str) -> None:
        """A client of ``protocol`` is gone."""
        self._connections.labels(protocol.lower()).dec()

    @contextlib.contextmanager
    def serving(self, protocol: str) -> Iterator[None]:
        """Count a client of ``protocol`` while the block runs, however it ends."""
        self.connected(protocol)
        try:
            yield
        finally:
            self.disconnected(protocol)

    def logged_in(self, result: str) -> None:
        """A LOGIN was answered: ``ok``, ``wrong``, ``unknown`` or ``banned``."""
        self._logins.labels(result).inc()

    def registered(self, created: bool = True) -> None:
        """A REGISTER was answered; only an account ``created`` counts."""
        if created:
            self._registrations.inc()

    def game_began(self) -> None:
        """A lobby game began."""
        self._games.inc()

    def restored(self, games: int) -> None:
        """``games`` games in progress came back from the database (a start, a new leader)."""
        self._games.inc(games)

    def game_finished(self, reason: str) -> None:
        """A lobby game ended, for ``reason`` (an ``EndReason``'s value)."""
        self._games.dec()
        self._finished.labels(reason).inc()

    def moved(self) -> None:
        """A move was kept."""
        self._moves.inc()

    def commit_timer(self) -> contextlib.AbstractContextManager[None]:
        """Time the block as one write of moves to the database (however it ends)."""
        timer: contextlib.AbstractContextManager[None] = self._commits.time()
        return timer

    def chat_line(self) -> None:
        """A CHAT line was served."""
        self._chat.inc()

    def reported(self) -> None:
        """A REPORT was kept."""
        self._reports.inc()

    def banned(self) -> None:
        """A ban was given."""
        self._bans.inc()

    def kept(self, journal: Iterable[object]) -> None:
        """Count what a journal just kept did to the games: began, moves, finished."""
        for event in journal:
            if isinstance(event, MoveMade):
                self.moved()
            elif isinstance(event, GameBegan):
                self.game_began()
            elif isinstance(event, GameFinished):
                self.game_finished(event.reason.value)


def login_result(result: LoginResult) -> str:
    """``result`` as c4tui_logins_total's label (a result added later: its name)."""
    return LOGIN_RESULTS.get(result.value, result.name.lower())


class MeteredKeeper(Generic[S, M]):
    """A keeper that times each write holding moves and counts the games once kept.

    What could not be kept is not counted: ``keep_each`` tries each act again alone,
    through this keeper too, and a move refused to its sender never happened.
    """

    def __init__(self, keeper: Keeper[S, M], metrics: Metrics) -> None:
        self._keeper = keeper
        self._metrics = metrics

    async def keep(self, journal: Sequence[GameEvent[S, M]]) -> Sequence[NewRatings]:
        """Keep ``journal`` (``Keeper.keep``), timed when it holds a move, then count it."""
        moves = any(isinstance(event, MoveMade) for event in journal)
        with self._metrics.commit_timer() if moves else contextlib.nullcontext():
            rated = await self._keeper.keep(journal)
        self._metrics.kept(journal)
        return rated
