"""``c4tui web``: the app in a browser, one process per visitor, safe to expose.

Needs the ``web`` extra (``textual-serve``); nothing else in c4tui imports this package.
"""
