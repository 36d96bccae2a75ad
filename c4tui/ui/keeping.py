"""Saving a game as a record, handing it over, and keeping a local game for the next run.

One place for what the game and its review do with the records folder: a save
says in words where the game went; a game kept for next time is written in the
background (a full disk is told, never in the way of the game). A browser
visitor's saves stay on the server, so the record is also handed over: a
download in the browser (Textual's ``deliver_text``), a copy in the downloads
folder at a terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable

from platformdirs import user_downloads_path
from textual.app import App

from c4tui.records import RECORD_SUFFIX, GameRecord, format_record
from c4tui.records.store import free_stamp_name, keep_unfinished_soon, save_game, saved_game_path
from c4tui.storage import write_atomically
from c4tui.ui.screens.save_name import SaveNameDialog
from c4tui.ui.widgets.phrasing import phrases
from c4tui.ui.widgets.status import News


class GameKeeper:
    """Saves and keeps one game.

    Args:
        remote: a player is at the other end of a connection (such games are not kept).
        saves_last_until_quit: saved games go when the app quits (a browser visitor's
            folder goes with the visit), and a save says so.
        keeping_failed: called on the app's loop when a game could not be kept.
    """

    def __init__(
        self,
        *,
        remote: bool,
        saves_last_until_quit: bool,
        keeping_failed: Callable[[OSError], None],
    ) -> None:
        self._remote = remote
        self._saves_last_until_quit = saves_last_until_quit
        self._keeping_failed = keeping_failed

    def ask_and_save(
        self, app: App[object], record: GameRecord, told: Callable[[News], None]
    ) -> None:
        """Ask the name to save ``record`` as (when it is saved, by default), then save it.

        ``told`` gets what happened, as news for the panel; nothing if the person cancels.
        """

        def named(name: str | None) -> None:
            if name is not None:
                # In a browser the saved games folder is the server's: the browser gets a copy.
                told(self.save(record, name, hand_to=app if app.is_web else None))

        app.push_screen(SaveNameDialog(free_stamp_name(), _saved_already), named)

    def save(
        self, record: GameRecord, name: str | None = None, *, hand_to: App[object] | None = None
    ) -> News:
        """Save ``record`` in the saved games folder; what happened, as news for the panel.

        Saved as ``name``, or by default under the time it is saved; also handed over
        to ``hand_to``'s person (in a browser, whose saves stay on the server).
        """
        try:
            path = save_game(record, name=name)
        except (OSError, ValueError) as error:
            return News(f"Could not save the game: {error}", "error")
        # In the panel, not a toast: a toast would cover the board's right edge. Phrases,
        # so that the file name is never broken (nor cut at its dot) in a narrow panel.
        until = ["until you quit"] if self._saves_last_until_quit else []
        where = phrases("The menu's Open", "(Ctrl+O) lists it", *until)
        if hand_to is not None:
            hand_over(hand_to, record, path.name)
            where += "\n" + phrases("and your browser", "downloads it")
        return News(phrases("Saved:", path.stem) + "\n" + where)

    def download(self, app: App[object], record: GameRecord) -> News:
        """Hand ``record`` over as a file; what happened, as news for the panel.

        In a browser the visitor's browser downloads it; at a terminal a copy goes in
        the downloads folder (the saved games folder is untouched either way).
        """
        if app.is_web:
            return News(phrases("Downloading:", hand_over(app, record, free_stamp_name())))
        folder = user_downloads_path()
        name = free_stamp_name(folder)
        try:
            write_atomically(folder / f"{name}{RECORD_SUFFIX}", format_record(record))
        except OSError as error:
            return News(f"Could not put a copy in {folder}: {error}", "error")
        return News(
            phrases("A copy:", f"{name}{RECORD_SUFFIX}") + "\n" + phrases("in", str(folder))
        )

    def keep(self, unfinished: GameRecord | None) -> None:
        """Keep a local game under way for next time (None: a finished one is let go)."""
        if self._remote:
            return
        loop = asyncio.get_running_loop()

        def failed(error: OSError) -> None:  # in the keeper's thread
            with contextlib.suppress(RuntimeError):  # the app has ended meanwhile
                loop.call_soon_threadsafe(self._keeping_failed, error)

        keep_unfinished_soon(unfinished, failed)

    def forget(self) -> None:
        """The person abandoned this game: it is not offered next time."""
        if not self._remote:
            keep_unfinished_soon(None)


def hand_over(app: App[object], record: GameRecord, name: str) -> str:
    """Deliver ``record`` to the person as the file ``name`` (suffixed); its file name.

    Served to a browser, the browser downloads it (textual-serve hands it over).
    """
    file_name = name if name.lower().endswith(RECORD_SUFFIX) else f"{name}{RECORD_SUFFIX}"
    app.deliver_text(io.StringIO(format_record(record)), save_filename=file_name)
    return file_name


def _saved_already(name: str) -> bool:
    """True when a game is saved as ``name`` (a name no file can have is never saved)."""
    try:
        return saved_game_path(name).exists()
    except ValueError:
        return False
