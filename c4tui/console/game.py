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
from c4tui.match.backends import opponent_kind
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

GOODBYE = "End of input: goodbye."
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
        )


class ConsoleGame(PlainText):
    """Plays one game, reading moves from ``stdin`` and writing to ``stdout``."""

    def __init__(self, settings: ConsoleSettings, stdin: TextIO, stdout: TextIO) -> None:
        # Typed answers are echoed only when nobody typed them, so transcripts read naturally.
        super().__init__(stdin, stdout, echo=not _is_terminal(stdin))
        self._settings = settings

    async def run(self) -> int:
        """Play the whole game; the exit status (0 also when input ends early)."""
        driver: MatchDriver | None = None
        try:
            columns, rows = self._settings.columns, self._settings.rows
            if opponent_kind(self._settings.opponent).remote:  # connect first, ask nothing
                columns, rows = columns or DEFAULT_COLUMNS, rows or DEFAULT_ROWS
            columns = columns or await self._ask_size("columns")
            rows = rows or await self._ask_size("rows")
            match = self._settings.match(columns, rows)
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
        while True:
            answer = (await self.ask(f"Number of {name} ({MIN_SIZE}-{MAX_SIZE}): ")).strip()
            size = parse_size(answer)
            if size is not None:
                return size
            self.say(f"Please enter a whole number from {MIN_SIZE} to {MAX_SIZE}.")

    async def _follow(self, driver: MatchDriver, events: asyncio.Queue[MatchEvent]) -> int:
        """Print each event; ask the person when it is their turn. The exit status."""
        while True:
            event = await events.get()
            if isinstance(event, SeatStarting):
                self.say(event.note)
            elif isinstance(event, TurnStarted):
                self._show(event.state)
                if event.submits:
                    await self._ask_move(driver, event.state)
            elif isinstance(event, MovePlayed):
                seat = driver.seats[event.player]
                if not seat.submits:
                    who = f"{event.player.name} ({seat.noun})"
                    self.say(f"{who}: {describe_move(event.move)}")
                self.say()
            elif isinstance(event, SeatLeft):
                self.say(f"{event.player.name} left: {event.reason}")
            elif isinstance(event, MovesTakenBack):
                self.say(f"Taken back: {event.count} move{'s' if event.count > 1 else ''}.")
            elif isinstance(event, GameOver):
                self._show(event.state, final=True)
                return 0
            elif isinstance(event, MatchFailed):
                remote = any(seat.remote for seat in driver.seats.values())
                self.say(f"{'Network problem' if remote else 'Problem'}: {event.problem}")
                return 1

    def _show(self, state: GameState, final: bool = False) -> None:
        """The board and the status line; on the final board the winning four are marked."""
        self.say(render_board(state, mark_win=final))
        self.say(status_line(state))
        if final and state.winner is not None:
            self.say(f"(The winning four are marked {WIN_MARK}.)")

    async def _ask_move(self, driver: MatchDriver, state: GameState) -> None:
        """Read lines until the driver takes a move (or one is undone), explaining refusals."""
        while True:
            text = await self.ask("Move: ")
            word = text.strip().lower()
            if word in QUIT_WORDS:
                raise Quit
            if word == "help":
                self.say(help_text(state.rules))
                continue
            if word == "undo":
                if self._undo(driver):
                    return
                continue
            refusal = submit_typed_move(driver, text, f"; {move_hint(state.rules)}")
            if refusal is None:
                return
            self.say(refusal)

    def _undo(self, driver: MatchDriver) -> bool:
        """Take back the last move (and the computer's answer); False, said why, if it cannot."""
        if driver.undo():
            return True
        if not all(seat.supports_undo for seat in driver.seats.values()):
            self.say("Undo is not possible here: the other side does not take moves back.")
        else:
            self.say("Nothing to undo yet.")
        return False


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
    return (
        f"{match.columns} x {match.rows} board, {rules}, {opponent}. "
        "RED moves first. Type help for the commands."
    )


def help_text(rules: Rules) -> str:
    """What can be typed at the Move prompt."""
    return (
        f"Moves: {move_hint(rules)}. Also: undo (take back your last move), "
        "help, quit. Ctrl-D also ends the program."
    )


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
