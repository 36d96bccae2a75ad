"""Packages whose names load on first use (PEP 562), so a start loads only what it needs."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: each name in ``homes`` loads from its module.

    ``homes`` maps each name to the module it lives in. The package imports the same
    names under ``TYPE_CHECKING``, so type checkers see them as usual.
    """

    def load(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(importlib.import_module(package), name, value)  # later uses skip this
        return value

    return load
