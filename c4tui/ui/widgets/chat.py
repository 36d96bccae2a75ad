"""Chat in the lobby and in online games: the one-line box, and a game's chat so far.

The box is hidden until asked for; in a game the room's lines show under the moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog, Static

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


#: How many chat lines a game's history keeps (the oldest go first): a whole game's talk.
KEPT_LINES = 500


class ChatLog(Vertical):
    """The room's chat so far under a "Chat" title, a line each with its sender.

    The lines scroll (the newest shown) and wrap to the width.

    Hidden until the first line, so a game nobody talks in keeps the panel as it was.
    Each line is plain text, whatever it holds: ``[bold]x[/]`` is shown as typed.
    """

    DEFAULT_CSS = """
    ChatLog { height: auto; }
    ChatLog #chat-title { color: $text-muted; }
    ChatLog RichLog { height: 5; background: $panel; scrollbar-size-vertical: 1; }
    """

    def __init__(self, said: Sequence[tuple[str, str]] = (), id: str | None = None) -> None:
        super().__init__(id=id)
        #: Every line shown, as (sender, text), oldest first (kept for a screen that follows).
        self.said: list[tuple[str, str]] = []
        self._earlier = list(said)  # and lines that come before mounting

    def compose(self) -> ComposeResult:
        """The title and the lines."""
        yield Static("Chat", id="chat-title")
        yield RichLog(wrap=True, markup=False, highlight=False, max_lines=KEPT_LINES, min_width=1)

    def on_mount(self) -> None:
        """The lines said before (a game we came back into); hidden if there are none."""
        self.display = False
        for user, text in self._earlier:
            self.add(user, text)

    def add(self, user: str, text: str) -> None:
        """One more line: ``user: text`` (kept until mounted, if it comes before)."""
        if not self.is_mounted:
            self._earlier.append((user, text))
            return
        self.said.append((user, text))
        self.display = True
        self.query_one(RichLog).write(Text(f"{user}: {text}"))
