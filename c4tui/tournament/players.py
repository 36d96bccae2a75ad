"""The players as given on the command line: their names, told apart, and whether they can play.

A player's name is its ``NAME=`` when given, else what its chooser calls itself
(a level's name, an engine's script, an agent file's stem). Names that come out
the same are told apart with ``-2``, ``-3``… in the order given (``random random``
plays ``random`` against ``random-2``), unless two players were given the same
``NAME=`` on purpose: that is refused, since the table could not tell them apart.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from c4tui.engine import Rules
from c4tui.outside.chooser import ChooserError
from c4tui.outside.spec import NAME_CHARACTERS, NAME_LIMIT, chooser_for

#: What may not stand in a name (what a NAME= may not hold; unsafe in a file's name).
_UNSAFE = re.compile(f"[^{NAME_CHARACTERS}]")


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
    found: list[tuple[Entrant, bool]] = []  # and whether it was named (NAME=)
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
        found.append((Entrant(_safe(chooser.name), body), named))
    return _told_apart(_by_folder(found))


def _safe(name: str) -> str:
    """``name`` as a player's name: the characters a NAME= takes, at most as many."""
    return _UNSAFE.sub("_", name)[:NAME_LIMIT] or "player"


def _by_folder(found: Sequence[tuple[Entrant, bool]]) -> list[Entrant]:
    """Agents of the same file name named after their folders: a class's submissions.

    ``ann/submission.py`` and ``bob/submission.py`` are ``ann`` and ``bob``, not
    ``submission`` and ``submission-2``; a name given (``NAME=``) stays.
    """
    stems = Counter(entrant.name for entrant, named in found if not named)
    return [
        Entrant(_safe(folder), entrant.body)
        if not named and stems[entrant.name] > 1 and (folder := _agent_folder(entrant.body))
        else entrant
        for entrant, named in found
    ]


def _agent_folder(body: str) -> str:
    """The name of the folder of a Kaggle agent's file (``""`` for any other player)."""
    path = body.removeprefix("kaggle:")
    return Path(path).resolve().parent.name if path.endswith(".py") else ""


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
