"""An outside program as the app's opponent (issue 30, item 2): the computer's row offers
"Program…", a dialog asks for it, and its failures cost it only its game."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.engine import Move, Player, Rules
from c4tui.match.backends import KINDS, PersonBackend
from c4tui.match.backends.program import ProgramBackend
from c4tui.match.settings import MatchSettings
from c4tui.outside.program import ProgramChooser
from c4tui.records import GameRecord
from c4tui.ui.app import C4App
from c4tui.ui.preferences import load_preferences
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.servers import Visit
from c4tui.ui.widgets.choice import ChoiceSet
from tests.outside.helpers import CENTRE_AGENT, alive_in_group, engine_command, is_alive
from tests.outside.sandboxes import descendants
from tests.ui.helpers import make_app, play, settle
from tests.ui.on_screen import screen_lines

#: Wide enough that the panel's reason is not cut.
WIDE = (120, 40)
#: The tiny engine as the program option holds it.
TINY = f"engine:{engine_command()}"
#: "Program…": the computer's levels, then the program.
PROGRAM_CHOICE = 5


async def pick_program(pilot: Pilot) -> ConnectDialog:
    """In the menu: the computer's row, right to "Program…", Enter: the program's dialog."""
    await pilot.pause()
    menu = pilot.app.screen
    assert isinstance(menu, MenuScreen)
    menu.query_one("#option-computer-level", ChoiceSet).focus()
    await pilot.press(*["right"] * PROGRAM_CHOICE)
    assert menu.kind() is ProgramBackend
    await pilot.press("enter")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ConnectDialog)
    return dialog


async def give_program(pilot: Pilot, program: str) -> None:
    """Type ``program`` in the dialog's field and press Enter."""
    pilot.app.screen.query_one("#program", Input).value = program
    await pilot.press("enter")
    await settle(pilot)


async def start_against(pilot: Pilot, program: str) -> None:
    """From the menu, a game against ``program`` (picked and typed as a person would)."""
    await pick_program(pilot)
    await give_program(pilot, program)


def seat(app: C4App) -> ProgramBackend:
    """The program's seat in the game on screen."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    program = screen.driver.seats[Player.YELLOW]
    assert isinstance(program, ProgramBackend)
    return program


def process_of(app: C4App) -> int:
    """The id (and process group) of the program's running process."""
    chooser = seat(app).chooser
    assert isinstance(chooser, ProgramChooser) and chooser.pid is not None
    return chooser.pid


async def gone(group: int, seconds: float = 10.0, started: Sequence[int] = ()) -> bool:
    """True once no process of ``group`` nor of ``started`` runs (waiting up to ``seconds``)."""

    def running() -> bool:
        return bool(alive_in_group(group)) or any(map(is_alive, started))

    deadline = time.monotonic() + seconds
    while running() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return not running()


async def test_the_tiny_engine_picked_in_the_menu_answers_a_move() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        await start_against(pilot, TINY)
        await play(pilot, "d4")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert [str(move) for move in screen.driver.moves] == ["d4", "d1"]
        assert "vs engine tiny_engine.py" in " ".join(screen_lines(app))


async def test_a_crashing_engine_loses_and_the_panel_says_why_then_a_rematch_works() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        await start_against(pilot, f"engine:{engine_command('--crash-at', '2')}")
        await play(pilot, "d4")
        first = process_of(app)
        await play(pilot, "d5")
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.driver.result is not None
        assert screen.driver.result.winner is Player.RED
        said = " ".join(str(screen.query_one("#message").render()).split())
        assert "RED wins: tiny_engine.py lost by crash: exited with status 3" in said
        assert "YELLOW's program failed" in [note.title for note in app._notifications]
        assert await gone(first)
        await pilot.press("r")  # the rematch: colours swap, a new process moves first
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, GameScreen) and rematch is not screen
        assert rematch.driver.moves and rematch.driver.result is None
        program = rematch.driver.seats[Player.RED]
        assert isinstance(program, ProgramBackend) and program.failure is None


async def test_the_dialog_asks_again_saying_what_is_wrong(tmp_path: Path) -> None:
    missing = tmp_path / "nobody.py"
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        dialog = await pick_program(pilot)
        for typed, said in [
            ("", "give engine:COMMAND"),
            ("./deep4", "give engine:COMMAND"),
            ("engine:  ", "engine: needs the command that starts the program"),
            (f"kaggle:{missing}", "there is no file"),
        ]:
            await give_program(pilot, typed)
            assert app.screen is dialog
            status = str(dialog.query_one("#connect-status").render())
            assert status.startswith("Program: ") and said in status, status
        await give_program(pilot, f"kaggle:{CENTRE_AGENT}")
        assert isinstance(app.screen, GameScreen)


async def test_a_kaggle_agent_with_pop_out_chosen_plays_classic_and_says_so() -> None:
    app = make_app(opponent="computer", rules=Rules.POPOUT)
    async with app.run_test(size=WIDE) as pilot:
        dialog = await pick_program(pilot)
        dialog.query_one("#program", Input).value = f"kaggle:{CENTRE_AGENT}"
        dialog.query_one("#seconds", ChoiceSet).focus()  # a choice changed: the note is redone
        await pilot.press("right", "left")
        await pilot.pause()
        note = str(dialog.query_one("#connect-note").render())
        assert "the game will be 7 × 6 Classic" in note
        await pilot.press("enter")
        await settle(pilot)
        await play(pilot, "d1")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.driver.state.rules is Rules.CLASSIC
        assert [str(move) for move in screen.driver.moves] == ["d1", "d4"]


async def test_closing_the_app_ends_the_program_s_process() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        await start_against(pilot, f"engine:{engine_command('--spawn')}")
        await play(pilot, "d4")
        group = process_of(app)
        started = descendants(group)
        assert len(started) >= 2  # the engine and the child it left behind (and its sandbox)
        await app.action_quit()
    assert await gone(group, started=started)


async def test_the_app_answers_while_the_program_thinks() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        dialog = await pick_program(pilot)
        dialog.query_one("#seconds", ChoiceSet).chosen = 3  # 10 s a move
        dialog.query_one("#program", Input).value = f"engine:{engine_command('--late', '4')}"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("4", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        # The program answers 4 s after it was asked: the help came while it thought (about
        # 0.1 s here), not after, however loaded the machine (no tight bound on the time).
        assert len(screen.driver.moves) == 1, "help opened only after the program's move"
        await pilot.press("escape")
        await settle(pilot)
        assert len(screen.driver.moves) == 2 and screen.driver.result is None


async def test_the_command_typed_is_remembered_for_the_next_start() -> None:
    command = TINY
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        dialog = await pick_program(pilot)
        dialog.query_one("#seconds", ChoiceSet).chosen = 1
        await give_program(pilot, command)
    kept = load_preferences().last_game
    assert kept is not None and kept.opponent == "program"
    assert kept.options["program"] == command and kept.options["seconds"] == "2"
    again = C4App()
    async with again.run_test(size=WIDE) as pilot:
        await pilot.pause()
        menu = again.screen
        assert isinstance(menu, MenuScreen) and menu.kind() is ProgramBackend
        await pilot.press("enter")
        await pilot.pause()
        assert again.screen.query_one("#program", Input).value == command
        assert again.screen.query_one("#seconds", ChoiceSet).chosen == 1


def test_a_web_visitor_is_never_offered_a_program() -> None:
    for servers in ((), (("localhost", 4000),)):
        assert ProgramBackend not in Visit(servers).offered(KINDS)


async def test_a_program_from_the_command_line_starts_at_once_classic_for_a_kaggle_agent() -> None:
    settings = MatchSettings(
        opponent="program",
        options={"program": f"kaggle:{CENTRE_AGENT}", "seconds": "5"},
        rules=Rules.POPOUT,
        person_colour=Player.YELLOW,
        ai_delay=0.0,
    )
    app = C4App(settings, start_at_once=True)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen), "no dialog: the command line said it all"
        assert screen.driver.state.rules is Rules.CLASSIC
        assert [str(move) for move in screen.driver.moves] == ["d4"]  # the agent is red
        notes = [note.message for note in app._notifications]
        assert notes == ["A Kaggle agent plays classic rules only (ConnectX has no Pop Out)."]


async def test_a_web_visitor_plays_on_a_game_against_a_program_as_two_players() -> None:
    moves = (Move.drop(3), Move.drop(0))
    record = GameRecord(7, 6, Rules.CLASSIC, moves, opponent="program", options={"program": TINY})
    app = C4App(visitor_servers=())
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        app.games.open_record(record, review=False)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.driver.moves == moves
        assert all(isinstance(seat, PersonBackend) for seat in screen.driver.seats.values())
