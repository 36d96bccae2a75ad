"""The position editor: discs stacked, the side to move chosen, checked, analysed or played.

A game in c4tui is its moves from the empty board, so the position is played as drops
that reach it (``match.record.set_up_record``): the app opens that game in review at its
last move (Analyse) or plays on from it (Play), as Open does with a digit string. Discs
go on top of a column and come off its top, so none ever floats; the panel says at every
step whose turn it is and whether the position can be played on, and why not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message

from c4tui.engine import Player, PositionError
from c4tui.engine.picture import ROW_SEPARATOR, write_picture
from c4tui.engine.setup import SetUp
from c4tui.match.record import plays_from_set_up, set_up_record
from c4tui.match.settings import MatchSettings, describe_game
from c4tui.records import GameRecord
from c4tui.ui.screens.board_screen import BoardScreen
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.status import Turn


class PlacingBoard(Board):
    """The editor's board: Enter, Space or a click stacks a disc of the side to move."""

    BINDINGS = [Binding("enter,space", "choose", "Place", id="editor.place")]


class PositionEditor(BoardScreen[None]):
    """Set up a position on ``setup``'s board, to analyse or play against ``settings``' opponent.

    Args:
        setup: the position shown first (an empty board, or a picture opened).
        settings: the menu's: the opponent to play against (the person takes the side
            to move; two people take both), and what a game's other settings come from.
        ascii_only: draw with ASCII characters only.
    """

    board_class = PlacingBoard
    DEFAULT_CSS = """
    PositionEditor StatusPanel #last-move,
    PositionEditor StatusPanel #moves-title,
    PositionEditor StatusPanel #moves { display: none; }
    """
    BINDINGS = [
        Binding("r,x", "place('RED')", "Red", id="editor.red"),
        Binding("y,o", "place('YELLOW')", "Yellow", id="editor.yellow"),
        Binding("backspace,delete", "take_off", "Take off", key_display="⌫", id="editor.take"),
        Binding("t", "toggle_turn", "Turn", id="editor.turn"),
        Binding("p", "play", "Play", id="editor.play"),
        Binding("a", "analyse", "Analyse", id="editor.analyse"),
        Binding("escape", "leave", "Back", id="editor.back"),
        Binding("c", "copy_picture", "Copy", show=False, id="editor.copy"),
        Binding("question_mark", "help", "Help", key_display="?", id="editor.help"),
    ]

    @dataclass
    class PlayRequested(Message):
        """Play on from the position: ``record`` holds its drops, ``settings`` the rest."""

        record: GameRecord
        settings: MatchSettings

    @dataclass
    class AnalyseRequested(Message):
        """Review the position (``record``'s last move) with the analysis at hand."""

        record: GameRecord
        settings: MatchSettings

    def __init__(self, setup: SetUp, settings: MatchSettings, ascii_only: bool = False) -> None:
        super().__init__(setup.state(), _title(setup, settings), ascii_only)
        self.setup = setup
        self._settings = settings

    def on_mount(self) -> None:
        """Show the position and what can be done with it."""
        self._show_board()
        self._show()

    # ----- placing and taking discs --------------------------------------------------

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        """Enter, Space or a click: a disc of the side to move on top of the column."""
        self._edit(lambda: self.setup.with_disc(message.move.column, self.setup.turn))

    def action_place(self, colour: str) -> None:
        """A disc of ``colour`` (RED or YELLOW) on top of the cursor's column."""
        self._edit(lambda: self.setup.with_disc(self.board.cursor, Player[colour]))

    def action_take_off(self) -> None:
        """The top disc of the cursor's column comes off."""
        self._edit(lambda: self.setup.without_top(self.board.cursor))

    def action_toggle_turn(self) -> None:
        """The other side to move (the panel says whether the discs allow it)."""
        self._edit(lambda: self.setup.with_turn(self.setup.turn.other))

    def _edit(self, change: Callable[[], SetUp]) -> None:
        """Make ``change``; one that raises PositionError (a column full or empty) is said.

        Nothing changes then.
        """
        try:
            self.setup = change()
        except PositionError as error:
            self.app.bell()
            self._show(f"{_sentence(str(error))} ")
            return
        self._show()

    # ----- what the panel says -------------------------------------------------------

    def _show(self, before: str = "") -> None:
        """The board, whose turn, the counts and whether the position can be played on."""
        setup = self.setup
        self.board.show(setup.board_shown())  # a four already there is marked
        self.panel.turn = Turn(setup.state(), {})
        counts = f"{setup.count(Player.RED)} red, {setup.count(Player.YELLOW)} yellow."
        problem = setup.problem()
        if problem is None:
            self.panel.say(f"{before}{counts} Playable: p plays it, a analyses it.")
        else:
            self.panel.say(f"{before}{counts} Not playable: {problem}.", "error")

    # ----- analyse, play, leave ------------------------------------------------------

    def action_play(self) -> None:
        """Play on from the position against the menu's opponent (the person moves next)."""
        kind = self._settings.kind
        if not plays_from_set_up(kind):
            self.app.bell()
            self._show(
                f"{kind.title} cannot take up a set-up position: choose Computer or Two "
                "players in the menu (a analyses it here). "
            )
            return
        record = self._record()
        if record is not None:
            self.post_message(self.PlayRequested(record, self._settings))

    def action_analyse(self) -> None:
        """Review the position at its last move, the analysis at hand (a in the review)."""
        record = self._record()
        if record is not None:
            self.post_message(self.AnalyseRequested(record, self._settings))

    def _record(self) -> GameRecord | None:
        """The position as a game of drops; None (the reason said again) if it is not playable."""
        try:
            return set_up_record(self.setup, self._settings)
        except PositionError:
            self.app.bell()
            self._show()  # the reason is in the panel already: said again, with the bell
            return None

    def action_copy_picture(self) -> None:
        """The board as a picture on the clipboard (Open takes it back, to set it up again)."""
        self.app.copy_to_clipboard(write_picture(self.setup, ROW_SEPARATOR))
        self._show("The board picture is copied (Open takes it). ")

    def action_leave(self) -> None:
        """Back to where the editor was opened from (the menu, or a game)."""
        self.dismiss(None)

    def action_help(self) -> None:
        """Show the rules and keys (the editor's among them)."""
        self.app.push_screen(HelpScreen())


def _title(setup: SetUp, settings: MatchSettings) -> str:
    """The panel's title: the board and rules, and who p plays against."""
    game = describe_game(setup.columns, setup.rows, setup.rules)
    kind = settings.kind
    against = kind.describe(settings.options) if plays_from_set_up(kind) else "a analyses it"
    return f"Set up a position\n{game}\n{against}"


def _sentence(words: str) -> str:
    """``words`` as a sentence: a capital first, a full stop last."""
    return f"{words[0].upper()}{words[1:]}."
