"""People met in a room server's rooms, as a kind of opponent: "Online", in the menu.

Its options say where the server is and who you are (asked when logging in), and
the terms of the games you create or ask for (rated or casual, and the clock:
picked in the menu, ``lobby_terms``), and the colour you ask for in the rooms you
create and the challenges you send (``lobby_colour``); the seats themselves
(``room_seat``) are made once a room's game begins, one for the opponent when
we play, one for each player when we watch.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from c4tui.engine import Player
from c4tui.match.backends.base import Backend, Choice, Option
from c4tui.match.backends.network.base import login_name
from c4tui.net.address import DEFAULT_HOST, DEFAULT_PORT, parse_host, parse_port
from c4tui.net.tls import ClientTls
from c4tui.protocols.colours import Colour
from c4tui.protocols.names import PASSWORD_RULE, USER_RULE, valid_password, valid_user
from c4tui.protocols.terms import Terms, parse_clock


def parse_lobby_user(text: str) -> str:
    """A lobby username, or ValueError saying the rule."""
    if not text:
        raise ValueError("required")
    if not valid_user(text):
        raise ValueError(USER_RULE)
    return text


def parse_password(text: str) -> str:
    """A lobby password, or ValueError saying the rule."""
    if not text:
        raise ValueError("required")
    if not valid_password(text):
        raise ValueError(PASSWORD_RULE)
    return text


def _default_user() -> str:
    return login_name(valid_user)


#: The clocks the menu offers (§5.4 allows any <minutes>+<increment>; these are the usual).
CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10")
#: The clock option's value for a game without a clock.
NO_CLOCK = "none"
#: The colour asked for in the rooms you create and the challenges you send (§5.6).
COLOUR = Option(
    "colour",
    "Colour",
    Colour.RED.value,
    choices=tuple(Choice(colour.value, colour.value.capitalize()) for colour in Colour),
    in_menu=True,
)


def lobby_terms(values: Mapping[str, str]) -> Terms:
    """The terms the menu's choices ask for: rated or casual, and the clock (CASUAL if unset)."""
    clock = values.get("clock", NO_CLOCK)
    return Terms(
        rated=values.get("rated") == "yes",
        clock=None if clock == NO_CLOCK else parse_clock(clock),
    )


def lobby_colour(values: Mapping[str, str]) -> Colour:
    """The colour the menu's choice asks for in CREATE and CHALLENGE (red, the wire's, if unset).

    Quick play asks for none (random colours): the menu's colour is not for it.
    """
    chosen = values.get(COLOUR.key, Colour.RED.value)
    return next((colour for colour in Colour if colour.value == chosen), Colour.RED)


def parse_ca_file(text: str) -> str:
    """A CA certificate's file (empty: the system's trusted ones), or ValueError."""
    if text and not Path(text).expanduser().is_file():
        raise ValueError(f"no such file: {text}")
    return text


def client_tls(values: Mapping[str, str]) -> ClientTls | None:
    """Whether the login dialog's values ask for TLS, and whom to trust (None: plain TCP)."""
    if values.get("tls") != TLS_ON or values.get("game") == TICTACTOE_ROOMS:
        return None
    ca = values.get("tls_ca", "")
    return ClientTls(Path(ca).expanduser() if ca else None)


#: The games a room server may host (the ``game`` option): the lobby's, or INFO1112's.
CONNECT_FOUR_LOBBY = "connect-four"
TICTACTOE_ROOMS = "tictactoe"
#: The ``tls`` option's values: the lobby over TLS (``c4tui serve --tls-cert``), or not.
TLS_ON = "on"
TLS_OFF = "off"


#: Whether to connect over TLS (the lobby only: ``c4tui serve --tls-cert``), and whom to trust.
TLS = Option(
    "tls",
    "TLS",
    TLS_OFF,
    choices=(
        Choice(TLS_OFF, "Off", "plain TCP"),
        Choice(TLS_ON, "On", "the lobby's TLS port (`c4tui serve --tls-cert`)"),
    ),
)
TLS_CA = Option("tls_ca", "CA file", "", parse=parse_ca_file, max_length=255)


class RoomSeat(Backend):
    """A player of a room seen from here, as a kind of opponent: "Online" in the menu.

    Its options say where the lobby is; the seats themselves (``RoomPlayer``) are
    made once a room's game begins, not from options.
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
        Option(
            "rated",
            "Rated",
            "no",
            choices=(
                Choice("no", "No"),
                Choice("yes", "Yes"),
            ),
            in_menu=True,
        ),
        Option(
            "clock",
            "Clock",
            NO_CLOCK,
            choices=(
                Choice(NO_CLOCK, "None"),
                *(Choice(clock, clock) for clock in CLOCKS),
            ),
            in_menu=True,
        ),
        COLOUR,
        TLS,
        TLS_CA,
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
