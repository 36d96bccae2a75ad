"""A person met in a lobby's room: the seat the driver asks for their moves.

As a kind of opponent ("Online", in the menu: play people online) its options say where the
lobby is; the seats themselves are made once a room's game begins, one for the
opponent when we play, one for each player when we watch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from c4tui.engine import GameState, Move, Player
from c4tui.match.backends.base import Backend, Choice, Option
from c4tui.match.backends.network.base import login_name
from c4tui.match.backends.person import PersonBackend
from c4tui.net.address import DEFAULT_HOST, DEFAULT_PORT, parse_host, parse_port
from c4tui.net.errors import NetworkError

if TYPE_CHECKING:
    from c4tui.client.room_game import RoomGame

# The lobby protocol's codec loads when these are called, not when the menu lists "Online".


def parse_lobby_user(text: str) -> str:
    """A lobby username, or ValueError saying the rule."""
    from c4tui.protocols import lobby as wire  # noqa: PLC0415

    if not text:
        raise ValueError("required")
    if not wire.valid_user(text):
        raise ValueError(wire.USER_RULE)
    return text


def parse_password(text: str) -> str:
    """A lobby password, or ValueError saying the rule."""
    from c4tui.protocols import lobby as wire  # noqa: PLC0415

    if not text:
        raise ValueError("required")
    if not wire.valid_password(text):
        raise ValueError(wire.PASSWORD_RULE)
    return text


def _default_user() -> str:
    from c4tui.protocols import lobby as wire  # noqa: PLC0415

    return login_name(wire.valid_user)


#: The games a room server may host (the ``game`` option): the lobby's, or INFO1112's.
CONNECT_FOUR_LOBBY = "connect-four"
TICTACTOE_ROOMS = "tictactoe"


class RoomSeat(Backend):
    """A player of a lobby room seen from here: its moves arrive from the server.

    ``sends`` is the colour whose moves this seat forwards (ours, when we play):
    the driver tells every seat of every move, and ours must reach the server.
    As a kind of opponent ("Online" in the menu) its options say where the lobby is;
    the seats themselves are made once a room's game begins.
    """

    key = "online"
    title = "Online"  # "play people online": the menu's row must fit 80 columns
    noun = "player"
    summary = "Play people online, or watch them: Connect Four in a c4tui lobby, or tic-tac-toe."
    options = (
        Option(
            "game",
            "Game",
            CONNECT_FOUR_LOBBY,
            choices=(
                Choice(CONNECT_FOUR_LOBBY, "Connect Four", "the lobby of `c4tui serve`"),
                Choice(
                    TICTACTOE_ROOMS,
                    "Tic-tac-toe",
                    "INFO1112 rooms (`c4tui serve --tictactoe-port`, or an assignment's server)",
                ),
            ),
        ),
        Option("host", "Host", DEFAULT_HOST, parse=parse_host, max_length=255),
        Option("port", "Port", str(DEFAULT_PORT), parse=parse_port, max_length=5),
        Option(
            "user",
            "Username",
            _default_user,
            parse=parse_lobby_user,
            max_length=20,
        ),
    )
    person_colours: ClassVar[tuple[Player, ...]] = (Player.RED,)
    supports_undo: ClassVar[bool] = False
    remote: ClassVar[bool] = True
    lobby: ClassVar[bool] = True

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``ann vs bob (online)`` once a room's game is known, else ``people online``."""
        if values.get("red") and values.get("yellow"):
            return f"{values['red']} vs {values['yellow']} (online)"
        return "people online"

    def __init__(self, game: RoomGame, colour: Player, sends: Player | None = None) -> None:
        self.game = game
        self.label = game.names[colour]
        self._sends = sends

    async def choose_move(self, state: GameState) -> Move:
        """The move the server shows this player making."""
        from c4tui.match.driver import OpponentLeft  # noqa: PLC0415
        from c4tui.protocols.common import ProtocolError  # noqa: PLC0415

        try:
            return await self.game.next_move()
        except (NetworkError, ProtocolError) as error:
            if self.game.ended is not None and self.game.ended.status == 2:
                raise OpponentLeft(f"{self.label} forfeited or left") from error
            raise

    async def move_played(self, before: GameState, move: Move) -> None:
        """Forward our own moves to the server (and wait for its board)."""
        if before.turn is self._sends:
            await self.game.play(move)


def room_seats(game: RoomGame, mine: Player | None) -> dict[Player, Backend]:
    """Who sits where: you on your colour (if you play), the room's players elsewhere."""
    return {
        colour: PersonBackend(f"{game.names[colour]} (you)")
        if colour is mine
        else RoomSeat(game, colour, sends=mine)
        for colour in Player
    }
