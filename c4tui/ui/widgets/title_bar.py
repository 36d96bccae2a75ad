"""The line across the top of the menu: a disc, and the app's name in the middle."""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widget import Widget

#: The disc's cell on the left, and the empty cell on the right (as Textual's header).
ICON_CELLS = 8
RIGHT_CELLS = 10


class TitleBar(Widget):
    """Textual's header, drawn as one line by one widget; clicking the disc opens the palette.

    Speed: Textual's ``Header`` is four widgets, each styled, laid out and drawn; the
    menu is the first screen, and it started about 20 ms sooner with this one
    (``python bench/startup.py``).
    """

    DEFAULT_CSS = """
    TitleBar { dock: top; width: 100%; height: 1; background: $panel; color: $foreground; }
    """

    def __init__(self, icon: str) -> None:
        super().__init__()
        self._icon = icon

    def render(self) -> Content:
        """`` ●     c4tui — Connect Four     ``, the name centred between the side cells."""
        title = self.app.format_title(self.app.title, self.app.sub_title)
        room = max(0, self.size.width - ICON_CELLS - RIGHT_CELLS)
        title = title.truncate(room, ellipsis=True)
        before = (room - title.cell_length) // 2
        return Content.assemble(f" {self._icon}".ljust(ICON_CELLS), " " * before, title)

    async def on_click(self, event: events.Click) -> None:
        """The disc opens the command palette, as the header's icon does."""
        if event.x < ICON_CELLS and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            await self.run_action("app.command_palette")
