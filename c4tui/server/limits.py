"""The server's defaults, which ``c4tui serve --help`` shows without loading the server."""

#: Clients served at once.
DEFAULT_MAX_CONNECTIONS = 1000
#: Clients served at once from one address (IPv6: one /64).
DEFAULT_MAX_PER_ADDRESS = 50
#: bcrypt's cost: 2**12 rounds, about a quarter of a second per hash here.
DEFAULT_ROUNDS = 12
#: Seconds a lobby player whose connection dropped mid-game has to come back.
DEFAULT_RECONNECT_GRACE = 60
