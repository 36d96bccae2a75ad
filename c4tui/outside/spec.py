"""Reading a player's description: ``[NAME=]engine:CMD``, ``[NAME=]kaggle:FILE.py`` or a level.

A bare ``FILE.py`` that is there is a Kaggle agent too, so ``c4tui tournament class/*.py``
takes a folder of agents as the shell lists it. ``NAME=`` in front names the player
(``NAME_RULES``; a name that breaks them is refused saying which rule).
"""

from __future__ import annotations

import re
from pathlib import Path

from c4tui.match.pool import SearchPool
from c4tui.outside.chooser import Chooser, ChooserError
from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.kaggle import KaggleChooser
from c4tui.outside.levels import LEVEL_NAMES, LevelChooser
from c4tui.outside.program import DEFAULT_LIMITS, Limits

#: The longest ``NAME=``.
NAME_LIMIT = 32
#: What a ``NAME=`` may hold (a regular expression's class): it names the player's files.
NAME_CHARACTERS = "A-Za-z0-9_.-"
_NAME = re.compile(f"[{NAME_CHARACTERS}]+")
#: The rules of ``NAME=``, as errors and ``--help`` say them.
NAME_RULES = (
    f"a NAME is 1 to {NAME_LIMIT} of A-Z, a-z, 0-9, '_', '.' and '-' (it names the "
    "player's files), ended by the first '='"
)
#: How a Kaggle agent given bare (no ``kaggle:``) ends: ``class/*.py`` as the shell lists it.
BARE_AGENT_SUFFIXES = (".py", ".tar.gz")
_WANTS = {
    "engine": "the command that starts the program",
    "kaggle": "the agent (a .py file, a folder with main.py, or a .tar.gz)",
}
EXPECTED = (
    f"engine:COMMAND, kaggle:AGENT (a .py file, a folder with main.py or a .tar.gz) or a "
    f"level ({', '.join(LEVEL_NAMES)}), optionally NAME= first"
)


def chooser_for(
    spec: str,
    *,
    pool: SearchPool | None = None,
    seed: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Chooser:
    """The chooser ``spec`` describes (issue 30's PLAYER).

    ``pool`` and ``seed`` serve a level, ``limits`` an outside program. Raises
    ChooserError, saying what is expected, for anything else (and for a Kaggle file
    that is not there).
    """
    name, body = split_name(spec)
    kind, colon, rest = body.partition(":")
    if colon and kind in _WANTS and not rest.strip():
        raise ChooserError(f"{kind}: needs {_WANTS[kind]} after the colon")
    if kind == "engine" and colon:
        return EngineChooser(rest, name=name, limits=limits)
    if kind == "kaggle" and colon:
        return KaggleChooser(Path(rest), name=name, limits=limits, seed=seed)
    if body.lower() in LEVEL_NAMES:
        return LevelChooser(body.lower(), pool=pool, seed=seed, name=name)
    if body.endswith(BARE_AGENT_SUFFIXES):  # class/*.py: a folder's agents, as the shell lists them
        return KaggleChooser(Path(body), name=name, limits=limits, seed=seed)
    raise ChooserError(f"{spec!r} is not a player: give {EXPECTED}")


def split_name(spec: str) -> tuple[str | None, str]:
    """``spec``'s ``NAME=`` (None: none) and the player after it.

    Text before the first ``=`` is a name unless a ``:`` comes first, so
    ``engine:./deep --depth=8`` keeps its ``=``. Raises ChooserError saying which
    rule a name breaks (``a b=engine:x``: a space), rather than "not a player".
    """
    name, equals, body = spec.partition("=")
    if not equals or ":" in name:
        return None, spec
    if not name:
        problem = f"{spec!r} has no name before its '='"
    elif len(name) > NAME_LIMIT:
        problem = f"the name {name!r} is {len(name)} characters long, over {NAME_LIMIT}"
    elif not _NAME.fullmatch(name):
        wrong = _NAME.sub("", name)[0]
        problem = f"the name {name!r} has {'a space' if wrong.isspace() else repr(wrong)} in it"
    else:
        return name, body
    raise ChooserError(f"{problem}: {NAME_RULES}")
