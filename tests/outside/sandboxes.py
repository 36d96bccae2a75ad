"""The sandbox the outside programs run in, for the tests that need it for real.

c4tui runs every outside program under bubblewrap (``C4TUI_BWRAP`` names it, else
``bwrap`` on PATH). A test that needs it calls ``needs_bubblewrap()``: without it
the test skips saying what to install, except on CI (``CI`` set), where it fails, as
tests/dbservers.py does for PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import shutil

from tests.dbservers import missing


def needs_bubblewrap() -> str:
    """The bwrap program c4tui will run; skips (fails on CI) when it is not installed."""
    found = shutil.which(os.environ.get("C4TUI_BWRAP", "bwrap"))
    if found is None:
        missing("bubblewrap", "bubblewrap")
    return found
