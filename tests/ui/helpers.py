"""Helpers for driving the real app with Pilot: start a game, type moves, wait for the AI."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.engine import Move, Player, parse_move
from c4tui.match.backends import Backend, PersonBackend
from c4tui.match.driver import MatchDriver
from c4tui.match.settings import DriverFactory, MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.open import OpenDialog
from c4tui.ui.widgets.choice import ChoiceSet
from tests.seats import SlowSeat

SIZE = (80, 24)


def make_app(**settings: object) -> C4App:
    """An app whose menu starts with ``settings`` (the computer moves without delay)."""
    settings.setdefault("ai_delay", 0.0)
    settings.setdefault("seed", 1)
    return C4App(MatchSettings(**settings))  # type: ignore[arg-type]


def columns_fit(table: DataTable[object]) -> bool:
    """Whether every column of ``table`` is as wide as its widest cell.

    A DataTable counts a row as soon as it is added but widens its columns only when it is
    next idle, so a snapshot taken once the rows are counted may still cut cells short
    ("1812 (" for "1812 (provisional)"); wait for this as well.
    """
    return all(
        column.content_width >= cell_len(str(cell))
        for index in range(table.row_count)
        for column, cell in zip(table.ordered_columns, table.get_row_at(index), strict=True)
    )


async def settle(pilot: Pilot) -> None:
    """Let the driver (the computer's move) and workers finish, and the screen catch up.

    Twice: a worker's answer may start another (the analysis's best line follows it).
    """
    screen = pilot.app.screen
    if isinstance(screen, GameScreen):
        await asyncio.wait_for(screen.driver.settled(), 30)
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def start_game(pilot: Pilot) -> GameScreen:
    """Press Enter on the menu and return the game screen."""
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def open_dialog_still(pilot: Pilot) -> None:
    """Enter on the menu opens its dialog; its fields' cursors stop blinking (steady pictures)."""
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False  # a blinking cursor would make the picture flaky
    await pilot.pause()


async def choose_mode(pilot: Pilot, title: str) -> None:
    """In the menu, step the Mode row to the opponent called ``title`` (with the arrow keys)."""
    menu = pilot.app.screen
    modes = menu.query_one("#mode", ChoiceSet)
    modes.focus()
    steps = modes.labels.index(title) - modes.chosen
    await pilot.press(*["right" if steps > 0 else "left"] * abs(steps))


async def left_for_the_menu(pilot: Pilot, moves: str) -> GameScreen:
    """Start a game, play ``moves`` and leave it for the menu (it waits under Resume)."""
    screen = await start_game(pilot)
    await play(pilot, moves)
    await pilot.press("escape")
    await pilot.pause()
    return screen


async def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (a connection there is refused)."""
    probe = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = int(probe.sockets[0].getsockname()[1])
    probe.close()
    await probe.wait_closed()
    return port


def keys_for_column(column_number: int) -> list[str]:
    """The digit keys that move the cursor to a 1-based column (two quick digits for 10+)."""
    return list(str(column_number))


async def play(pilot: Pilot, moves: str) -> None:
    """Play space-separated moves (``d4 p1``) with keys, as a person would."""
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    for text in moves.split():
        move = parse_move(text)
        want_pop = move.kind.value == "p"
        if screen.board.pop_mode != want_pop:
            await pilot.press("p")
        await pilot.press(*keys_for_column(move.column + 1), "enter")
        await settle(pilot)


def against(opponent: Backend) -> DriverFactory:
    """A driver factory: the person (RED) against ``opponent``."""

    def make_driver(settings: MatchSettings, history: Sequence[Move]) -> MatchDriver:
        return MatchDriver(
            settings.new_game(),
            {Player.RED: PersonBackend(), Player.YELLOW: opponent},
            history=history,
        )

    return make_driver


async def undone_mid_thought(pilot: Pilot[None], slow: SlowSeat) -> GameScreen:
    """Start a game against ``slow``, drop in column 4 and press u while it thinks."""
    screen = await start_game(pilot)
    await pilot.press("4", "enter")
    await asyncio.wait_for(slow.asked.wait(), timeout=5)
    await pilot.press("u")
    await screen.driver.settled()
    await pilot.pause()
    return screen


def unbroken(said: str) -> str:
    """What the panel said with "Saved:" and the file name on one line (a narrow panel
    puts the name on the next line, whole)."""
    return said.replace("Saved:\n", "Saved: ")


async def typed_into_open(pilot: Pilot, text: str) -> OpenDialog:
    """Ctrl+O, then ``text`` in its field (not yet submitted): the dialog."""
    await pilot.press("ctrl+o")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, OpenDialog)
    field = dialog.query_one(Input)
    field.focus()
    field.value = text
    return dialog
