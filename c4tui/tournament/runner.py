"""Playing a tournament's games: up to ``concurrency`` at once, each through a ``MatchDriver``.

Every game gets fresh choosers (an outside program's process lives for one game),
two ``ProgramBackend`` seats that are told the opening, and the levels' searches in
the one shared ``SearchPool``. A program that fails loses that game only, the reason
kept. Cancelling ``play`` (Ctrl-C) abandons the games under way: their drivers are
closed, which kills the programs' process groups, and nothing of them is reported.

A program the pre-flight could not start (its file does not load, its command does not
run, it never answered ``c4e``) loses each of its games by that failure at once, not
started again. A teacher expects that: the pre-flight said why and that it loses its
games; starting it again would fail the same way, at the cost of up to 15.5 s
(``START_SECONDS`` and the margin) a game; and a shorter start time instead would
record a different reason (time) than the one the program has.
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from c4tui.engine import DrawReason, GameState, Move, Player
from c4tui.match.backends.program import ProgramBackend
from c4tui.match.driver import MatchDriver
from c4tui.match.pool import SearchPool
from c4tui.outside.chooser import Chooser, FailureKind, OutsideFailure
from c4tui.outside.program import Limits
from c4tui.outside.spec import chooser_for
from c4tui.tournament.players import Entrant
from c4tui.tournament.results import GameResult, Plan
from c4tui.tournament.schedule import ScheduledGame
from c4tui.tournament.standings import Outcome, Reason

#: The reason a program's failure gives its loss (a malformed answer counts as illegal).
FAILURE_REASONS = {
    FailureKind.CRASH: Reason.CRASH,
    FailureKind.TIME: Reason.TIME,
    FailureKind.ILLEGAL: Reason.ILLEGAL,
    FailureKind.MALFORMED: Reason.ILLEGAL,
}

#: Told each finished game (and awaited before the worker plays its next one).
Finished = Callable[[GameResult], Awaitable[None]]


def log_path(logs: Path, name: str) -> Path:
    """Where the player ``name``'s standard error goes."""
    return logs / f"{name}.log"


def exchange_path(logs: Path, name: str, game: int) -> Path:
    """Where game ``game``'s protocol exchange with the player ``name`` goes (beside its log)."""
    return logs / f"{name}.game-{game}.exchange"


class Runner:
    """Plays a plan's games.

    Args:
        plan: the tournament.
        pool: where the levels search (shared by every game).
        logs: the folder of the programs' standard error, one file per player.
        concurrency: games played at once.
        finished: told of each game as it ends (in the event loop, before the next starts).
        limits: the programs' bounds and sandbox (each game's logs are added).
        unstarted: the players the pre-flight could not start, with why: their games are
            lost by it without starting them.
    """

    def __init__(
        self,
        plan: Plan,
        *,
        pool: SearchPool,
        logs: Path,
        concurrency: int,
        finished: Finished,
        limits: Limits,
        unstarted: Mapping[str, OutsideFailure] | None = None,
    ) -> None:
        self.plan = plan
        self._pool = pool
        self._logs = logs
        self._concurrency = max(1, concurrency)
        self._finished = finished
        self._limits = limits
        self._unstarted = dict(unstarted or {})
        self._entrants = {
            name: Entrant(name, body) for name, body in zip(plan.names, plan.specs, strict=True)
        }

    def chooser(self, name: str, game: ScheduledGame) -> Chooser:
        """A fresh chooser for ``name``, its randomness from the seed and the game's number."""
        seed = zlib.crc32(f"{self.plan.options.seed}:{game.number}:{name}".encode())
        limits = replace(
            self._limits,
            stderr_log=log_path(self._logs, name),
            exchange_log=exchange_path(self._logs, name, game.number),
            label=f"game {game.number}",
        )
        return chooser_for(self._entrants[name].spec, pool=self._pool, seed=seed, limits=limits)

    async def play(self, games: Sequence[ScheduledGame]) -> None:
        """Play ``games``, ``concurrency`` at once, in order; a cancel abandons those under way."""
        self._logs.mkdir(parents=True, exist_ok=True)
        waiting = deque(games)
        workers = [asyncio.create_task(self._work(waiting)) for _ in range(self._concurrency)]
        try:
            await asyncio.gather(*workers)
        finally:
            for worker in workers:
                if not worker.done() and not worker.cancelling():  # once: its close must run
                    worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    async def _work(self, waiting: deque[ScheduledGame]) -> None:
        while waiting:
            game = waiting.popleft()
            await self._finished(await self.play_game(game))

    async def play_game(self, game: ScheduledGame) -> GameResult:
        """One whole game, timed; its drivers and programs are closed however it ends."""
        started = time.monotonic()
        result = await self._played(game)
        return replace(result, seconds=time.monotonic() - started)

    async def _played(self, game: ScheduledGame) -> GameResult:
        options = self.plan.options
        opening = self.plan.openings[game.opening]
        start = GameState.new(options.columns, options.rows, self.plan.rules).play_all(opening)
        lost = self.unstarted_loss(game, opening)
        if lost is not None:
            return lost
        seconds = options.movetime / 1000
        seats = {
            Player.RED: ProgramBackend(
                self.chooser(game.red, game), move_seconds=seconds, opening=opening
            ),
            Player.YELLOW: ProgramBackend(
                self.chooser(game.yellow, game), move_seconds=seconds, opening=opening
            ),
        }
        driver = MatchDriver(start, seats, pool=self._pool)
        try:
            await driver.run()
        finally:
            await driver.close()
        return result_of(game, driver, seats, opening)

    def unstarted_loss(self, game: ScheduledGame, opening: tuple[Move, ...]) -> GameResult | None:
        """The game lost by a player that did not start, without playing it (None: play it).

        Were both such, neither beats the other: the game is a draw that counts the
        failure against both (a win for either would reward a program that never ran).
        """
        failed = [name for name in (game.red, game.yellow) if name in self._unstarted]
        if not failed:
            return None
        if len(failed) == 2:
            failure = self._unstarted[game.red]
            detail = "neither player started before the games: " + "; ".join(
                f"{name}: {self._unstarted[name]}" for name in failed
            )
            reason = FAILURE_REASONS[failure.kind]
            return GameResult(game.red, game.yellow, opening, opening, Outcome.DRAW, reason, detail)
        loser = failed[0]
        failure = self._unstarted[loser]
        detail = f"{loser} lost by {failure} (it did not start before the games)"
        winner = Player.YELLOW if loser == game.red else Player.RED
        reason = FAILURE_REASONS[failure.kind]
        return GameResult(game.red, game.yellow, opening, opening, _win(winner), reason, detail)


def result_of(
    game: ScheduledGame,
    driver: MatchDriver,
    seats: dict[Player, ProgramBackend],
    opening: tuple[Move, ...],
) -> GameResult:
    """How the game ``driver`` played ended, as the tournament records it."""
    moves = (*opening, *driver.moves)
    state = driver.state
    if driver.result is None:  # the match failed: the side to move broke it
        mover = game.red if state.turn is Player.RED else game.yellow
        detail = f"{mover} broke the game: {driver.problem}"
        return GameResult(
            game.red, game.yellow, opening, moves, _win(state.turn.other), Reason.CRASH, detail
        )
    winner, detail = driver.result.winner, driver.result.reason
    if winner is None:
        repeated = state.draw_reason is DrawReason.REPETITION
        return GameResult(
            game.red,
            game.yellow,
            opening,
            moves,
            Outcome.DRAW,
            Reason.REPETITION if repeated else Reason.FULL,
            detail,
        )
    failure = seats[winner.other].failure
    if failure is not None:
        reason = FAILURE_REASONS[failure.kind]
    elif state.winner is winner:
        reason, detail = Reason.FOUR, "four in a row"
    else:
        reason = Reason.CRASH  # it left the game some other way
    return GameResult(game.red, game.yellow, opening, moves, _win(winner), reason, detail)


def _win(player: Player) -> Outcome:
    return Outcome.RED if player is Player.RED else Outcome.YELLOW
