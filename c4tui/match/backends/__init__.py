"""Every kind of player, and the one registry of opponents the front ends read.

To add a kind of opponent: write its Backend subclass in a module here (its key,
title, options and ``create``) and list it in ``OPPONENTS`` below.
"""

from __future__ import annotations

from c4tui.match.backends.base import Backend, Choice, Option, SeatContext, Spectator, Watcher
from c4tui.match.backends.computer import ComputerBackend
from c4tui.match.backends.network import NetworkBackend
from c4tui.match.backends.online import RoomSeat
from c4tui.match.backends.person import PersonBackend
from c4tui.match.backends.program import ProgramBackend

#: The opponents a person can choose, in the menu's order.
OPPONENTS: dict[str, type[Backend]] = {
    kind.key: kind
    for kind in (PersonBackend, ComputerBackend, ProgramBackend, NetworkBackend, RoomSeat)
}
#: The same kinds as a tuple, in the menu's order. A kind with a ``menu_parent`` is not a
#: mode of its own: its parent's row offers it last ("Program…" among the levels).
KINDS: tuple[type[Backend], ...] = tuple(OPPONENTS.values())


def offers_colour(kind: type[Backend]) -> bool:
    """Whether the menu's "You play" row is for ``kind``: one person, either colour."""
    return len(kind.person_colours) > 1 and not kind.local_pair


def picked_in_menu(kind: type[Backend]) -> bool:
    """True for kinds whose options are all picked from lists (no connect dialog needed)."""
    return all(option.choices for option in kind.options)


def menu_choices(kind: type[Backend]) -> tuple[Option, ...]:
    """The options the menu offers for ``kind``.

    All of them for a kind picked in the menu; else those marked ``in_menu`` (the
    rest are asked in a dialog).
    """
    return tuple(
        option
        for option in kind.options
        if option.choices and (option.in_menu or picked_in_menu(kind))
    )


def menu_modes(kinds: tuple[type[Backend], ...]) -> tuple[type[Backend], ...]:
    """The kinds of ``kinds`` that are the menu's modes (not offered within another's row)."""
    return tuple(kind for kind in kinds if not kind.menu_parent)


def offered_within(
    parent: type[Backend], kinds: tuple[type[Backend], ...]
) -> tuple[type[Backend], ...]:
    """The kinds of ``kinds`` that ``parent``'s first row offers after its own choices."""
    return tuple(kind for kind in kinds if kind.menu_parent == parent.key)


def opponent_kind(key: str) -> type[Backend]:
    """The registered kind called ``key``. Raises KeyError (naming the known ones)."""
    try:
        return OPPONENTS[key]
    except KeyError:
        raise KeyError(f"no opponent {key!r}; known: {', '.join(OPPONENTS)}") from None


__all__ = [
    "KINDS",
    "OPPONENTS",
    "Backend",
    "Choice",
    "ComputerBackend",
    "NetworkBackend",
    "Option",
    "PersonBackend",
    "ProgramBackend",
    "RoomSeat",
    "SeatContext",
    "Spectator",
    "Watcher",
    "menu_choices",
    "menu_modes",
    "offered_within",
    "offers_colour",
    "opponent_kind",
    "picked_in_menu",
]
