"""A Connect Four game on standard input and output, in the format of spec/console-format.md.

The console is a listener of the match driver like every other front end: it
prints what the driver reports and submits what the person types.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from c4tui.client.clocks import both_clocks
from c4tui.console.lines import EndOfInput, PlainText
from c4tui.engine import (
    DEFAULT_COLUMNS,
    DEFAULT_ROWS,
    MAX_SIZE,
    MIN_SIZE,
    GameState,
    MoveSyntaxError,
    Player,
    Rules,
    describe_move,
    parse_move,
    parse_size,
    render_board,
    status_line,
)
from c4tui.engine.text import WIN_MARK
from c4tui.match.backends import NetworkBackend, opponent_kind
from c4tui.match.driver import MatchDriver
from c4tui.match.events import (
    GameOver,
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MovesTakenBack,
    SeatLeft,
    SeatStarting,
    TurnStarted,
)
from c4tui.match.settings import MatchSettings
from c4tui.match.timing import HomeClock, ran_out

GOODBYE = "End of input: goodbye."
#: The exit status when the server closed the connection mid-game (1: any other problem).
SERVER_LOST = 3
INTERRUPTED = "Interrupted: goodbye."
QUIT_WORDS = ("quit", "exit")


class Quit(Exception):
    """The person typed quit."""


@dataclass(frozen=True)
class ConsoleSettings:
    """What ``c4tui console`` was asked to play; None sizes are asked interactively.

    ``opponent`` and ``options`` name a kind in the opponent registry and its values.
    """

    columns: int | None = None
    rows: int | None = None
    rules: Rules = Rules.CLASSIC
    opponent: str = "human"
    options: dict[str, str] = field(default_factory=dict)
    person_colour: Player = Player.RED
    seed: int | None = None
    clock: HomeClock | None = None

    def match(self, columns: int, rows: int) -> MatchSettings:
        """The match to play once the size is known."""
        return MatchSettings(
            opponent=self.opponent,
            options=self.options,
            columns=columns,
            rows=rows,
            rules=self.rules,
            person_colour=self.person_colour,
            seed=self.seed,
            ai_delay=0.0,
            clock=self.clock,
        )


class ConsoleGame(PlainText):
    """Plays one game, reading moves from ``stdin`` and writing to ``stdout``."""

    def __init__(self, settings: ConsoleSettings, stdin: TextIO, stdout: TextIO) -> None:
        # Typed answers are echoed only when nobody typed them, so transcripts read naturally.
        super().__init__(stdin, stdout, echo=not _is_terminal(stdin))
        self._settings = settings
        #: The board after our move, shown once a server confirms it (its answer comes).
        self._held: GameState | None = None

    async def run(self) -> int:
        """Play the whole game; the exit status (0 also when input ends early)."""
        driver: MatchDriver | None = None
        try:
            columns, rows = self._settings.columns, self._settings.rows
            if opponent_kind(self._settings.opponent).remote:  # connect first, ask nothing
                columns, rows = columns or DEFAULT_COLUMNS, rows or DEFAULT_ROWS
            columns = columns or await self._ask_size("columns")
            rows = rows or await self._ask_size("rows")
            asked = self._settings.match(columns, rows)
            match = asked.fitted()
            if match != asked:  # a Kaggle agent asked for Pop Out: classic, and said so
                self.say(match.kind.game_note(match.options))
            caution = match.kind.caution(match.options)
            if caution:  # (on standard error: the game's lines stay as they are)
                print(f"Warning: {caution}", file=sys.stderr, flush=True)
            self.say(announce(match))
            while True:
                driver = match.driver()
                events = driver.listen()
                driver.start()
                status = await self._follow(driver, events)
                await driver.close()
                if status != 0 or not await self._again():
                    return status
        except EndOfInput:
            self.say(GOODBYE)
            return 0
        except Quit:
            self.say("Goodbye.")
            return 0
        finally:
            if driver is not None:
                await driver.close()

    async def _again(self) -> bool:
        """Play again with the same settings? (No by default.)"""
        answer = (await self.ask("Play again? [y/N] ")).strip().lower()
        if answer in ("y", "yes"):
            self.say()
            return True
        self.say("Goodbye.")
        return False

    async def _ask_size(self, name: str) -> int:
        """A board's number of ``name`` (columns, rows); Enter takes the usual one (7 × 6)."""
        usual = DEFAULT_COLUMNS if name == "columns" else DEFAULT_ROWS
        while True:
            prompt = f"Number of {name} ({MIN_SIZE}-{MAX_SIZE}, Enter for {usual}): "
            answer = (await self.ask(prompt)).strip()
            size = usual if not answer else parse_size(answer)
            if size is not None:
                return size
            self.say(f"Please enter a whole number from {MIN_SIZE} to {MAX_SIZE}.")

    async def _follow(self, driver: MatchDriver, events: asyncio.Queue[MatchEvent]) -> int:
        """Print each event; ask the person when it is their turn. The exit status."""
        news: MatchEvent | None = None  # what came while the person was asked for a move
        while True:
            event, news = news or await events.get(), None
            if isinstance(event, SeatStarting):
                self.say(event.note)
            elif isinstance(event, TurnStarted):
                if not event.submits and driver.seats[event.player].remote:
                    self._held = event.state  # until the server answers: our move may not arrive
                    continue
                self._show(event.state)
                self._show_clocks(driver)
                if event.submits:
                    news = await self._ask_move(driver, event.state, events)
            elif isinstance(event, MovePlayed):
                self._show_held()
                seat = driver.seats[event.player]
                if not seat.submits:
                    who = f"{event.player.name} ({seat.noun})"
                    self.say(f"{who}: {describe_move(event.move)}")
                self.say()
            elif isinstance(event, SeatLeft):
                self.say(_left(driver, event))
            elif isinstance(event, MovesTakenBack):
                if self._held is None:  # else a move never shown as played: nothing to say
                    self.say(f"Taken back: {event.count} move{'s' if event.count > 1 else ''}.")
                self._held = None
            elif isinstance(event, GameOver):
                self._show_result(driver, event)
                return 0
            elif isinstance(event, MatchFailed):
                remote = any(seat.remote for seat in driver.seats.values())
                self.say(f"{'Network problem' if remote else 'Problem'}: {event.problem}")
                return SERVER_LOST if _server_lost(driver) else 1

    def _show_held(self) -> None:
        """The board held back until the server answered our move (it has)."""
        if self._held is not None:
            self._show(self._held)
            self._held = None

    def _show_result(self, driver: MatchDriver, result: GameOver) -> None:
        """The final board and who won; a game left unfinished (a forfeit, an abort) says so."""
        self._show_clocks(driver)
        if result.state.is_over:
            self._show(result.state, final=True)
            return
        self.say(render_board(result.state))
        winner = result.winner
        if result.flagged is not None:
            self.say(f"{ran_out(result.flagged)}.")
        else:
            self.say(f"{winner.name} wins by forfeit." if winner else f"{result.reason}.")

    def _show_clocks(self, driver: MatchDriver) -> None:
        """In a timed game, both times as they stand: ``RED You 2:54.3 · YELLOW …``."""
        if driver.clock is not None:
            names = {player: seat.label for player, seat in driver.seats.items()}
            reading = driver.clock.reading()
            self.say(f"Clocks: {both_clocks(reading, names, reading.at)}")

    def _show(self, state: GameState, final: bool = False) -> None:
        """The board and the status line; on the final board the winning four are marked."""
        self.say(board_text(state, final))

    async def _ask_move(
        self, driver: MatchDriver, state: GameState, events: asyncio.Queue[MatchEvent]
    ) -> MatchEvent | None:
        """Read lines until the driver takes a move (or one is undone), explaining refusals.

        Returns what the match reported instead, if it stopped first (the server went
        away while the person thought): nothing typed is waited for then.
        """
        while True:
            text = await self._typed_or_news(events)
            if not isinstance(text, str):
                self.say()  # the prompt's line ends: the news goes below it
                return text
            word = text.strip().lower()
            if word in QUIT_WORDS:
                raise Quit
            if word == "help":
                self.say(help_text(state.rules, undo=driver.takes_moves_back))
                continue
            if word == "undo":
                if self._undo(driver):
                    return None
                continue
            refusal = submit_typed_move(driver, text, f"; {move_hint(state.rules)}")
            if refusal is None:
                return None
            self.say(refusal)

    async def _typed_or_news(self, events: asyncio.Queue[MatchEvent]) -> str | MatchEvent:
        """The line typed at ``Move:``, or the match's end if it comes first.

        The server that hung up while the person thinks is told at once instead of
        after the next move is typed. Other news then (a refusal already said) is passed over.
        """
        typing = asyncio.ensure_future(self.ask("Move: "))
        try:
            while True:
                news = asyncio.ensure_future(events.get())
                try:
                    await asyncio.wait({typing, news}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    news.cancel()
                if news.done() and not news.cancelled() and _ends(news.result()):
                    return news.result()
                if typing.done():
                    return typing.result()
        finally:
            typing.cancel()

    def _undo(self, driver: MatchDriver) -> bool:
        """Take back the last move (and the computer's answer); False, said why, if it cannot."""
        if driver.undo():
            return True
        if driver.clock is not None:
            self.say("Undo is not possible in a timed game: the clocks cannot give time back.")
        elif not driver.takes_moves_back:
            self.say("Undo is not possible here: the other side does not take moves back.")
        else:
            self.say("Nothing to undo yet.")
        return False


def board_text(state: GameState, final: bool = False) -> str:
    """The board and the status line; on a final board the winning four are marked (and said)."""
    lines = [render_board(state, mark_win=final), status_line(state)]
    if final and state.winner is not None:
        lines.append(f"(The winning four are marked {WIN_MARK}.)")
    return "\n".join(lines)


def submit_typed_move(driver: MatchDriver, text: str, syntax_hint: str = "") -> str | None:
    """Submit the move typed as ``text``: None once the driver takes it, else why not.

    The reason is the line to show ("Invalid move: …"); ``syntax_hint`` follows the
    reason when the text is no move at all.
    """
    try:
        move = parse_move(text)
    except MoveSyntaxError as error:
        return f"Invalid move: {error}{syntax_hint}"
    reason = driver.submit(move)
    return None if reason is None else f"Invalid move: {reason}"


def announce(match: MatchSettings) -> str:
    """The game about to start, in one line: size, rules, opponent, who moves first."""
    if match.rules is Rules.POPOUT:
        rules = "Pop Out rules (drop a disc, or pop one of your own from the bottom row)"
    else:
        rules = "classic rules (drop a disc)"
    opponent = match.kind.describe(match.options)
    clock = "" if match.clock is None else f", on the clock ({match.clock.text})"
    return (
        f"{match.columns} x {match.rows} board, {rules}, {opponent}{clock}. "
        "RED moves first. Type help for the commands."
    )


def help_text(rules: Rules, undo: bool = True) -> str:
    """What can be typed at the Move prompt (``undo`` when the other side takes moves back)."""
    also = "undo (take back your last move), " if undo else ""
    return f"Moves: {move_hint(rules)}. Also: {also}help, quit. Ctrl-D also ends the program."


def _left(driver: MatchDriver, event: SeatLeft) -> str:
    """Why a seat left: a program here says how it lost, a player elsewhere left."""
    seat = driver.seats[event.player]
    if seat.fails:
        return f"{event.player.name} ({seat.noun}): {event.reason}"
    return f"{event.player.name} left: {event.reason}"


def _ends(event: MatchEvent) -> bool:
    """True for the news that ends a game."""
    return isinstance(event, GameOver | MatchFailed | SeatLeft)


def _server_lost(driver: MatchDriver) -> bool:
    """True when the match stopped because a server closed its connection."""
    return any(isinstance(seat, NetworkBackend) and seat.lost for seat in driver.seats.values())


def move_hint(rules: Rules) -> str:
    """How to type a move, for the rules in play."""
    if rules is Rules.POPOUT:
        return "type a column number like 3 (or d 3) to drop, p 3 to pop"
    return "type a column number like 3 (or d 3) to drop"


def _is_terminal(stream: TextIO) -> bool:
    return stream.isatty()


def run_console(settings: ConsoleSettings, stdin: TextIO | None = None) -> int:
    """Entry point of ``c4tui console``: play on the real terminal, never with a traceback."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    game = ConsoleGame(settings, stdin, sys.stdout)
    return quietly(lambda: asyncio.run(game.run()))


def tolerate_bad_bytes(stream: TextIO) -> None:
    """Undecodable input becomes replacement characters instead of an exception."""
    if isinstance(stream, io.TextIOWrapper):  # standard input (a test's text has no bytes)
        stream.reconfigure(errors="replace")


def quietly(run: Callable[[], int]) -> int:
    """Run, turning Ctrl-C and a closed output pipe into a clean exit."""
    try:
        return run()
    except KeyboardInterrupt:
        print(f"\n{INTERRUPTED}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more can be said to it.
        sys.stdout = None
        return 0
