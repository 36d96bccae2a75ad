"""Reading a player's description: ``[NAME=]engine:CMD``, ``[NAME=]kaggle:FILE.py`` or a level.

A bare ``FILE.py`` that is there is a Kaggle agent too, so ``c4tui tournament class/*.py``
takes a folder of agents as the shell lists it.
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

#: ``NAME=`` before a player: a word, so ``engine:X=1 prog`` keeps its ``=``.
_NAMED = re.compile(r"([A-Za-z0-9_.-]{1,32})=(.*)", re.DOTALL)
_WANTS = {"engine": "the command that starts the program", "kaggle": "the agent's .py file"}
EXPECTED = (
    f"engine:COMMAND, kaggle:FILE.py or a level ({', '.join(LEVEL_NAMES)}), optionally NAME= first"
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
    named = _NAMED.fullmatch(spec)
    name, body = (named[1], named[2]) if named else (None, spec)
    kind, colon, rest = body.partition(":")
    if colon and kind in _WANTS and not rest.strip():
        raise ChooserError(f"{kind}: needs {_WANTS[kind]} after the colon")
    if kind == "engine" and colon:
        return EngineChooser(rest, name=name, limits=limits)
    if kind == "kaggle" and colon:
        return KaggleChooser(Path(rest), name=name, limits=limits, seed=seed)
    if body.lower() in LEVEL_NAMES:
        return LevelChooser(body.lower(), pool=pool, seed=seed, name=name)
    if body.endswith((".py", ".tar.gz")):  # class/*.py: a folder's agents, as the shell lists them
        return KaggleChooser(Path(body), name=name, limits=limits, seed=seed)
    raise ChooserError(f"{spec!r} is not a player: give {EXPECTED}")
