"""The open dialog: a saved game, a record file, a pasted digit string or a board picture.

Digit strings are what solver websites show (``4453``: 1-based columns, red first,
7 × 6 classic), so a position can be pasted in and played on from here. A board
picture (rows of ``.``, ``x``, ``o``, top first, ``/`` between them on this one line;
pasted rows are joined so) opens the position editor on it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from c4tui.engine import PositionError
from c4tui.engine.picture import ROW_SEPARATOR, looks_like_picture, read_picture
from c4tui.engine.setup import SetUp
from c4tui.numbers import ascii_digits
from c4tui.records import GameRecord, RecordError, parse_record
from c4tui.records.store import given_name, read_record, saved_games, saved_games_folder

#: Saved games listed at most (the newest).
LISTED_GAMES = 50


class LinesJoined(Input):
    """The field: pasted lines (a board picture's rows) are kept, joined by ``/``.

    Textual's one-line field keeps only the first line of what is pasted.
    """

    def _on_paste(self, event: events.Paste) -> None:
        lines = [line.strip() for line in event.text.splitlines() if line.strip()]
        if len(lines) > 1:
            event.prevent_default()  # not the first line alone, as Input would
            event.stop()
            self.insert_text_at_cursor(ROW_SEPARATOR.join(lines))


class OpenDialog(ModalScreen[GameRecord | SetUp | None]):
    """Choose a saved game (Enter on the list) or type a path, digits or a board picture.

    Enter in the field opens what is typed: a game, or the position a picture shows (for
    the editor).
    """

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
            hint = "digits like 4453, or a board like ..../..../..x./.ox."
            yield LinesJoined(
                placeholder=f"a file, {hint}" if self._allow_files else hint, id="open-typed"
            )
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
            self._problem(
                "Type a file name, a digit string or a board picture (or choose from the list)."
            )
            return
        picture = looks_like_picture(text)
        if not self._allow_files and not ascii_digits(text) and not picture:
            self._problem(
                "Type the moves as digits, like 4453 (1-based columns), or the board's rows "
                "of . x o, top first, / between them."
            )
            return
        path = Path(text).expanduser()
        if self._allow_files and path.is_file():
            self._open(lambda: read_record(path))
        elif ascii_digits(text):
            self._open(lambda: parse_record(text))
        elif picture:
            self._open_picture(text)
        else:
            self._problem(_not_a_record(path))

    def _open_picture(self, text: str) -> None:
        """The position a board picture shows, for the editor; what is wrong with it, if not."""
        try:
            setup = read_picture(text)
        except PositionError as error:
            self._problem(f"This board picture won't do: {error}.")
            return
        self.dismiss(setup)

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
    return (
        f"No such file: {path} (type a saved game's file, the moves as digits like 4453, "
        "or a board's rows of . x o, / between them)."
    )


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
