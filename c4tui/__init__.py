"""c4tui: Connect Four for the terminal — rules engine, AI, front ends and server."""

__version__ = "0.1.0"
