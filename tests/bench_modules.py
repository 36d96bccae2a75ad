"""Scripts of ``bench/`` imported from their files, for tests of their parts (no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).parents[1] / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py``, imported (once) as ``bench_<name>``."""
    module_name = f"bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
