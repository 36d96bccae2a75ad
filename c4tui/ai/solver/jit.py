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
    """Compile ``function`` to machine code (cached on disk, releasing the GIL) if we can.

    Without Numba's reference counting (``_nrt=False``): the solver's functions
    make no arrays, and counting the ones they are handed cost every call.
    """
    if _njit is None:
        return function
    return cast(F, _njit(cache=True, nogil=True, _nrt=False)(function))


def inlined(function: F) -> F:
    """Compile ``function`` like ``compiled``, and copy its body into every compiled caller.

    A call between compiled functions passes each array as seven words on the
    stack (the solver's per-node helpers take ten arrays): copying the body in
    made the search twice as fast.
    """
    if _njit is None:
        return function
    return cast(F, _njit(cache=True, nogil=True, _nrt=False, inline="always")(function))


def _popcount() -> Callable[[int], int]:
    """Set bits counted by one processor instruction (LLVM's ctpop) when compiled.

    Numba has no ``int.bit_count``; the intrinsic makes the move ordering's
    count of threats one instruction instead of a loop per bit.
    """
    if _njit is None:
        return int.bit_count
    from numba import types  # noqa: PLC0415 (optional, as above)
    from numba.extending import intrinsic  # noqa: PLC0415

    @intrinsic
    def ctpop(typing_context: Any, value: Any) -> Any:
        if not isinstance(value, types.Integer):
            return None

        def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
            return builder.ctpop(arguments[0])

        return value(value), generate

    return cast(Callable[[int], int], ctpop)


#: How many bits of a non-negative integer are set.
popcount = _popcount()
