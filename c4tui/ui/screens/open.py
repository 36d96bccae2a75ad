"""The open dialog: a saved game from the list, a record file, or a pasted digit string.

Digit strings are what solver websites show (``4453``: 1-based columns, red first,
7 × 6 classic), so a position can be pasted in and played on from here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from c4tui.numbers import ascii_digits
from c4tui.records import GameRecord, RecordError, parse_record
from c4tui.records.store import given_name, read_record, saved_games, saved_games_folder

#: Saved games listed at most (the newest).
LISTED_GAMES = 50


class OpenDialog(ModalScreen[GameRecord | None]):
    """Choose a saved game (Enter on the list) or type a path or digits (Enter in the field)."""

    # Over the menu, its list of saved games made it tall enough to cover the Start
    # button but for a letter, and the menu's lines stuck out beside it: it stands alone.
    DEFAULT_CSS = """
    OpenDialog { align: center middle; background: $background; }
    OpenDialog OptionList { height: auto; max-height: 10; margin-bottom: 1; }
    """

    BINDINGS = [Binding("escape", "cancel", "Back", id="open.cancel")]

    def __init__(self, allow_files: bool = True) -> None:
        super().__init__()
        #: False for a web visitor: a path typed would read the host's files.
        self._allow_files = allow_files

    def compose(self) -> ComposeResult:
        """The saved games, a field, a status line and the buttons."""
        games = saved_games()[:LISTED_GAMES]
        with Vertical(classes="form-dialog"):
            yield Static("Open a game", classes="form-title")
            if games:
                options = (Option(_summary(path), id=str(path)) for path in games)
                yield OptionList(*options, markup=False)  # names people gave, brackets and all
            else:
                where = f", in {saved_games_folder()}" if self._allow_files else ""
                yield Static(f"No saved games yet (s saves one{where}).")
            hint = "a file, or digits like 4453" if self._allow_files else "digits like 4453"
            yield Input(placeholder=hint, id="open-typed")
            yield Static("", id="open-status", classes="form-status")
            with Horizontal():
                yield Button("Open", id="open", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        """The list first when there is one, else the field."""
        lists = self.query(OptionList)
        (lists.first() if lists else self.query_one(Input)).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self._open(lambda: read_record(Path(str(event.option.id))))

    @on(Input.Submitted)
    @on(Button.Pressed, "#open")
    def _typed(self) -> None:
        text = self.query_one(Input).value.strip()
        if not text:
            self._problem("Type a file name or a digit string (or choose from the list).")
            return
        if not self._allow_files and not ascii_digits(text):
            self._problem("Type the moves as digits, like 4453 (1-based columns).")
            return
        path = Path(text).expanduser()
        if self._allow_files and path.is_file():
            self._open(lambda: read_record(path))
        elif ascii_digits(text):
            self._open(lambda: parse_record(text))
        else:
            self._problem(_not_a_record(path))

    def _open(self, read: Callable[[], GameRecord]) -> None:
        try:
            record = read()
        except RecordError as error:
            self._problem(str(error))
            return
        self.dismiss(record)

    def _problem(self, text: str) -> None:
        status = self.query_one("#open-status", Static)
        status.update(text)
        status.add_class("-error")
        self.app.bell()

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)


def _not_a_record(path: Path) -> str:
    """Why a typed name that is no digit string opens nothing (a record's text is no line)."""
    if path.is_dir():
        return f"{path} is a folder: type a saved game's file in it, or choose from the list."
    return f"No such file: {path} (type a saved game's file, or the moves as digits like 4453)."


def _summary(path: Path) -> str:
    """One line for the list: the name given it, when, who, how it ended."""
    try:
        record = read_record(path)
    except RecordError:
        return f"{path.name} (unreadable)"
    players = f"{record.red} v {record.yellow}"
    size = f"{record.columns}x{record.rows}"
    summary = f"{record.date or path.stem} {players} {size}: {record.result.value}"
    name = given_name(path)
    return f"{name} · {summary}" if name else summary
