"""Who sits where when a game begins, and which waiting room quick play picks (§5.6).

A room's creator may ask for red, yellow or random; the second player to sit
down takes the other seat. Random is decided only when the game begins, with
the coin the rooms were given (tests pass a seeded one), so a waiting room shows
its seats as they are. Quick play gives random colours unless a seeker asks for
one, and prefers a waiting person to a bot. Nobody sits down across a block
(§7, ``blocks``): a waiting room is not offered to one its creator blocks, or
who blocks its creator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

from c4tui.lobby.blocks import Blocks
from c4tui.lobby.room import Member, Room
from c4tui.protocols.colours import Colour
from c4tui.protocols.terms import Terms

S = TypeVar("S")
M = TypeVar("M")


def creator_plays_red(creator: Colour, joiner: Colour, coin: random.Random) -> bool:
    """Whether the room's creator takes red: its own choice, else the joiner's, else the coin."""
    if creator is not Colour.RANDOM:
        return creator is Colour.RED
    if joiner is not Colour.RANDOM:
        return joiner is Colour.YELLOW
    return coin.random() < 0.5


def open_to(rooms: Iterable[Room[S, M]], seeker: Member | None, blocks: Blocks) -> list[Room[S, M]]:
    """The waiting rooms ``seeker`` may sit down in (None: anyone): none across a block (§7)."""
    return [
        room
        for room in rooms
        if not room.playing
        and (seeker is None or not blocks.between(room.waiter.name, seeker.name))
    ]


def quick_pick(
    rooms: Iterable[Room[S, M]],
    seeker: Member,
    wish: Colour,
    settings: S,
    terms: Terms,
    *,
    blocks: Blocks,
) -> Room[S, M] | None:
    """The waiting room quick play seats ``seeker`` in (None: it opens one).

    Only identical settings and terms, colours that fit, and no block between the two
    (§7); the oldest room of a person first, then the bots' (a person waiting is not
    left for a bot to take its seeker). No rated bot-vs-bot: a bot's rated quick play
    skips bots' rooms (§5.5).
    """
    waiting = [
        room
        for room in open_to(rooms, seeker, blocks)
        if (room.game, room.terms) == (settings, terms)
        and room.colour.fits(wish)
        and not (terms.rated and seeker.bot and room.waiter.bot)
    ]
    return min(waiting, key=lambda room: (room.waiter.bot, room.number), default=None)
