"""A worker process that ends with its parent: no orphan, even after a kill -9 of the app.

A parent that ends cleanly shuts its pool down; one killed outright cannot, and a
worker (the solver: hundreds of MB) would live on under PID 1 for good. Each of the
search pool's workers watches its parent from a thread of its own and ends once the
parent is gone. Then multiprocessing's resource tracker ends too: it stops when the
last holder of its pipe (the parent, then each worker) has closed it.

The kernel's ``PR_SET_PDEATHSIG`` is not used: it fires when the *thread* that started
the worker ends, and the executor may start one from any thread that submits work.
"""

from __future__ import annotations

import os
import threading
import time

#: How often a worker looks whether the process that started it is still there (seconds).
PARENT_CHECK_SECONDS = 0.5


def end_with(parent: int) -> None:
    """From now on, end this process once ``parent`` (its parent's pid) is gone."""
    watch = threading.Thread(target=_watch, args=(parent,), name="c4tui-parent-watch")
    watch.daemon = True
    watch.start()


def _watch(parent: int) -> None:
    """Wait for the parent to go (its child is then someone else's: ``getppid`` changes)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)  # a worker has nothing to flush, and its parent is not there to hear
