"""The one-line chat box of the lobby and of online games: hidden until asked for."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.message import Message
from textual.widgets import Input

from c4tui.protocols import lobby as wire


class ChatInput(Input):
    """Shows when ``open`` is called; Enter says the line (if the protocol allows it) and hides."""

    @dataclass
    class Said(Message):
        """A line to send to the room."""

        text: str

    def __init__(self, placeholder: str, id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id, max_length=wire.MAX_CHAT)

    def on_mount(self) -> None:
        """Hidden until someone wants to talk."""
        self.display = False

    def open(self) -> None:
        """Show the box and type in it."""
        self.display = True
        self.focus()

    def close(self) -> None:
        """Hide the box (what was typed is dropped)."""
        self.value = ""
        self.display = False

    @on(Input.Submitted)
    def _said(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.value.strip()
        self.close()
        if text and wire.valid_chat(text):
            self.post_message(self.Said(text))
