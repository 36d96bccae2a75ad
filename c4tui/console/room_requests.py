"""``rooms``, and what ``create`` and ``quick`` typed at ``lobby>`` ask for: a name, board, terms.

``create NAME [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]`` and
``quick [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]``: every part after
the name may be left out (the app menu's default board; casual; no clock; red for a
room, random for quick play, as the wire's defaults, §5.6). Read from the end, so a
room's name may hold spaces; a name cannot hold ``+``, so a clock is never a name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from c4tui.client.link import LobbyLink
from c4tui.client.words import your_colour
from c4tui.console.lobby_help import DEFAULT_GAME
from c4tui.protocols.colours import Colour, split_colour
from c4tui.protocols.terms import CASUAL, Game, Terms, parse_clock, parse_game

#: What follows a name in ``create``, ``quick`` and ``challenge``, as their usage lines say it.
SETTINGS_USAGE = "[COLS ROWS classic|popout] [rated|casual] [M+I, e.g. 3+2] [red|yellow|random]"
CREATE_USAGE = f"Usage: create NAME {SETTINGS_USAGE}"
QUICK_USAGE = f"Usage: quick {SETTINGS_USAGE}"
_KINDS = ("rated", "casual")


@dataclass(frozen=True)
class RoomRequest:
    """A room to create or to be paired in: its name ("" for quick play), board, terms, colour."""

    name: str
    game: Game
    terms: Terms = CASUAL
    colour: Colour = Colour.RED

    @property
    def described(self) -> str:
        """`` (rated 3+2, you play yellow)``: the terms (unless casual, no clock), the colour."""
        terms = [] if self.terms == CASUAL else [self.terms.words]
        return f" ({', '.join([*terms, your_colour(self.colour)])})"


def parse_room_request(text: str, *, named: bool, colour: Colour) -> RoomRequest | None:
    """``[NAME] [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]``; None if wrong.

    ``named``: a name comes first (``create``), so a board is read only after one
    (``create 7 6 classic`` is a room called that). A clock out of bounds (``0+5``,
    ``90+0``) is wrong, not part of a name. ``colour``: the one asked for when none is typed.
    """
    fields, colour = split_colour(text.split(), colour)
    clock = None
    if fields and "+" in fields[-1]:
        clock = parse_clock(fields.pop())
        if clock is None:
            return None
    rated = False
    if fields and fields[-1] in _KINDS:
        rated = fields.pop() == "rated"
    game = DEFAULT_GAME
    if len(fields) >= 3 + named and (board := parse_game(fields[-3:])) is not None:
        game = board
        del fields[-3:]
    return RoomRequest(" ".join(fields), game, Terms(rated, clock), colour)


def parse_create(text: str) -> RoomRequest | None:
    """``create``'s words: a name is needed (None without one, or with a wrong part); red."""
    request = parse_room_request(text, named=True, colour=Colour.RED)
    return request if request is not None and request.name else None


def parse_quick(text: str, colour: Colour = Colour.RANDOM) -> RoomRequest | None:
    """``quick``'s words: no name (None with one, or with a wrong part); random colours.

    ``challenge`` reads its settings so too, red unless another ``colour`` is typed.
    """
    request = parse_room_request(text, named=False, colour=colour)
    return request if request is not None and not request.name else None


async def list_rooms(link: LobbyLink, say: Callable[[str], None]) -> None:
    """``rooms``: every room with its board, terms (when not casual), players and state."""
    rooms = await link.rooms()
    if not rooms:
        say("No rooms yet: create one, or quick to wait for an opponent.")
    for room in rooms:
        columns, rows, rules = room.game
        terms = "" if room.terms == CASUAL else f" {room.terms.words}"  # rated, timed
        say(
            f"{room.name}: {columns} × {rows} {rules.value}{terms}, {room.players}, "
            f"{room.viewers} watching ({room.state})"
        )
