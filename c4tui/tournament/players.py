"""The players as given on the command line: their names, told apart, and whether they can play.

A player's name is its ``NAME=`` when given, else what its chooser calls itself
(a level's name, an engine's script, an agent file's stem). Names that come out
the same are told apart with ``-2``, ``-3``… in the order given (``random random``
plays ``random`` against ``random-2``), unless two players were given the same
``NAME=`` on purpose: that is refused, since the table could not tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import Rules
from c4tui.outside.chooser import ChooserError
from c4tui.outside.spec import chooser_for

#: What may stand in a name (chooser_for's NAME=; also safe in a file's name).
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


@dataclass(frozen=True)
class Entrant:
    """A player: its name in the tournament and its description without the name."""

    name: str
    body: str

    @property
    def spec(self) -> str:
        """The description ``chooser_for`` reads, with this name."""
        return f"{self.name}={self.body}"


def entrants(specs: Sequence[str], columns: int, rows: int, rules: Rules) -> list[Entrant]:
    """The players ``specs`` describe, named apart, each able to play such games.

    Raises ChooserError, in words, for a player that is not one (an unknown level,
    a Kaggle file that is not there), one that cannot play these games (a Kaggle
    agent and Pop Out), and the same NAME= given twice.
    """
    found: list[Entrant] = []
    given: set[str] = set()
    for spec in specs:
        chooser = chooser_for(spec)  # nothing starts yet: a program starts with its first move
        refusal = chooser.refusal(columns, rows, rules)
        if refusal is not None:
            raise ChooserError(f"{chooser.name} cannot play in this tournament: {refusal}")
        named = spec.startswith(chooser.name + "=")
        if named and chooser.name in given:
            raise ChooserError(f"two players are called {chooser.name!r}: give each its own NAME=")
        if named:
            given.add(chooser.name)
        body = spec[len(chooser.name) + 1 :] if named else spec
        found.append(Entrant(_UNSAFE.sub("_", chooser.name)[:32] or "player", body))
    return _told_apart(found)


def _told_apart(found: Sequence[Entrant]) -> list[Entrant]:
    """The same players, a name already taken getting the first free ``-2``, ``-3``…"""
    taken: set[str] = set()
    apart: list[Entrant] = []
    for entrant in found:
        name, count = entrant.name, 1
        while name in taken:
            count += 1
            name = f"{entrant.name[:29]}-{count}"
        taken.add(name)
        apart.append(Entrant(name, entrant.body))
    return apart
