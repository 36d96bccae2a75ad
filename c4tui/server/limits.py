"""The server's defaults, which ``c4tui serve --help`` shows without loading the server."""

import os

#: Clients served at once.
DEFAULT_MAX_CONNECTIONS = 1000
#: Processes of an outside program as the AI (``serve --ai engine:…``) running at once.
DEFAULT_MAX_PROGRAMS = 2 * (os.cpu_count() or 1)
#: Clients served at once from one address (IPv6: one /64).
DEFAULT_MAX_PER_ADDRESS = 50
#: bcrypt's cost: 2**12 rounds, about a quarter of a second per hash here.
DEFAULT_ROUNDS = 12
#: Seconds a lobby player whose connection dropped mid-game has to come back.
DEFAULT_RECONNECT_GRACE = 60
