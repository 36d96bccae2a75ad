"""The server process's own settings: its event loop, its garbage collector, its file limit.

What ``c4tui serve`` sets once before it serves (and the benchmarks and tests that
run the server the same way), apart from the server itself.
"""

from __future__ import annotations

import asyncio
import gc
import sys

if sys.platform != "win32":  # the open-file limit is POSIX's
    import resource

try:  # optional: the server runs on asyncio's own loop without it (and on Windows)
    import uvloop

    HAVE_UVLOOP = True
except ImportError:
    HAVE_UVLOOP = False


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The server's event loop: uvloop's where it is installed, asyncio's otherwise.

    Sockets, transports and callbacks were half of the server's time on asyncio's
    loop; on uvloop's (libuv, compiled) the 1,000-game budget run went from 180 to
    153 µs of processor time per move and its round-trip p99 from 95 to 13 ms
    (``python bench/server_load.py --budget``). The server needs nothing that only
    asyncio's loop has, and the tests run it on the loop it gets here.
    """
    if not HAVE_UVLOOP:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


#: Allocations between young-generation collections (Python's default is 700).
GC_YOUNG_THRESHOLD = 10_000


def tune_garbage_collector() -> None:
    """Collect less often: every move allocates events, states and futures that die young.

    Under load the default thresholds ran a young collection every few milliseconds
    and a full one every few seconds, together about 6 % of the server's time and the
    longest pauses its clients saw. The modules and tables loaded so far live as long
    as the server, so they are frozen out of every collection.
    """
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def raise_open_file_limit() -> None:
    """Allow as many sockets as the system lets this process have (one per client)."""
    if sys.platform == "win32":
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass
