"""The match driver: the one turn loop every front end, the server and the tests play through.

It owns the game's history, asks each seat for its move in the background (an
asyncio task), checks every move with the engine, tells every seat and watcher
what was played, and reports all of it as events (``c4tui.match.events``).
Front ends only listen and submit: the game screen redraws, the console prints,
the server answers its client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from c4tui.engine import C4Error, GameState, IllegalMoveError, Move, Player
from c4tui.match.absence import submission_or_absence
from c4tui.match.backends.base import Backend, Watcher
from c4tui.match.events import (
    EventSource,
    GameOver,
    GameStarted,
    MatchFailed,
    MovePlayed,
    MoveRefused,
    MovesRedone,
    MovesTakenBack,
    SeatLeft,
    SeatStarting,
    TurnStarted,
)
from c4tui.match.history import GameHistory
from c4tui.match.pool import SearchPool
from c4tui.match.running_clock import MatchClock
from c4tui.match.timing import HomeClock, lost_on_time

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis
    from c4tui.ai.best_line import BestLine
    from c4tui.ai.search import SearchResult


class OpponentLeft(C4Error):
    """Raised by a backend whose player left or forfeited; the message says how.

    ``player`` is the colour that left, when it is not the one to move (a server that
    gives the game up as it is told of our move); the driver sets it.
    """

    player: Player | None = None


class MatchDriver(EventSource):
    """Plays one match at a time between two seats, with any number of watchers.

    Args:
        start: the first position (usually an empty board); ``restart`` goes back to it.
        seats: who plays each colour.
        history: moves already played from ``start`` (a saved game continued); they
            can be undone like any other. Raises IllegalMoveError for an illegal one.
        watchers: spectators, told of every move but never asked for one.
        pool: where hints and analyses run (the process's shared pool by default).
        clock: the game's time control (None: untimed); a flag that falls loses the game.
    """

    def __init__(
        self,
        start: GameState,
        seats: Mapping[Player, Backend],
        *,
        history: Sequence[Move] = (),
        watchers: Sequence[Watcher] = (),
        pool: SearchPool | None = None,
        clock: HomeClock | None = None,
    ) -> None:
        super().__init__()
        self.seats = dict(seats)
        self._seating = dict(seats)  # as asked; a seat whose side moved first may swap
        self.watchers = list(watchers)
        self._history = GameHistory(start, history)
        self._pool = pool
        self._task: asyncio.Task[None] | None = None
        self._submitted: asyncio.Future[Move] | None = None
        self._settled = asyncio.Event()
        self._settled.set()
        self._announced: Player | None = None  # whose thinking turn was already reported
        self._early: Move | None = None  # submitted before the loop asked for it
        self._seats_ready = False  # every seat has started (a network one has connected)
        #: Why the match stopped (a connection lost, …); None while it can go on.
        self.problem: str | None = None
        #: How the game ended, once it has (including a player leaving, or a flag falling).
        self.result: GameOver | None = None
        #: Both players' times in a timed game (None: untimed; no undo then).
        self.clock = None if clock is None else MatchClock(clock)

    # ----- what there is to see ------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._history.state

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far, in order."""
        return self._history.moves

    @property
    def positions(self) -> tuple[GameState, ...]:
        """Every position so far, the first one first (one more than there are moves)."""
        return self._history.positions

    @property
    def last_move(self) -> Move | None:
        """The most recent move, if any."""
        return self._history.moves[-1] if self._history.moves else None

    @property
    def is_over(self) -> bool:
        """True once the game has a result or cannot go on."""
        return self.result is not None or self.problem is not None

    def seat_to_move(self) -> Backend:
        """The seat whose turn it is."""
        return self.seats[self.state.turn]

    def awaiting_submission(self) -> bool:
        """True when the move must come through ``submit`` now (a person's turn).

        Also true in the instant between a move and the loop asking for the next
        one, so a front end's controls do not flicker; ``submit`` keeps a move made then.
        """
        if self.is_over or self.state.is_over or not self.seat_to_move().submits:
            return False
        running = self._task is not None and not self._task.done()
        return running and self._seats_ready and self._early is None

    def everyone_submits(self) -> bool:
        """True when both seats are people here (two players at one keyboard)."""
        return all(seat.submits for seat in self.seats.values())

    # ----- driving -------------------------------------------------------------------

    def start(self) -> None:
        """Start the game from the current position: the seats get ready, then play."""
        self._launch(starting=True)

    def restart(self) -> None:
        """A new game with the same seats from the first position."""
        self._stop_loop()
        self._history.restart()
        self.start()

    async def settled(self) -> None:
        """Wait until the driver waits for a submitted move, or has stopped."""
        await self._settled.wait()

    async def run(self) -> GameOver | None:
        """Play the game to its end; the result (None if the match failed)."""
        if self._task is None:
            self.start()
        while (task := self._task) is not None:
            await asyncio.wait({task})  # never raises: a task cancelled by undo is replaced
            if task is self._task:
                break
        return self.result

    def submit(self, move: Move) -> str | None:
        """Play a move for the seat that submits its moves; the refusal in words, or None.

        A refusal (not this seat's turn, an illegal move) changes nothing and is
        also reported as a MoveRefused event.
        """
        reason = self._submission_problem(move)
        if reason is not None:
            self._emit(MoveRefused(self.state.turn, move, reason))
            return reason
        self._history.forget_undone()  # a new move: what undo took back stays taken back
        if self._submitted is not None and not self._submitted.done():
            self._submitted.set_result(move)
        else:
            self._early = move  # the loop is about to ask: it takes this one
        self._settled.clear()
        return None

    def _submission_problem(self, move: Move) -> str | None:
        if self.problem is not None:
            return "the game has stopped"
        if self.state.is_over or self.result is not None:
            return "the game is over"
        seat = self.seat_to_move()
        if not seat.submits:
            return f"wait: {seat.label} is to move"
        if not self.awaiting_submission():
            return "wait: the game is getting ready"
        return self.state.refusal(move)

    def resign(self, player: Player, reason: str) -> None:
        """``player`` gives the game up (a forfeit, here or reported by a server): the other wins.

        Changes nothing once the game is over.
        """
        if self.is_over:
            return
        self._stop_loop()
        self._seat_left(player, reason)
        self._settled.set()

    def called_off(self, reason: str) -> None:
        """The server ended the game with nobody winning (a draw agreed, an abort, §5.6)."""
        if not self.is_over:
            self._stop_loop()
            self._finish(GameOver(self.state, None, reason))
            self._settled.set()

    # ----- undo and redo -------------------------------------------------------------

    def can_undo(self) -> bool:
        """True when ``undo`` would take back a move of a person here (and nobody objects)."""
        if not self._takes_back():
            return False
        return any(self.seats[state.turn].submits for state in self.positions[:-1])

    def undo(self, *, agreed: bool = False) -> bool:
        """Take back moves until a person here is to move again, one of their moves undone.

        Two players: one move. Against the computer: its reply and your move (``redo``
        plays them again). Returns False (changing nothing) when there is nothing to undo.
        ``agreed``: a room's players agreed to take its last move back (§5.6): that one only.
        """
        if not (self.can_undo() or (agreed and self.moves and self.problem is None)):
            return False
        self._stop_loop()
        count = self._history.undo(until=lambda state: agreed or self.seats[state.turn].submits)
        self.result = None
        self._emit(MovesTakenBack(self.state, count, self.moves))
        self._launch(starting=False)
        return True

    def can_redo(self) -> bool:
        """True when ``redo`` would play again moves that undo took back."""
        return self._takes_back() and self._history.can_redo

    def redo(self) -> bool:
        """Play again what the latest undo took back; False (changing nothing) if nothing."""
        if not self.can_redo():
            return False
        self._stop_loop()
        count = self._history.redo()
        self._emit(MovesRedone(self.state, count, self.moves))
        self._launch(starting=False)
        return True

    def _takes_back(self) -> bool:
        """True unless the match has stopped, is timed, or a seat objects to moves taken back."""
        return self.problem is None and self.takes_moves_back

    @property
    def takes_moves_back(self) -> bool:
        """False in a timed game (whose time would undo give back?) and where a seat objects."""
        return self.clock is None and all(s.supports_undo for s in self.seats.values())

    # ----- asking the AI -------------------------------------------------------------

    async def hint(self, seconds: float) -> SearchResult:
        """A search of the current position: the move to suggest and what is known."""
        pool = self._pool or SearchPool.shared()
        return await pool.analyse(self.state, seconds, owner=self)

    async def analysis(self, seconds: float) -> Analysis:
        """Every column's outcome in the current position (proven on 7 x 6 classic)."""
        pool = self._pool or SearchPool.shared()
        return await pool.analyse_columns(self.state, seconds, owner=self)

    async def best_line(self, seconds: float) -> BestLine | None:
        """Best play from the current position to the end (7 x 6 classic; None elsewhere)."""
        pool = self._pool or SearchPool.shared()
        return await pool.best_line(self.state, seconds, owner=self)

    # ----- the loop ------------------------------------------------------------------

    def _launch(self, starting: bool) -> None:
        self._stop_loop()
        self._seats_ready = self._seats_ready and not starting
        self.problem = None
        self.result = None
        self._announced = None
        self._settled.clear()
        self._task = asyncio.get_running_loop().create_task(self._play(starting))

    def _stop_loop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        if self._submitted is not None and not self._submitted.done():
            self._submitted.cancel()
        self._submitted = None
        self._early = None

    async def _play(self, starting: bool) -> None:
        """The turn loop; every outcome, good or bad, becomes an event."""
        player: Player | None = None
        try:
            if starting:
                await self._start_seats()
            while not self.state.is_over:
                player = self.state.turn
                move = await self._move_in_time(player)
                if move is None:  # the flag fell first
                    self._finish(GameOver(self.state, player.other, lost_on_time(player), player))
                    return
                await self._play_move(player, move)
            self._finish(self._game_over(self.state))
        except OpponentLeft as left:
            self._seat_left(left.player or player or self.state.turn, str(left))
        except (C4Error, OSError, TimeoutError) as error:
            self._fail(str(error) or type(error).__name__)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bug in a backend must stop the match, not the program
            self._fail(f"Unexpected problem: {error!r}")
        finally:
            if asyncio.current_task() is self._task:  # not a loop that undo replaced
                self._settled.set()

    async def _start_seats(self) -> None:
        self.seats.update(self._seating)  # in place: front ends may hold the mapping
        for player, seat in self.seats.items():
            note = seat.starting_note()
            if note is not None:
                self._emit(SeatStarting(player, note))
            await seat.start(self.state)
        self._seat_the_first_mover()
        for watcher in self.watchers:
            await watcher.start(self.state)
        self._seats_ready = True
        if self.clock is not None:
            self.clock.start(self.state.turn)
        self._emit(GameStarted(self.state))

    def _seat_the_first_mover(self) -> None:
        """Seat as RED a YELLOW seat whose side has already moved: red always moves first.

        That happens when a C4N server's AI drops first.
        """
        yellow = self.seats[Player.YELLOW]
        if yellow.moved_first and not self.moves:
            self.seats.update({Player.RED: yellow, Player.YELLOW: self.seats[Player.RED]})

    async def _move_in_time(self, player: Player) -> Move | None:
        """``player``'s move; in a timed game, None if its flag falls first."""
        moving = self._next_move(player)
        return await (moving if self.clock is None else self.clock.move_in_time(moving))

    async def _next_move(self, player: Player) -> Move:
        seat = self.seats[player]
        if seat.submits:
            if self._early is not None:
                move, self._early = self._early, None
                return move
            submitted: asyncio.Future[Move] = asyncio.get_running_loop().create_future()
            self._submitted = submitted
            self._emit(TurnStarted(self.state, player, seat.label, submits=True))
            self._settled.set()
            try:
                return await submission_or_absence(submitted, self.seats[player.other])
            finally:
                if self._submitted is submitted:
                    self._submitted = None
        if self._announced is not player:
            self._emit(TurnStarted(self.state, player, seat.label, submits=False))
        self._announced = None
        return await seat.choose_move(self.state)

    async def _play_move(self, player: Player, move: Move) -> None:
        before = self.state
        try:
            after = self._history.play(move)
        except IllegalMoveError as illegal:
            label = self.seats[player].label
            raise OpponentMisbehaved(f"{label} tried an illegal move: {illegal}") from None
        self._emit(MovePlayed(before, move, after, player, self.moves))
        following = self.seats[after.turn]
        if not after.is_over and not following.submits:
            # Its turn starts now: a network opponent thinks while it is told of this move.
            self._emit(TurnStarted(after, after.turn, following.label, submits=False))
            self._announced = after.turn
        try:
            for watcher in (*self.seats.values(), *self.watchers):
                await self._tell(watcher, before, move)
        except OpponentLeft:
            raise  # it heard the move, and left: the move stands
        except Exception:
            self._take_back(after)  # it never reached the other side: do not show it as played
            raise

    async def _tell(self, watcher: Watcher, before: GameState, move: Move) -> None:
        """Tell ``watcher`` of the move; a seat that leaves on hearing it is named as the leaver."""
        try:
            await watcher.move_played(before, move)
        except OpponentLeft as left:
            left.player = next((c for c, seat in self.seats.items() if seat is watcher), None)
            raise

    def _take_back(self, unacknowledged: GameState) -> None:
        if self.state is unacknowledged and self.moves:
            self._history.take_back_last()
            self._emit(MovesTakenBack(self.state, 1, self.moves))

    def _game_over(self, state: GameState) -> GameOver:
        if state.winner is not None:
            return GameOver(state, state.winner, f"four in a row: {state.winner.name} wins")
        reason = state.draw_reason.value if state.draw_reason else "the game is drawn"
        return GameOver(state, None, reason)

    def _finish(self, result: GameOver) -> None:
        self._stop_clock()
        self.result = result
        self._emit(result)

    def _seat_left(self, player: Player, reason: str) -> None:
        self._emit(SeatLeft(player, reason))
        self._finish(GameOver(self.state, player.other, reason))

    def _fail(self, problem: str) -> None:
        self._stop_clock()
        self.problem = problem
        self._emit(MatchFailed(problem, self.state))

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.stop()

    async def close(self) -> None:
        """Stop the loop and close every seat and watcher."""
        task = self._task
        self._stop_loop()
        try:
            if task is not None and not task.done():  # a finished game's loop has ended
                await asyncio.wait({task})  # its end, whatever it was; our own cancel passes
        finally:
            for watcher in (*self.seats.values(), *self.watchers):
                with contextlib.suppress(Exception):
                    await watcher.close()
            self._settled.set()


class OpponentMisbehaved(C4Error):
    """A seat that chooses its own moves chose an illegal one."""
