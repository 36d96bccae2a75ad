"""Outside move-choosers: programs that take a seat, each in its own process with limits.

A ``Chooser`` (``chooser.py``) answers a move for a position within a time limit:
``LevelChooser`` (c4tui's own levels, in the search pool's processes),
``EngineChooser`` (any program speaking the engine protocol, spec §6, its codec in
``c4tui.protocols.engine``) and ``KaggleChooser`` (a ConnectX agent file, run by
``kaggle_runner.py`` in a Python process of its own). ``chooser_for`` reads
``engine:CMD``, ``kaggle:FILE.py`` or a level's name, optionally ``NAME=`` first.

The engine protocol, in short (one line each way, ASCII; lines that are not the
awaited answer, such as ``info depth 12``, are ignored)::

    c4e                                  -> id name <name>, id author <text> (optional), c4eok
    newgame <cols> <rows> <classic|popout>
    position <moves>                     the game so far: d4 drops in column 4, p3 pops
    go movetime <ms>                     -> bestmove d4
    isready                              -> readyok
    quit                                 the engine exits

A crash, a hang, garbage, an illegal move or an answer after the time limit (and
``chooser.TIME_MARGIN``) raises ``OutsideFailure`` with its kind; the process group
is killed (as when a ``choose`` is cancelled), the next ``choose`` starts the program
afresh, and the caller counts the game lost.

Each program runs in a sandbox (``sandbox.py``: bubblewrap, new user, PID, IPC, UTS,
cgroup and network namespaces; it sees the system's runtime and c4tui's Python
read-only, its own files read-only at ``/program`` or ``/kaggle_simulations/agent``,
a private ``/tmp``, a fresh environment; it ends with c4tui even on ``kill -9``) and
within bounds for the whole program (``confinement.py``; ``limits_runner.py`` joins
its cgroups before bubblewrap starts; ``program.Limits`` says which): 2 GB for all
its processes together, 256 processes and threads, one CPU core, where cgroups can
be made (else RLIMIT_AS and RLIMIT_NPROC); 15 s to start; its standard output read
all the time into bounded lines and its standard error drained to
``Limits.stderr_log`` (1 MB at most) or, without one, only its last lines kept (their
control characters made visible) to say why it crashed: never the screen.

``speaker.py`` is the other side: ``c4tui engine``, c4tui's levels answering the
protocol. Not pure (it runs processes), so the package sits beside ``match`` above
the core, and never imports the UI.
"""
