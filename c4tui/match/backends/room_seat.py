"""The seats of a room's game: who the driver asks for each move when playing people online.

Made once a room's game begins (the lobby screen and ``console --lobby`` do it),
so the room client and the driver are loaded by then.
"""

from __future__ import annotations

from functools import partial

from c4tui.client.room_game import RoomGame
from c4tui.engine import GameState, Move, Player
from c4tui.match.backends.base import Backend
from c4tui.match.backends.online import RoomSeat
from c4tui.match.backends.person import PersonBackend
from c4tui.match.driver import MatchDriver, OpponentLeft
from c4tui.net.errors import NetworkError, ProtocolError


class RoomPlayer(RoomSeat):
    """A player of a room seen from here: their moves arrive from the server.

    ``sends`` is the colour whose moves this seat forwards (ours, when we play):
    the driver tells every seat of every move, and ours must reach the server.
    """

    def __init__(self, game: RoomGame, colour: Player, sends: Player | None = None) -> None:
        self.game = game
        self.label = game.names[colour]
        self._sends = sends

    async def choose_move(self, state: GameState) -> Move:
        """The move the server shows this player making."""
        try:
            return await self.game.next_move()
        except (NetworkError, ProtocolError) as error:
            if self.game.ended is not None and self.game.ended.status == 2:
                raise OpponentLeft(f"{self.label} forfeited or left") from error
            raise

    async def watch_while_waiting(self) -> None:
        """Raise NetworkError, saying why, once the server is gone while the person here thinks.

        Without it a lost server was noticed only at the next move tried.
        """
        raise NetworkError(await self.game.link.gone())

    async def move_played(self, before: GameState, move: Move) -> None:
        """Forward our own moves to the server (and wait for its board)."""
        if before.turn is self._sends:
            await self.game.play(move)


def follow_room(game: RoomGame, driver: MatchDriver) -> None:
    """``driver`` ends or goes back as the room's game does: a forfeit, a takeback (§5.6)…

    …a draw agreed or an abort (the board goes on, nobody wins).
    """
    game.on_forfeit = driver.resign
    game.on_taken_back = partial(driver.undo, agreed=True)
    game.on_called_off = driver.called_off


def room_seats(game: RoomGame, mine: Player | None) -> dict[Player, Backend]:
    """Who sits where: you on your colour (if you play), the room's players elsewhere."""
    return {
        colour: PersonBackend(f"{game.names[colour]} (you)")
        if colour is mine
        else RoomPlayer(game, colour, sends=mine)
        for colour in Player
    }
