"""Compile the solver's inner loops with Numba when it is there; run them as Python otherwise.

The solver's hot functions are written in the subset of Python that Numba
compiles (integers, small arrays, plain loops), so one source serves both paths:
compiled, it searches millions of positions a second; as plain Python (no Numba
on this platform, or ``C4TUI_PURE_PYTHON=1`` to check the fallback) it gives the
same answers a hundred times more slowly.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

#: Set to 1 to run the solver as plain Python even when Numba is installed.
PURE_PYTHON_VARIABLE = "C4TUI_PURE_PYTHON"


def _numba_njit() -> Callable[..., Any] | None:
    """Numba's compiler, or None when it is missing or switched off."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        import numba  # noqa: PLC0415 (optional: the solver works without it)
    except ImportError:
        return None
    return cast(Callable[..., Any], numba.njit)


_njit = _numba_njit()

#: True when the solver runs compiled.
COMPILED: bool = _njit is not None


def compiled(function: F) -> F:
    """Compile ``function`` to machine code (cached on disk, releasing the GIL) if we can."""
    if _njit is None:
        return function
    return cast(F, _njit(cache=True, nogil=True)(function))
