"""How a cell is drawn at each size: glyph patterns, Unicode and plain ASCII.

Discs differ by shape as well as colour (red solid, yellow hollow), and the winning
line is bracketed, so the board reads on monochrome terminals and with NO_COLOR too.
Every pattern keeps a blank first and last column for those brackets, and every
character is single-width.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine import Player


@dataclass(frozen=True)
class CellLook:
    """The lines of text a cell shows, for each occupant, at one size."""

    name: str
    width: int
    height: int
    red: tuple[str, ...]
    yellow: tuple[str, ...]
    empty: tuple[str, ...]

    def lines_for(self, occupant: Player | None) -> tuple[str, ...]:
        """The pattern of a cell holding ``occupant`` (None: empty)."""
        if occupant is Player.RED:
            return self.red
        if occupant is Player.YELLOW:
            return self.yellow
        return self.empty

    def framed(self, lines: tuple[str, ...]) -> tuple[str, ...]:
        """``lines`` in brackets: how a disc of the winning line stands out without colour."""
        return self._enclosed(lines, "[", "]")

    def marked(self, lines: tuple[str, ...]) -> tuple[str, ...]:
        """``lines`` in parentheses: the disc just played, marked on the disc itself."""
        return self._enclosed(lines, "(", ")")

    def _enclosed(self, lines: tuple[str, ...], opening: str, closing: str) -> tuple[str, ...]:
        """``lines`` with the pair round their middle line only.

        On every line of a tall cell the pairs stood one above the other, a column of
        "[[[" beside the disc (plainest in a browser, whose lines touch).
        """
        middle = (len(lines) - 1) // 2
        line = lines[middle]
        return (*lines[:middle], f"{opening}{line[1:-1]}{closing}", *lines[middle + 1 :])

    def threat(self, players: frozenset[Player]) -> tuple[str, ...]:
        """An empty cell where ``players`` would complete four: its dot becomes r, y or !."""
        glyph = "!" if len(players) > 1 else "r" if Player.RED in players else "y"
        middle = len(self.empty) // 2 if len(self.empty) > 1 else 0
        line = self.empty[middle]
        centre = len(line) // 2
        marked = line[:centre] + glyph + line[centre + 1 :]
        return (*self.empty[:middle], marked, *self.empty[middle + 1 :])


UNICODE_LOOKS = (
    CellLook(
        "huge",
        11,
        5,
        red=(
            "   ▄▄▄▄▄   ",
            " ▄███████▄ ",
            " █████████ ",
            " ▀███████▀ ",
            "   ▀▀▀▀▀   ",
        ),
        yellow=(
            "   ▄▄▄▄▄   ",
            " ▄▀     ▀▄ ",
            " █       █ ",
            " ▀▄     ▄▀ ",
            "   ▀▀▀▀▀   ",
        ),
        empty=("           ", "           ", "     ·     ", "           ", "           "),
    ),
    CellLook(
        "large",
        7,
        3,
        red=(" ▄███▄ ", " █████ ", " ▀███▀ "),
        yellow=(" ▄▀▀▀▄ ", " █   █ ", " ▀▄▄▄▀ "),
        empty=("       ", "   ·   ", "       "),
    ),
    CellLook(
        "roomy",
        5,
        2,
        red=(" ▟█▙ ", " ▜█▛ "),
        yellow=(" ▞▀▚ ", " ▚▄▞ "),
        empty=("     ", "  ·  "),
    ),
    CellLook("compact", 3, 1, red=(" ● ",), yellow=(" ○ ",), empty=(" · ",)),
)

ASCII_LOOKS = (
    CellLook(
        "huge",
        11,
        5,
        red=(
            "   XXXXX   ",
            "  XXXXXXX  ",
            " XXXXXXXXX ",
            "  XXXXXXX  ",
            "   XXXXX   ",
        ),
        yellow=(
            "   OOOOO   ",
            "  O     O  ",
            " O       O ",
            "  O     O  ",
            "   OOOOO   ",
        ),
        empty=("           ", "           ", "     .     ", "           ", "           "),
    ),
    CellLook(
        "large",
        7,
        3,
        red=(" /XXX\\ ", " XXXXX ", " \\XXX/ "),
        yellow=(" /OOO\\ ", " O   O ", " \\OOO/ "),
        empty=("       ", "   .   ", "       "),
    ),
    CellLook(
        "roomy",
        5,
        2,
        red=(" /X\\ ", " \\X/ "),
        yellow=(" /O\\ ", " \\O/ "),
        empty=("     ", "  .  "),
    ),
    CellLook("compact", 3, 1, red=(" X ",), yellow=(" O ",), empty=(" . ",)),
)

#: Lines the board needs besides its cells: column numbers, the drop marker above the
#: cells and the pop marker below them.
EXTRA_LINES = 3


def choose_look(
    columns: int, rows: int, width: int, height: int, ascii_only: bool = False
) -> CellLook:
    """The largest look whose board fits in ``width`` × ``height``; compact if none fits."""
    looks = ASCII_LOOKS if ascii_only else UNICODE_LOOKS
    for look in looks:
        if columns * look.width <= width and board_height(rows, look) <= height:
            return look
    return looks[-1]


def board_height(rows: int, look: CellLook) -> int:
    """The lines a board of ``rows`` rows takes in ``look``: its cells, numbers and markers.

    The analysis row needs no line of its own: without one to spare it shares the pop
    marker's (see board_paint).
    """
    return rows * look.height + EXTRA_LINES


def smallest_look(ascii_only: bool = False) -> CellLook:
    """The look used when no other fits: the board's size can be no smaller."""
    return (ASCII_LOOKS if ascii_only else UNICODE_LOOKS)[-1]


def player_glyph(player: Player, ascii_only: bool = False) -> str:
    """The one-character disc of ``player`` (for status lines and the move list)."""
    return smallest_look(ascii_only).lines_for(player)[0].strip()
