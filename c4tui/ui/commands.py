"""A screen's own actions in the command palette (Ctrl+P), beside Textual's commands.

Textual's palette asks each provider for commands. This one asks the screen the
palette was opened on: a screen that offers commands (the game screen: new game,
rematch, save, download the record, open, analysis, hint, review, undo, redo) lists
them, each with its help line, and running one runs what its key runs. Themes stay
Textual's own "Theme" command (which c4tui's themes join), so they are not listed twice.
A screen showing a game leaves out Textual's commands that would hide it (Keys, Maximize).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class PaletteCommand:
    """One command: its name, the help line under it, and what choosing it does."""

    name: str
    help: str
    run: Callable[[], object]


#: Textual's own commands a game leaves out: "Keys" opens a panel that leaves the board
#: no room, "Maximize" fills the terminal with the focused board (its panel, keys gone).
LEFT_OUT_OF_GAMES = frozenset({"Keys", "Maximize", "Minimize"})


class ShowsAGame:
    """A screen's mark that a game is played or reviewed on it (Connect Four, Columns…)."""

    @property
    def game_in_progress(self) -> bool:
        """True while its game goes on (a visitor is then never cut off as idle)."""
        return False


def offered_on(screen: object, title: str) -> bool:
    """Whether Textual's command called ``title`` is offered on ``screen``."""
    return not (isinstance(screen, ShowsAGame) and title in LEFT_OUT_OF_GAMES)


@runtime_checkable
class OffersCommands(Protocol):
    """A screen with commands of its own for the palette."""

    def palette_commands(self) -> Sequence[PaletteCommand]:
        """The commands that make sense now (asked each time the palette opens)."""
        ...


class ScreenCommands(Provider):
    """The commands of the screen the palette was opened on (none for other screens)."""

    def _commands(self) -> Sequence[PaletteCommand]:
        screen = self.screen
        return screen.palette_commands() if isinstance(screen, OffersCommands) else ()

    async def discover(self) -> Hits:
        """Every command, listed when the palette opens (before anything is typed)."""
        for command in self._commands():
            yield DiscoveryHit(command.name, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        """The commands whose names match what is typed (Textual's fuzzy matching)."""
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(score, matcher.highlight(command.name), command.run, help=command.help)
