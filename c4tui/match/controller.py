"""The match controller: the game's history, whose turn it is, undo, and the backends."""

from __future__ import annotations

from c4tui.engine import GameState, Move, Player
from c4tui.match.backends import AIBackend, Backend, HumanBackend
from c4tui.match.settings import MatchSettings, Mode, ai_level


def default_backends(settings: MatchSettings) -> dict[Player, Backend]:
    """The players these settings ask for: people at this keyboard and/or the AI."""
    if settings.mode is Mode.TWO_PLAYERS:
        return {Player.RED: HumanBackend("Red"), Player.YELLOW: HumanBackend("Yellow")}
    if settings.mode is Mode.NETWORK:
        raise ValueError("a network match needs its connected backend (see the connect dialog)")
    level = ai_level(settings.ai_level)
    computer = AIBackend(level.make(settings.seed), f"Computer ({level.name})", settings.ai_delay)
    human = settings.human_colour
    return {human: HumanBackend("You"), human.other: computer}


class MatchController:
    """Plays moves through the engine and remembers every position for undo.

    It knows nothing of screens: the UI asks it whose turn it is, which backend
    to await, and tells it which move was played.
    """

    def __init__(self, settings: MatchSettings, backends: dict[Player, Backend]) -> None:
        self.settings = settings
        self.backends = backends
        self._states: list[GameState] = [settings.new_game()]
        self._moves: list[Move] = []

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far, in order."""
        return tuple(self._moves)

    @property
    def last_move(self) -> Move | None:
        """The most recent move, if any."""
        return self._moves[-1] if self._moves else None

    def backend_to_move(self) -> Backend:
        """The backend whose turn it is."""
        return self.backends[self.state.turn]

    def is_interactive_turn(self) -> bool:
        """True when a person at this UI is to move (and the game is on)."""
        return not self.state.is_over and self.backend_to_move().interactive

    def play(self, move: Move) -> GameState:
        """Play ``move`` for the side to move. Raises IllegalMoveError (state unchanged)."""
        after = self.state.play(move)
        self._states.append(after)
        self._moves.append(move)
        return after

    def can_undo(self) -> bool:
        """True when ``undo`` would take back a move of a person here (and nobody objects)."""
        if not all(backend.supports_undo for backend in self.backends.values()):
            return False
        return any(self.backends[state.turn].interactive for state in self._states[:-1])

    def undo(self) -> bool:
        """Take back moves until a person here is to move again, one of their moves undone.

        Two players: one move. Against the computer: the computer's reply and your move.
        Returns False (changing nothing) when there is nothing to undo.
        """
        if not self.can_undo():
            return False
        while True:
            self._states.pop()
            self._moves.pop()
            if self.backends[self.state.turn].interactive:
                return True

    def restart(self) -> None:
        """A new game with the same settings and players."""
        self._states = [self.settings.new_game()]
        self._moves = []

    async def close(self) -> None:
        """Close every backend."""
        for backend in self.backends.values():
            await backend.close()
