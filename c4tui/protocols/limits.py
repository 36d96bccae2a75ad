"""The protocols' numbers that forms and the command line show before any protocol loads.

Plain constants with no imports: ``c4tui --help``, the menu and the connect dialog
read them here, and the protocol modules that enforce them take them from here.
"""

#: A peer silent for this long is disconnected (seconds; every protocol).
DEFAULT_IDLE_TIMEOUT = 600.0
#: The longest I32CFSP username.
MAX_USERNAME = 32
#: The most rooms a lobby holds at once (the lobby protocol's room numbers).
MAX_ROOMS = 256
