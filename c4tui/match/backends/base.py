"""The one interface every kind of player implements, and how a kind describes itself.

A Backend plays one colour. Its class says what the kind is called, which options
it takes (host, port, level, …) and how to make one from them, so the menu, the
connect dialog, the console and the server all read the same declarations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from c4tui.engine import GameState, Move, Player, Rules

if TYPE_CHECKING:
    from c4tui.match.pool import SearchPool


@dataclass(frozen=True)
class Choice:
    """One value of an option with a fixed set of values."""

    value: str
    label: str
    description: str = ""


def _text(value: str) -> str:
    return value


@dataclass(frozen=True)
class Option:
    """One setting a kind of opponent needs.

    Attributes:
        key: the name in settings and on the command line (``host``, ``level``).
        label: what a form calls it.
        default: the value offered first (a function when it depends on the machine).
        choices: the allowed values, for options picked from a list (shown in the
            menu); empty for free text (asked in the connect dialog).
        parse: turns the text into the value, raising ValueError with a message
            a person can act on.
        max_length: how long the text may be (free-text options).
        applies: whether the option matters, given every option's values (a
            username only for protocols that send one); forms grey it out if not.
        in_menu: picked in the menu although the kind's other options are asked in a
            dialog (the lobby's rated or casual, and its clock: a game's terms, not
            where the server is); dialogs leave it out.
        remembered: typed text kept with the menu's choices for the next start (a
            program's command); other typed values (a server's address) are asked again.
    """

    key: str
    label: str
    default: str | Callable[[], str]
    choices: tuple[Choice, ...] = ()
    parse: Callable[[str], object] = _text
    max_length: int = 64
    applies: Callable[[Mapping[str, str]], bool] = lambda values: True
    in_menu: bool = False
    remembered: bool = False

    def default_value(self) -> str:
        """The default as text."""
        return self.default() if callable(self.default) else self.default

    def problem(self, text: str) -> str | None:
        """What is wrong with ``text`` for this option, in words; None if it will do."""
        if self.choices and text not in {choice.value for choice in self.choices}:
            allowed = ", ".join(choice.value for choice in self.choices)
            return f"{self.label}: one of {allowed}."
        try:
            self.parse(text)
        except ValueError as error:
            return f"{self.label}: {error}."
        return None


@dataclass(frozen=True)
class SeatContext:
    """What a backend may need from where it is made: randomness, pace and the AI's pool."""

    pool: SearchPool | None = None
    seed: int | None = None
    ai_delay: float = 0.0
    owner: object = None  # whose AI work this is, for the pool's fair queue


class Watcher:
    """Base of everything told about a game: seats and spectators alike."""

    async def start(self, state: GameState) -> None:
        """Get ready for a new game from ``state`` (a network backend connects here)."""

    def starting_note(self) -> str | None:
        """What to tell a person while ``start`` runs (e.g. "Connecting to …"), if anything."""
        return None

    async def move_played(self, before: GameState, move: Move) -> None:
        """Told of every move, in order (a network backend forwards the other side's)."""

    async def close(self) -> None:
        """Release whatever is held (connections, AI work)."""


class Spectator(Watcher):
    """A watcher that only watches: it never moves (the lobby's viewers are these)."""


class Backend(Watcher, ABC):
    """A player of one colour, and (on the class) the description of its kind.

    Subclasses registered as opponents set ``key``, ``title``, ``summary`` and
    ``options`` and implement ``create``.
    """

    #: The registry's name for this kind ("" for kinds that are not offered).
    key: ClassVar[str] = ""
    #: The menu's name for this kind.
    title: ClassVar[str] = ""
    #: One sentence for the menu.
    summary: ClassVar[str] = ""
    #: What a plain-text transcript calls this player: ``YELLOW (computer): …``.
    noun: ClassVar[str] = "player"
    options: ClassVar[tuple[Option, ...]] = ()
    #: The colours the person here may take against this kind (the first is the default).
    person_colours: ClassVar[tuple[Player, ...]] = (Player.RED, Player.YELLOW)
    #: True when the moves come through ``MatchDriver.submit`` (a person here, a server's client).
    submits: ClassVar[bool] = False
    #: False when moves cannot be taken back (a server does not undo).
    supports_undo: ClassVar[bool] = True
    #: True when both colours are people at this keyboard against each other.
    local_pair: ClassVar[bool] = False
    #: True when the player is at the other end of a connection.
    remote: ClassVar[bool] = False
    #: True for people met in a lobby's rooms: chosen there, not made from options alone.
    lobby: ClassVar[bool] = False
    #: The key of the kind whose menu row offers this one as its last choice ("Program…"
    #: among the computer's levels); "" for a mode of its own.
    menu_parent: ClassVar[str] = ""
    #: True when the opponent runs a command on this machine: never offered to visitors.
    runs_commands: ClassVar[bool] = False
    #: True when leaving a game means the player failed (an outside program that crashed,
    #: hung or cheated): front ends say so, not that it left.
    fails: ClassVar[bool] = False
    #: What the menu says Enter does when the kind's options are asked in a dialog.
    dialog_hint: ClassVar[str] = "Enter asks where it is."
    #: The dialog's button that starts the game with what was typed.
    dialog_button: ClassVar[str] = "Connect"

    label: str = "Player"
    #: Set by ``start`` when the other side has already moved (a C4N server whose AI
    #: drops first): the driver then seats this player as RED.
    moved_first: bool = False

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """A backend of this kind from option ``values`` (already checked)."""
        raise NotImplementedError(f"{cls.__name__} is not made from options")

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """A few words for the screen: ``vs computer (Hard)``."""
        return f"vs {cls.title.lower()}"

    @classmethod
    def game_for(
        cls, values: Mapping[str, str], columns: int, rows: int, rules: Rules
    ) -> tuple[int, int, Rules]:
        """The board and rules a game against this kind will have, given those asked for.

        Most kinds play any game; a protocol that plays only one (C4N: classic 7 × 6)
        says so here, and ``game_note`` tells the person.
        """
        return columns, rows, rules

    @classmethod
    def prepare(cls, values: Mapping[str, str], start: GameState) -> None:
        """Get ready for a game from ``start`` while the menu shows this kind (most: nothing).

        The person is still choosing: what is slow to start (the solver) starts then,
        not after Start is pressed.
        """

    @classmethod
    def game_note(cls, values: Mapping[str, str]) -> str:
        """What a person should know about the games this kind plays ("" if nothing)."""
        return ""

    @classmethod
    def caution(cls, values: Mapping[str, str]) -> str:
        """A warning to give as the game starts ("" if none): a program without a sandbox."""
        return ""

    @classmethod
    def asked_in_dialog(cls) -> tuple[Option, ...]:
        """The options a connect or login dialog asks for: all but those picked in the menu."""
        return tuple(option for option in cls.options if not option.in_menu)

    @classmethod
    def option_values(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Every option's value: ``given`` where present, else its default."""
        return {option.key: given.get(option.key, option.default_value()) for option in cls.options}

    @classmethod
    def problems(cls, values: Mapping[str, str]) -> dict[str, str]:
        """Option key → what is wrong with its value; empty when all are fine."""
        found = {}
        for option in cls.options:
            problem = option.problem(values.get(option.key, option.default_value()))
            if problem is not None:
                found[option.key] = problem
        return found

    async def watch_while_waiting(self) -> None:
        """Raise (a C4Error in words) if this player goes away while the other side thinks.

        The driver runs it while a person here chooses a move, so a server that hangs
        up then is noticed at once, not at the next move. Returns at once when there is
        nothing to watch (the default).
        """

    @abstractmethod
    async def choose_move(self, state: GameState) -> Move:
        """The move this player makes in ``state`` (it is this player's turn)."""
