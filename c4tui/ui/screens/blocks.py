"""Whom you block (BLOCKS, spec §7), and unblocking them.

One row a player, by name. While you block someone their chat never reaches you,
and neither of you can challenge, join or be paired with the other (each may
still watch the other's games). ``u`` (or Delete) unblocks the chosen player,
r fetches the list again, Esc goes back. Blocking is done where the player is
seen: the lobby's player list, a profile, a game.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from c4tui.client import in_public
from c4tui.client.link import LobbyLink
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.public_actions import PublicActions
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.room_table import RoomTable

#: What a block does, above the list.
WHAT_A_BLOCK_DOES = (
    "Their chat never reaches you, and neither of you can challenge, join or be paired "
    "with the other. u unblocks the chosen player; Esc goes back."
)


class BlocksScreen(Screen[None]):
    """The players you block; u unblocks one, Esc goes back.

    Args:
        link: the lobby connection (logged in).
    """

    DEFAULT_CSS = """
    BlocksScreen #blocks-title { text-style: bold; margin: 1 2 0 2; height: auto; }
    BlocksScreen #blocks-help { color: $text-muted; margin: 0 2 1 2; height: auto; }
    BlocksScreen RoomTable { height: 1fr; margin: 0 2; }
    BlocksScreen #blocks-status { margin: 1 2 0 2; height: auto; }
    BlocksScreen #blocks-status.-error { color: $error; text-style: bold; }
    """

    BINDINGS = [
        Binding("u,delete", "unblock", "Unblock", id="blocks.unblock"),
        Binding("r", "refresh", "Refresh", id="blocks.refresh"),
        Binding("escape", "leave", "Back", id="blocks.leave"),
    ]

    def __init__(self, link: LobbyLink) -> None:
        super().__init__()
        self.link = link
        self.public = PublicActions(self, lambda: self.link, self._say)
        #: Whom we block, as last fetched.
        self.blocked: list[str] = []

    def compose(self) -> ComposeResult:
        """Title, what a block does, the list, a status line, the footer."""
        with Vertical():
            yield Static(f"Whom you block ({self.link.user})", id="blocks-title", markup=False)
            yield Static(WHAT_A_BLOCK_DOES, id="blocks-help")
            yield RoomTable(("Player",), id="blocks")
            yield Static("", id="blocks-status", markup=False)
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """The list, fetched."""
        self.query_one(RoomTable).focus()
        self.action_refresh()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#blocks-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def action_refresh(self) -> None:
        """Fetch the list again."""
        self._fetch()

    @work(group="blocks", exclusive=True, exit_on_error=False)
    async def _fetch(self, quietly: bool = False) -> None:
        """The list; ``quietly``: what was just done stays in the status line."""
        try:
            blocked = await self.link.blocks()
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}", error=True)
            return
        self.blocked = sorted(blocked or [], key=str.casefold)
        self.query_one(RoomTable).show([(user,) for user in self.blocked])
        if not quietly:
            self._say(in_public.blocks_line(blocked))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Unblock only with someone to unblock."""
        return bool(self.blocked) if action == "unblock" else True

    def action_unblock(self) -> None:
        """Stop blocking the chosen player (the list is fetched again)."""
        user = self.query_one(RoomTable).chosen
        if user is not None:
            self.public.unblock(user, then=lambda: self._fetch(quietly=True))

    def action_leave(self) -> None:
        """Back to the lobby."""
        self.dismiss(None)
