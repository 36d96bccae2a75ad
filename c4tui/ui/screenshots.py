"""The palette's Screenshot: an SVG of the screen saved in c4tui's data folder, saying where.

Textual saves into ``~/Downloads`` and, where that folder is missing, says only
"Failed to save screenshot". Here the picture goes to ``screenshots`` in c4tui's data
folder (made when first needed), and a failure says where it could not write and why.
Served to a browser, Textual's driver hands the picture to the browser instead.
"""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

from textual import events
from textual.app import App

from c4tui.storage import data_folder

#: The deliveries' name: not Textual's "screenshot", whose own handlers would answer too.
DELIVERY_NAME = "c4tui-screenshot"
#: The notifications' title.
TITLE = "Screenshot"


def screenshot_folder() -> Path:
    """Where screenshots are saved (``$XDG_DATA_HOME/c4tui/screenshots`` on Linux)."""
    return data_folder() / "screenshots"


def screenshot_name(now: datetime) -> str:
    """A file name that sorts by time and no two screenshots share."""
    return f"c4tui {now:%Y-%m-%d %H-%M-%S.%f}.svg"


class Screenshots:
    """Takes ``app``'s screenshots and tells how each went (Textual delivers them in a thread)."""

    def __init__(self, app: App[None]) -> None:
        self._app = app
        self._folders: dict[str, Path] = {}  # where each delivery under way is written

    def take(self, filename: str | None = None, folder: Path | None = None) -> None:
        """Save the screen as ``filename`` (by default its time) in ``folder`` (by default ours)."""
        app = self._app
        folder = folder or screenshot_folder()
        try:
            if not app.is_web:
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._could_not(folder, error)
            return
        key = app.deliver_text(
            io.StringIO(app.export_screenshot()),
            save_directory=folder,
            save_filename=filename or screenshot_name(datetime.now()),
            open_method="browser",
            mime_type="image/svg+xml",
            name=DELIVERY_NAME,
        )
        if key is not None:
            self._folders[key] = folder

    def delivered(self, event: events.DeliveryComplete) -> None:
        """A screenshot was saved: say where (served to a browser, that it was sent)."""
        if event.name != DELIVERY_NAME:
            return
        self._folders.pop(event.key, None)
        where = "Sent to the browser" if event.path is None else f"Saved as {event.path}"
        self._app.notify(where, title=TITLE, markup=False)

    def failed(self, event: events.DeliveryFailed) -> None:
        """A screenshot could not be written: say where, and why."""
        if event.name == DELIVERY_NAME:
            self._could_not(self._folders.pop(event.key, screenshot_folder()), event.exception)

    def _could_not(self, folder: Path, error: BaseException) -> None:
        self._app.notify(
            f"Could not save the screenshot in {folder}: {error}",
            title=TITLE,
            severity="error",
            markup=False,
        )
