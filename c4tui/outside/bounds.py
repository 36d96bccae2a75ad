"""What an outside program may use as a whole: the bounds and their defaults (no I/O, loads fast).

The command line's options read the defaults from here (``cli/confine.py``) without
loading the machinery that enforces them (``confinement.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Megabytes a program may hold, all its processes together, unless told.
DEFAULT_MEMORY_MB = 2048
#: Processes and threads a program may have at once unless told (NumPy's and a JVM's included).
DEFAULT_PROCESSES = 256
#: CPU a program may use at once, in cores.
CPU_CORES = 1
#: Seconds a program has to start and say it is ready (load its tables, import NumPy), and
#: an engine to begin each game, unless told (``--start-seconds``).
START_SECONDS = 15.0


@dataclass(frozen=True)
class Bounds:
    """What a program may use as a whole: megabytes (None: no bound), processes and threads."""

    memory_mb: int | None = DEFAULT_MEMORY_MB
    processes: int = DEFAULT_PROCESSES


#: Seconds a Kaggle agent may go past its moves' times in a whole game, as on Kaggle.
KAGGLE_OVERAGE_SECONDS = 60.0
