"""Saving a game as a record, and keeping a local game under way for the next run.

One place for what the game and its review do with the records folder: a save
says in words where the game went; a game kept for next time is written in the
background (a full disk is told, never in the way of the game).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from textual.app import App

from c4tui.records import GameRecord
from c4tui.records.store import free_stamp_name, keep_unfinished_soon, save_game, saved_game_path
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
                told(self.save(record, name))

        app.push_screen(SaveNameDialog(free_stamp_name(), _saved_already), named)

    def save(self, record: GameRecord, name: str | None = None) -> News:
        """Save ``record`` in the saved games folder; what happened, as news for the panel.

        Saved as ``name``, or by default under the time it is saved.
        """
        try:
            path = save_game(record, name=name)
        except (OSError, ValueError) as error:
            return News(f"Could not save the game: {error}", "error")
        # In the panel, not a toast: a toast would cover the board's right edge. Phrases,
        # so that the file name is never broken (nor cut at its dot) in a narrow panel.
        until = ["until you quit"] if self._saves_last_until_quit else []
        where = phrases("The menu's Open", "(Ctrl+O) lists it", *until)
        return News(phrases("Saved:", path.stem) + "\n" + where)

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


def _saved_already(name: str) -> bool:
    """True when a game is saved as ``name`` (a name no file can have is never saved)."""
    try:
        return saved_game_path(name).exists()
    except ValueError:
        return False
