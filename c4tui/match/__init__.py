"""The adapter between a game and whoever plays it: the match driver, its events and seats.

Pure Python (asyncio, but no Textual here): every front end — the app, the
console, the server — plays through ``MatchDriver`` (``match.driver``), and every
kind of player — a person here, the AI, a network server — is a Backend found in
one registry (``match.backends``). Import each name from its module: the menu
reads the registry and the settings without loading the driver.
"""
