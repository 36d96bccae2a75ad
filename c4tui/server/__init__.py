"""``c4tui serve``: one asyncio TCP server for every protocol, told apart by its first bytes.

``core`` is the server (``C4Server``, ``ServerConfig``); ``limits`` holds the
defaults that ``c4tui --help`` shows without loading it.
"""
