"""Compile the solver's inner loops with Numba when it is there; run them as Python otherwise.

The solver's hot functions are written in the subset of Python that Numba
compiles (integers, small arrays, plain loops), so one source serves both paths:
compiled, it searches millions of positions a second; as plain Python (no Numba
on this platform, or ``C4TUI_PURE_PYTHON=1`` to check the fallback) it gives the
same answers a hundred times more slowly.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import platformdirs

from c4tui.ai.exact_boards import search_compiled

F = TypeVar("F", bound=Callable[..., Any])


class IntArray(Protocol):
    """A NumPy array of integers (compiled) or a list (plain Python)."""

    def __getitem__(self, index: int) -> int: ...
    def __setitem__(self, index: int, value: int) -> None: ...
    def __len__(self) -> int: ...


#: The files whose code and constants Numba compiles into the search.
COMPILED_SOURCES = ("core.py", "table.py", "jit.py")


def cache_folder(here: Path = Path(__file__).parent) -> Path:
    """Where Numba keeps the compiled search: a folder for this very version of its sources.

    Before reusing compiled code Numba looks only at the file a function is
    written in, but the search copies in ``table.py``'s helpers, reads constants
    of both files and uses the intrinsic here: a change to one of those alone
    would leave it running the old code. A folder named by the hash of all three
    is never stale. It is beside them when they are writable (one for every user
    of this install), else in the user's cache.
    """
    digest = hashlib.sha256(b"".join((here / name).read_bytes() for name in COMPILED_SOURCES))
    name = f"numba-{digest.hexdigest()[:16]}"
    if os.access(here, os.W_OK):
        return here / "__pycache__" / name
    return Path(platformdirs.user_cache_dir("c4tui")) / name


def _numba_njit() -> Callable[..., Any] | None:
    """Numba's compiler, or None when it is missing or switched off."""
    if not search_compiled():
        return None
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_folder()))  # read when Numba loads
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
