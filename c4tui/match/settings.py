"""What a match is: the board, the rules, the opponent (a registry key and its options)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeAlias

from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState, Move, Player, Rules
from c4tui.match.backends import Backend, PersonBackend, SeatContext, opponent_kind
from c4tui.match.backends.online import lobby_colour, lobby_terms
from c4tui.match.timing import HomeClock
from c4tui.protocols.colours import Colour
from c4tui.protocols.terms import Terms

if TYPE_CHECKING:
    from c4tui.match.driver import MatchDriver
    from c4tui.match.pool import SearchPool

#: What two people at one keyboard are called (in the panel, the score and game records).
FIRST_PLAYER, SECOND_PLAYER = "Player 1", "Player 2"


def describe_game(columns: int, rows: int, rules: Rules) -> str:
    """The board and rules in a few words: ``7 × 6 Pop Out``."""
    return f"{columns} × {rows} {'Pop Out' if rules is Rules.POPOUT else 'Classic'}"


@dataclass(frozen=True)
class MatchSettings:
    """Everything the menu decides.

    ``opponent`` names a kind in the registry (``human``, ``computer``, ``i32cfsp``…)
    and ``options`` holds its option values as text. ``seed`` makes the AI
    repeatable (tests, snapshots); ``ai_delay`` is how long the computer "thinks"
    at least, so its move can be seen. ``clock``: a game here played on the clock
    (None: untimed; a lobby's games have the lobby's clocks, ``terms``).
    """

    opponent: str = "human"
    options: dict[str, str] = field(default_factory=dict)
    columns: int = DEFAULT_COLUMNS
    rows: int = DEFAULT_ROWS
    rules: Rules = Rules.CLASSIC
    person_colour: Player = Player.RED
    seed: int | None = None
    ai_delay: float = 0.4
    clock: HomeClock | None = None

    @property
    def kind(self) -> type[Backend]:
        """The opponent's kind (raises KeyError for an unknown key)."""
        return opponent_kind(self.opponent)

    @property
    def terms(self) -> Terms:
        """Rated or casual, and the clock, as picked for the lobby's games (casual, none: unset)."""
        return lobby_terms(self.options)

    @property
    def lobby_colour(self) -> Colour:
        """The colour picked for the rooms you create and the challenges you send (red: unset)."""
        return lobby_colour(self.options)

    def fitted(self) -> MatchSettings:
        """These settings within what the opponent plays (a Kaggle agent: classic rules)."""
        columns, rows, rules = self.kind.game_for(self.options, self.columns, self.rows, self.rules)
        return replace(self, columns=columns, rows=rows, rules=rules)

    def new_game(self) -> GameState:
        """The empty board these settings describe."""
        return GameState.new(self.columns, self.rows, self.rules)

    def describe(self) -> str:
        """Two short lines for the screen: ``7 × 6 Pop Out`` / ``vs computer (Random)``."""
        game = describe_game(self.columns, self.rows, self.rules)
        return f"{game}\n{self.kind.describe(self.options)}"

    def seats(self, context: SeatContext) -> dict[Player, Backend]:
        """Who plays which colour: the person here on their colour, the opponent on the other."""
        kind = self.kind
        if kind.local_pair:  # the first player takes the chosen colour (a rematch swaps them)
            first = self.person_colour
            return {first: PersonBackend(FIRST_PLAYER), first.other: PersonBackend(SECOND_PLAYER)}
        colour = (
            self.person_colour
            if self.person_colour in kind.person_colours
            else kind.person_colours[0]
        )
        opponent = kind.create(kind.option_values(self.options), context)
        return {colour: PersonBackend("You"), colour.other: opponent}

    def driver(self, pool: SearchPool | None = None, history: Sequence[Move] = ()) -> MatchDriver:
        """A driver for these settings, its seats made through the registry.

        ``history`` continues a game from the position after those moves.
        """
        # The one place the driver loads (with the AI's process pool and multiprocessing):
        # the menu reads these settings long before a game starts.
        from c4tui.match.driver import MatchDriver  # noqa: PLC0415

        context = SeatContext(pool=pool, seed=self.seed, ai_delay=self.ai_delay)
        clock = None if self.kind.remote else self.clock
        return MatchDriver(
            self.new_game(), self.seats(context), history=history, pool=pool, clock=clock
        )


#: Builds the driver of a match (its settings, the moves already played): the front ends
#: take one, so tests can seat their own players.
DriverFactory: TypeAlias = "Callable[[MatchSettings, Sequence[Move]], MatchDriver]"


def prepare_opponent(settings: MatchSettings | None) -> None:
    """Let the opponent get ready for the game the menu shows (``Backend.prepare``).

    Perfect's solver loads while the person looks at the form. None (a field is wrong): nothing.
    """
    if settings is not None:
        settings.kind.prepare(settings.options, settings.fitted().new_game())
