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

Each program is confined (``confinement.py``; ``limits_runner.py`` sets the limits
in the child before the program runs; ``program.Limits`` says which): 2 GB of
address space (``RLIMIT_AS``) for each of its processes; at most 128 processes and
threads, through a pids cgroup of its own where one can be made (cgroup v1 or v2;
what is left in it is killed after the program, even what left its process group)
or ``RLIMIT_NPROC`` for a user who is not root (the user's processes plus 128), and
nothing but the time limit and killing its process group for root without a cgroup
(logged once); a fresh temporary folder as its working folder, removed after it;
no file descriptor but its three streams; 15 s to start; its standard error
drained to ``Limits.stderr_log`` (1 MB at most) or, without one, only its last
lines kept to say why it crashed: never the screen.

``speaker.py`` is the other side: ``c4tui engine``, c4tui's levels answering the
protocol. Not pure (it runs processes), so the package sits beside ``match`` above
the core, and never imports the UI.
"""
