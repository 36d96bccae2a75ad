"""Who is online, as the lobby shows it: one row a player; c challenges, b blocks, x reports.

On a player we block (marked ``[blocked]``) b unblocks instead, and the footer says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message

from c4tui.protocols.competition import PlayerEntry
from c4tui.ui.widgets.room_table import BLOCKED_MARK, RoomTable, Row

#: The columns: the name (the row's key), its marks, its rating, free or in a room.
PLAYER_COLUMNS = ("Player", "", "Rating", "State")
#: How a bot is marked in every list: in words, so no colour is needed to see it.
BOT_MARK = "[bot]"


def player_row(entry: PlayerEntry, blocked: bool = False) -> Row:
    """``ann``, its marks (``[bot]``, ``[blocked]``), ``1512``, ``free`` (or ``in a room``)."""
    state = "in a room" if entry.busy else "free"
    marks = [mark for mark, shown in ((BOT_MARK, entry.bot), (BLOCKED_MARK, blocked)) if shown]
    return entry.user, " ".join(marks), str(entry.rating), state


class PlayerTable(RoomTable):
    """The players online, keyed by name; ``c`` or Enter on one challenges them.

    ``b`` blocks the chosen player, ``x`` reports them (spec §7): the lobby does it.
    """

    BINDINGS = [
        Binding("c", "challenge", "Challenge", id="lobby.challenge"),
        Binding("b", "block", "Block", id="lobby.block"),
        Binding("b", "unblock", "Unblock", id="lobby.unblock"),
        Binding("x", "report", "Report", id="lobby.report"),
    ]

    @dataclass
    class ChallengeChosen(Message):
        """The person wants to challenge ``user``."""

        user: str

    @dataclass
    class BlockChosen(Message):
        """The person wants to block ``user``."""

        user: str

    @dataclass
    class UnblockChosen(Message):
        """The person wants to stop blocking ``user``."""

        user: str

    @dataclass
    class ReportChosen(Message):
        """The person wants to report ``user`` to the moderators."""

        user: str

    def __init__(self, *, id: str) -> None:
        super().__init__(PLAYER_COLUMNS, id=id)

    @property
    def chosen_blocked(self) -> bool:
        """The chosen player is one we block (its row says so)."""
        rows = {row[0]: row for row in self._shown or []}
        row = rows.get(self.chosen or "")
        return row is not None and BLOCKED_MARK in row[1]

    def show(self, rooms: list[Row]) -> None:
        """The rows, and b's word for the chosen player (Block, or Unblock)."""
        super().show(rooms)
        self.refresh_bindings()

    def on_data_table_row_highlighted(self) -> None:
        """Another player chosen: b blocks or unblocks them."""
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """b blocks a player we do not block, and unblocks one we do."""
        if action in ("block", "unblock"):
            return (action == "unblock") is self.chosen_blocked
        return super().check_action(action, parameters)

    def on_data_table_row_selected(self, selected: RoomTable.RowSelected) -> None:
        """Enter on a player challenges them too (the lobby's Enter plays in a room)."""
        selected.stop()
        self.action_challenge()

    def action_challenge(self) -> None:
        """Challenge the chosen player."""
        if self.chosen is not None:
            self.post_message(self.ChallengeChosen(self.chosen))

    def action_block(self) -> None:
        """Block the chosen player."""
        if self.chosen is not None:
            self.post_message(self.BlockChosen(self.chosen))

    def action_unblock(self) -> None:
        """Stop blocking the chosen player."""
        if self.chosen is not None:
            self.post_message(self.UnblockChosen(self.chosen))

    def action_report(self) -> None:
        """Report the chosen player."""
        if self.chosen is not None:
            self.post_message(self.ReportChosen(self.chosen))
