"""Board pictures: a position typed or pasted as rows of cells, top row first.

``.`` is an empty cell, ``x`` (or the board text's ``R``) red, ``o`` (or ``Y``) yellow,
in either case; spaces between cells are ignored, so the board text of
``spec/console-format.md`` reads too (its line of column numbers is skipped). Rows are
lines, or are written on one line with ``/`` between them (``......./...x...``). The
side to move comes from the counts (red moves first); ``SetUp.problem`` says when the
position cannot be played on.
"""

from __future__ import annotations

from c4tui.engine.errors import BoardSizeError, PositionError
from c4tui.engine.game import Player, Rules
from c4tui.engine.setup import SetUp
from c4tui.engine.size import MIN_SIZE, check_size
from c4tui.engine.text import EMPTY

#: Written between the rows of a picture typed on one line.
ROW_SEPARATOR = "/"
#: What each character of a row stands for (read in either case).
CELLS: dict[str, Player | None] = {
    EMPTY: None,
    "x": Player.RED,
    Player.RED.short.lower(): Player.RED,
    "o": Player.YELLOW,
    Player.YELLOW.short.lower(): Player.YELLOW,
}
#: The characters the picture writes for each cell (``write_picture``).
WRITTEN = {None: EMPTY, Player.RED: "x", Player.YELLOW: "o"}
#: The cells' characters in words, for a message about one that is not.
CELLS_IN_WORDS = ". empty, x or R red, o or Y yellow"
#: A text at least this much made of cells' characters (and separators) is taken for a picture.
PICTURE_SHARE = 0.75


class PictureError(PositionError):
    """A picture that is not a board: the message names the line of the picture."""


def picture_rows(text: str) -> list[str]:
    """The rows of ``text``, top first, spaces gone (blank lines and column numbers skipped)."""
    lines = [line for line in text.replace(ROW_SEPARATOR, "\n").splitlines() if line.strip()]
    if lines and all(word.isdigit() for word in lines[0].split()):
        lines = lines[1:]  # the board text's header: 1  2  3 ...
    return ["".join(line.split()) for line in lines]


def looks_like_picture(text: str) -> bool:
    """Whether ``text`` is meant as a board picture (not a file name, not digits).

    At least MIN_SIZE rows, mostly cells' characters: a path with slashes has few dots,
    x's and o's; a picture with a typing slip in it is still a picture (and its reading
    says where the slip is).
    """
    rows = picture_rows(text)
    characters = "".join(rows)
    if len(rows) < MIN_SIZE or not characters:
        return False
    cells = sum(character.lower() in CELLS for character in characters)
    return cells >= PICTURE_SHARE * len(characters)


def read_picture(text: str, rules: Rules = Rules.CLASSIC) -> SetUp:
    """The position ``text`` pictures, the side to move from the counts.

    Raises PictureError for a character that is no cell, rows of different lengths or
    a size out of range (naming the line), and PositionError for a floating disc.
    """
    rows = picture_rows(text)
    if not rows:
        raise PictureError(f"the picture has no rows (type rows of {CELLS_IN_WORDS})")
    width = len(rows[0])
    discs: dict[tuple[int, int], Player] = {}
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise PictureError(
                f"line {number} of the picture has {len(row)} cells and line 1 has {width}: "
                "every row needs as many"
            )
        for column, character in enumerate(row):
            discs.update(_disc(number, column, character, len(rows)))
    try:
        check_size(width, len(rows))
    except BoardSizeError as error:
        raise PictureError(f"a picture {width} cells wide and {len(rows)} high: {error}") from None
    return SetUp.of_cells(width, len(rows), rules, discs)


def _disc(line: int, column: int, character: str, height: int) -> dict[tuple[int, int], Player]:
    """The disc ``character`` puts at ``column`` of picture line ``line`` (none for empty)."""
    if character.lower() not in CELLS:
        raise PictureError(
            f"line {line} of the picture: {character!r} is not a cell ({CELLS_IN_WORDS})"
        )
    player = CELLS[character.lower()]
    return {} if player is None else {(column, height - line): player}


def write_picture(setup: SetUp, separator: str = "\n") -> str:
    """``setup``'s board as a picture (rows top first, ``separator`` between them)."""
    rows = [
        "".join(WRITTEN[stack[row] if row < len(stack) else None] for stack in setup.stacks)
        for row in reversed(range(setup.rows))
    ]
    return separator.join(rows)
