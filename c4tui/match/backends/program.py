"""An outside program in a seat: an engine (``engine:CMD``) or a Kaggle agent (``kaggle:FILE.py``).

The seat asks its ``Chooser`` (``c4tui.outside``) for each move within a time limit.
Whatever the program does wrong — it crashes, hangs, answers late, plays an illegal
move or garbage — costs it this game only: the failure is kept in ``failure`` (a
tournament counts it) and the seat leaves the game (``OpponentLeft``), so the other
side wins and the app, the console or the server goes on. The program's process is
started with the first move and ended with the seat.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from c4tui.engine import C4Error, GameState, Move, Rules
from c4tui.match.backends.base import Backend, Choice, Option, SeatContext
from c4tui.match.backends.computer import ComputerBackend

if TYPE_CHECKING:
    from c4tui.outside.chooser import Chooser, OutsideFailure

#: Seconds a program has for each move unless told otherwise (the tournament's default too).
DEFAULT_MOVE_SECONDS = 1.0
#: What the player option holds: the forms of an outside program.
#: What a Kaggle agent is given as: what Kaggle takes as a submission.
KAGGLE_SUBMISSIONS = "a .py file, a folder with main.py, or a .tar.gz with main.py"
PROGRAM_FORMS = (
    "engine:COMMAND (a program speaking the engine protocol) or kaggle:AGENT "
    f"(a Kaggle ConnectX agent: {KAGGLE_SUBMISSIONS})"
)


def parse_program(text: str) -> str:
    """``text`` if it names an outside program (checked, not started); else ValueError in words.

    A Kaggle agent's file must be there, and an engine's program (and a script its
    command names): a game against a program that cannot start never opens.
    """
    # Loaded only when a program is asked for: outside/ brings the process machinery.
    from c4tui.outside.engine_chooser import cannot_start  # noqa: PLC0415
    from c4tui.outside.spec import chooser_for  # noqa: PLC0415

    kind, colon, _ = text.strip().partition(":")
    if not colon or kind not in ("engine", "kaggle"):
        raise ValueError(f"give {PROGRAM_FORMS}")
    chooser_for(text.strip())  # raises ChooserError (a ValueError) saying what is wrong
    if kind == "engine" and (problem := cannot_start(text.strip().partition(":")[2])):
        raise ValueError(f"{text.strip()!r} cannot start: {problem}")
    return text.strip()


def parse_move_seconds(text: str) -> float:
    """Seconds per move as typed (``1``, ``2.5``); ValueError unless between 0.1 and 60."""
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError("seconds per move: a number such as 1 or 2.5") from None
    if not 0.1 <= seconds <= 60:
        raise ValueError("seconds per move: from 0.1 to 60")
    return seconds


#: The program offered first: c4tui's own engine (``c4tui engine``), a working example.
EXAMPLE_PROGRAM = "engine:c4tui engine --level medium"

PROGRAM_OPTION = Option(
    "program",
    "Program",
    default=EXAMPLE_PROGRAM,
    parse=parse_program,
    max_length=400,
    remembered=True,
)
MOVE_SECONDS_OPTION = Option(
    "seconds",
    "Seconds per move",
    default=f"{DEFAULT_MOVE_SECONDS:g}",
    choices=tuple(Choice(value, f"{value} s") for value in ("1", "2", "5", "10")),
    parse=parse_move_seconds,
)


class ProgramBackend(Backend):
    """An outside program as a player: its moves come from ``chooser`` within ``move_seconds``.

    Args:
        chooser: the program (an engine, a Kaggle agent, or a level as a chooser).
        move_seconds: the time limit of each move (the chooser allows its margin).
        opening: the moves that led to the game's first position, when it is not empty
            (an engine is told the game from its start).
        min_delay: seconds a move takes at least, so a person sees it arrive.
    """

    key = "program"
    title = "Program"
    noun = "program"
    summary = "Play an outside program: an engine or a Kaggle ConnectX agent."
    options = (PROGRAM_OPTION, MOVE_SECONDS_OPTION)
    menu_parent = ComputerBackend.key
    runs_commands = True
    fails = True
    dialog_hint = "Enter asks for its command or file."
    dialog_button = "Start"

    def __init__(
        self,
        chooser: Chooser,
        *,
        move_seconds: float = DEFAULT_MOVE_SECONDS,
        opening: Sequence[Move] = (),
        min_delay: float = 0.0,
    ) -> None:
        self.chooser = chooser
        self.move_seconds = move_seconds
        self.label = f"Program ({chooser.name})"
        self.failure: OutsideFailure | None = None
        self._min_delay = min_delay
        self._opening = tuple(opening)
        #: Moves from the empty board to each position seen (keyed by position).
        self._reaching: dict[object, tuple[Move, ...]] = {}

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """The program ``values["program"]`` names, with ``values["seconds"]`` a move."""
        from c4tui.outside.spec import chooser_for  # noqa: PLC0415

        chooser = chooser_for(parse_program(values.get(PROGRAM_OPTION.key, "")))
        seconds = parse_move_seconds(
            values.get(MOVE_SECONDS_OPTION.key, MOVE_SECONDS_OPTION.default_value())
        )
        return cls(chooser, move_seconds=seconds, min_delay=context.ai_delay)

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``vs engine deep4.py``, ``vs Kaggle agent negamax``: the program's name.

        Not its whole command: a long path would fill the panel.
        """
        from c4tui.outside.spec import chooser_for  # noqa: PLC0415

        text = values.get(PROGRAM_OPTION.key, "").strip()
        try:
            chooser = chooser_for(parse_program(text))
        except ValueError:  # ChooserError too
            return f"vs program ({text or '?'})"
        kind = "Kaggle agent" if text.startswith("kaggle:") else "engine"
        return f"vs {kind} {chooser.name}"

    @classmethod
    def game_for(
        cls, values: Mapping[str, str], columns: int, rows: int, rules: Rules
    ) -> tuple[int, int, Rules]:
        """A Kaggle agent plays classic rules only (ConnectX has no Pop Out)."""
        if values.get(PROGRAM_OPTION.key, "").strip().startswith("kaggle:"):
            return columns, rows, Rules.CLASSIC
        return columns, rows, rules

    @classmethod
    def game_note(cls, values: Mapping[str, str]) -> str:
        """Said when a Kaggle agent is chosen: its games are classic."""
        if values.get(PROGRAM_OPTION.key, "").strip().startswith("kaggle:"):
            return "A Kaggle agent plays classic rules only (ConnectX has no Pop Out)."
        return ""

    @classmethod
    def caution(cls, values: Mapping[str, str]) -> str:
        """Where no sandbox can be had, your own program runs unconfined: said in one line."""
        from c4tui.outside.sandbox import sandbox_problem  # noqa: PLC0415

        problem = sandbox_problem()
        if problem is None:
            return ""
        return f"No sandbox here ({problem}): your program runs unconfined, with your files."

    async def start(self, state: GameState) -> None:
        """Remember the game's first position and the moves that reached it."""
        self._reaching = {state.position_key(): self._opening} if self._fits(state) else {}

    async def move_played(self, before: GameState, move: Move) -> None:
        """Follow the game, so the program is told it from its start (undo included)."""
        reaching = self._reaching.get(before.position_key())
        if reaching is not None:
            self._reaching[before.play(move).position_key()] = (*reaching, move)

    async def choose_move(self, state: GameState) -> Move:
        """The program's move; its failure ends its game (``OpponentLeft``, why in words)."""
        # Loaded with the first move: the menu lists this kind without the driver.
        from c4tui.match.driver import OpponentLeft  # noqa: PLC0415
        from c4tui.outside.chooser import OutsideFailure  # noqa: PLC0415

        started = time.monotonic()
        try:
            move = await self.chooser.choose(
                state, self.move_seconds, self._reaching.get(state.position_key())
            )
        except OutsideFailure as failure:
            self.failure = failure
            raise OpponentLeft(f"{self.chooser.name} lost by {failure}") from None
        remaining = self._min_delay - (time.monotonic() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        return move

    async def close(self) -> None:
        """End the program's process."""
        await self.chooser.close()

    def _fits(self, state: GameState) -> bool:
        """True when the opening given reaches ``state`` (else the chooser rebuilds the game)."""
        try:
            reached = GameState.new(state.columns, state.rows, state.rules).play_all(self._opening)
        except C4Error:
            return False
        return reached.position_key() == state.position_key()
