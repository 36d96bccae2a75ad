"""Keys delivered the way the terminal driver delivers them, without Pilot's waiting."""

from __future__ import annotations

from textual import events
from textual.app import App

CHARACTERS = {
    "space": " ",
    "enter": "\r",
    "tab": "\t",
    "escape": "\x1b",
    "backspace": "\x7f",
    "question_mark": "?",
}


def send_key(app: App[None], key: str) -> None:
    """Deliver a key as the terminal driver does, without Pilot's wait for idleness.

    Pilot waits ~50 ms after each key; thousands of keys would take minutes. Keys
    sent this way queue up as a fast typist's would, and go through the same path.
    """
    character = CHARACTERS.get(key, key if len(key) == 1 else None)
    event = events.Key(key, character)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
