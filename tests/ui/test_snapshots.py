"""Snapshots of every screen at 80 × 24 (pytest-textual-snapshot).

After a deliberate change of the look, update with ``pytest --snapshot-update``
and look at every changed SVG (``snapshot_report.html``) before committing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.engine import Rules
from c4tui.server.core import C4Server
from c4tui.tictactoe import Board
from c4tui.ui.app import C4App
from c4tui.ui.widgets.tictactoe_board import TicTacToeBoard
from tests.net.lobby_client import LobbyClient, lobby_server_in_a_thread, logged_in
from tests.ui.helpers import SIZE, make_app, open_dialog_still, play, settle


def playing(moves: str, *extra_keys: str):
    """A run_before that starts the game from the menu, plays ``moves``, then presses keys."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        await play(pilot, moves)
        if extra_keys:
            await pilot.press(*extra_keys)
        await settle(pilot)

    return run_before


def test_menu(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_menu_against_the_computer(snap_compare) -> None:
    app = make_app(opponent="computer", rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE)


def test_menu_explains_a_bad_size(snap_compare) -> None:
    app = make_app()

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a loaded machine's slow screenshot caught it hidden

    keys = ["tab", "backspace", "3", "enter"]
    assert snap_compare(app, terminal_size=SIZE, press=keys, run_before=run_before)


def test_game_in_progress_7x6(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4 d3 d4 d5 d6 d4", "left"))


def test_analysis_row_under_a_7x6_board(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4 d3 d4 d5 d6 d4", "a"))


def test_stepping_through_the_best_line(snap_compare) -> None:
    analysed = playing("d4 d3 d4 d5 d6 d4", "a")

    async def run_before(pilot: Pilot) -> None:
        await analysed(pilot)
        await pilot.press("b", "right", "right", "right")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_won_4x4_board_highlights_the_line(snap_compare) -> None:
    app = make_app(columns=4, rows=4)
    assert snap_compare(
        app, terminal_size=SIZE, run_before=playing("d1 d2 d2 d3 d3 d4 d3 d4 d4 d1 d4")
    )


def test_20x20_board_fits_80x24(snap_compare) -> None:
    app = make_app(opponent="computer", columns=20, rows=20, rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d20 d19 d1", "1", "8"))


def test_pop_mode(snap_compare) -> None:
    app = make_app(rules=Rules.POPOUT)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d1 d2 d3", "p", "2"))


def test_help_screen(snap_compare) -> None:
    app = make_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("d4", "question_mark"))


def test_connect_dialog(snap_compare) -> None:
    app = make_app(opponent="network", options={"user": "player"})
    assert snap_compare(app, terminal_size=SIZE, run_before=open_dialog_still)


def test_ansi_dark_theme_keeps_discs_and_the_winning_line_readable(snap_compare) -> None:
    app = make_app(rules=Rules.POPOUT)

    async def run_before(pilot: Pilot) -> None:
        pilot.app.theme = "ansi-dark"
        await playing("d4 d5 d4 d5 d4 d5 d4")(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


# ----- people online --------------------------------------------------------------------


@pytest.fixture
def lobby_with_rooms(tmp_path: Path) -> Iterator[int]:
    """A lobby server in a thread, with a waiting room and a game being watched; its port."""
    clients: list[LobbyClient] = []  # kept open

    async def set_up(server: C4Server) -> None:
        ann, bob, cid, dee = [
            await logged_in(server.port, name) for name in ("ann", "bob", "cid", "dee")
        ]
        await logged_in(server.port, "zoe", "secret")
        assert await ann.ask("CREATE:ann room") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("CREATE:quick game:5:4:classic") == "CREATE:ACKSTATUS:0"
        assert await cid.ask("JOIN:quick game:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await dee.ask("JOIN:quick game:VIEWER") == "JOIN:ACKSTATUS:0"
        clients.extend([ann, bob, cid, dee])

    with lobby_server_in_a_thread(tmp_path / "a.sqlite3", set_up) as server:
        yield server.port


def online_app(port: int) -> C4App:
    return make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    )


def test_login_dialog(snap_compare, lobby_with_rooms: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        pilot.app.screen.query_one("#password", Input).value = "secret"
        pilot.app.screen.query_one("#port", Input).value = "4444"  # the test server's varies
        await pilot.pause()

    assert snap_compare(online_app(lobby_with_rooms), terminal_size=SIZE, run_before=run_before)


def test_lobby_screen(snap_compare, lobby_with_rooms: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.screen.query_one("#password", Input).value = "secret"
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.05)
            tables = pilot.app.screen.query(DataTable)
            # Both rooms listed, and the columns widened to them (DataTable sizes its
            # columns when idle: a screenshot just before showed the names cut short).
            table = tables.first() if tables else None
            players = tables.last() if len(tables) == 2 else None  # everyone online, rated
            listed = table and table.row_count == 2 and table.ordered_columns[0].content_width >= 10
            first_room = str(table.get_row_at(0)) if table and table.row_count else ""
            rated = players and players.row_count == 5 and "1500" in first_room
            if listed and rated:
                break  # 10: "quick game"; 5: ann, bob, cid, dee and zoe
        await pilot.pause()

    assert snap_compare(online_app(lobby_with_rooms), terminal_size=SIZE, run_before=run_before)


def columns_game(session_rows: int, moves: int, crafted: bool = False, keys: tuple[str, ...] = ()):
    """A run_before showing Columns on a hand-moved clock (seeded: the same every run)."""

    async def run_before(pilot: Pilot) -> None:
        from c4tui.columns import Field
        from c4tui.columns.play import ColumnsSession, fall_seconds
        from c4tui.ui.screens.columns import ColumnsScreen

        session = ColumnsSession(session_rows, 6, seed=4)
        if crafted:  # three S across, then three Y down as a chain
            rows = ["      "] * (session_rows - 4) + ["Y     ", "Y     ", "SS    ", "YTTWVX"]
            session.field = Field.with_contents(session_rows, 6, rows)
            session.field = session.field.create_faller(3, ("X", "X", "S"))
        now = [1000.0]
        screen = ColumnsScreen(session, clock=lambda: now[0], use_timer=False)
        await pilot.app.push_screen(screen)
        for _ in range(moves):
            now[0] += fall_seconds(session.level)
            screen.catch_up()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return run_before


def test_columns_playing(snap_compare) -> None:
    assert snap_compare(
        make_app(), terminal_size=SIZE, run_before=columns_game(13, 12, keys=("left", "up"))
    )


def test_columns_match_flashes(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=columns_game(8, 7, crafted=True))


def test_columns_game_over(snap_compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=columns_game(4, 60))


class TicTacToeBoards(App[None]):
    """Two 3 × 3 boards: one to play on (the cursor), one won (the line bracketed)."""

    CSS = "Horizontal { align: center middle; } TicTacToeBoard { margin: 1 2; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield TicTacToeBoard(Board.from_text("100020000"), id="playing")
            yield TicTacToeBoard(Board.from_text("120210001"), id="won")

    def on_mount(self) -> None:
        playing = self.query_one("#playing", TicTacToeBoard)
        playing.show(playing.board, last=(1, 1))
        playing.cursor = (2, 0)
        playing.accepting = True
        playing.focus()
        won = self.query_one("#won", TicTacToeBoard)
        won.show(won.board, last=(2, 2))


def test_tictactoe_boards(snap_compare) -> None:
    assert snap_compare(TicTacToeBoards(), terminal_size=SIZE)
