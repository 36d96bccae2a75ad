"""What the match driver reports (one frozen dataclass per kind of news, past tense), and to whom.

Front ends listen to these and never decide what happens next themselves: the
game screen redraws, the console prints, the server answers its client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine import GameState, Move, Player


@dataclass(frozen=True)
class SeatStarting:
    """A seat is getting ready (a network opponent connecting); ``note`` says so to a person."""

    player: Player
    note: str


@dataclass(frozen=True)
class GameStarted:
    """Every seat is ready; ``state`` is the empty board."""

    state: GameState


@dataclass(frozen=True)
class TurnStarted:
    """``player`` is to move in ``state``.

    ``submits`` is True when the move must come through ``MatchDriver.submit`` (a
    person here, or a server's client); otherwise the seat is thinking.
    """

    state: GameState
    player: Player
    label: str
    submits: bool


@dataclass(frozen=True)
class MovePlayed:
    """``player`` played ``move``: ``before`` became ``after``; ``moves``: all so far, it last."""

    before: GameState
    move: Move
    after: GameState
    player: Player
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class MoveRefused:
    """A submitted move was not played; ``reason`` says why, for a person."""

    player: Player | None
    move: Move | None
    reason: str


@dataclass(frozen=True)
class MovesTakenBack:
    """Undo: the game is back at ``state`` (``count`` moves taken back; ``moves`` remain)."""

    state: GameState
    count: int
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class MovesRedone:
    """Redo: the moves the latest undo took back were played again (``count`` of them).

    The game is at ``state``, reached by ``moves``; nothing asked the seats for them.
    """

    state: GameState
    count: int
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class SeatLeft:
    """The player in a seat left or forfeited; the other player wins."""

    player: Player
    reason: str


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``winner`` (None: a draw) and why, in words.

    ``flagged``: the player whose time ran out, in a game lost on time (else None).
    """

    state: GameState
    winner: Player | None
    reason: str
    flagged: Player | None = None


@dataclass(frozen=True)
class MatchFailed:
    """The match cannot go on (a lost connection, a seat that broke the rules), in words.

    ``state`` is where the game stopped.
    """

    problem: str
    state: GameState


MatchEvent = (
    SeatStarting
    | GameStarted
    | TurnStarted
    | MovePlayed
    | MoveRefused
    | MovesTakenBack
    | MovesRedone
    | SeatLeft
    | GameOver
    | MatchFailed
)


#: Called with each event.
Listener = Callable[[MatchEvent], None]


class EventSource:
    """What the driver's listeners hold on to: every event, to each listener, in order."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def listen(self, ignore: tuple[type, ...] = ()) -> asyncio.Queue[MatchEvent]:
        """A queue that receives every event from now on (for loops that await them).

        Events of the ``ignore`` types are left out (a server that answers refusals
        itself must not pile up a client's every invalid move).
        """
        queue: asyncio.Queue[MatchEvent] = asyncio.Queue()

        def put(event: MatchEvent) -> None:
            if not isinstance(event, ignore):
                queue.put_nowait(event)

        self.subscribe(put)
        return queue

    def _emit(self, event: MatchEvent) -> None:
        for listener in list(self._listeners):
            listener(event)
