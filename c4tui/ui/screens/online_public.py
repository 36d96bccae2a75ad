"""The online game screen's part for the lobby in public (spec §7): block or report the opponent.

``B`` blocks the opponent (their chat no longer reaches you; the game goes on;
``B`` again unblocks: whom we block is the lobby's, ``OnlineSession.blocked``),
``X`` reports them to the moderators (a dialog asks what about); both are in the
command palette too (Ctrl+P), where a viewer finds them for either player. The
footer has no room for them: the help screen lists them. What came of each is
said in a notification. Banned or deleted mid-game (BYE:banned, BYE:deleted), the
panel says so in those words; nothing logs in again. ``OnlineGameScreen`` is built
on this part.

The palette also opens either player's profile (Esc there comes back to the game),
and a moderator (our own PROFILE's role, learnt by the lobby) finds "Ban"
and "Mute" for each player there, as the lobby's profile has them (spec §7; the
server checks again). A lobby game has no analysis: ``b`` (the best line) says so,
and the palette offers no hint, analysis, undo or new game.
"""

from __future__ import annotations

from functools import partial

from textual.binding import Binding, BindingType

from c4tui.client import in_public
from c4tui.client.room_game import RoomGame
from c4tui.engine import Player
from c4tui.ui.commands import PaletteCommand
from c4tui.ui.online_session import OnlineSession
from c4tui.ui.public_actions import PublicActions
from c4tui.ui.screens.game_keys import GameCommand
from c4tui.ui.screens.online_comeback import ComingBackGame
from c4tui.ui.screens.profile import ProfileScreen

PUBLIC_GAME_BINDINGS: list[BindingType] = [
    Binding("B", "block_opponent", "Block", show=False, id="online.block"),
    Binding("X", "report_opponent", "Report", show=False, id="online.report"),
]
#: This part's actions (a player's only: a viewer uses the palette).
PUBLIC_GAME_ACTIONS = frozenset({"block_opponent", "report_opponent"})
#: What a lobby game has no use for (no help from the computer against a person).
HIDDEN_ACTIONS = frozenset({"hint", "toggle_analysis", "undo", "new_game"})
#: What ``b`` says in a lobby game: its analysis key (a) aborts here.
NO_ANALYSIS = "No analysis in a game online, so no best line."
#: What the palette leaves out: what the game hides, and redo (nothing is undone).
NOT_IN_PALETTE = HIDDEN_ACTIONS | {"redo"}


class PublicGame(ComingBackGame):
    """A room's game whose players can be blocked and reported from it."""

    BINDINGS = PUBLIC_GAME_BINDINGS
    _session: OnlineSession
    room_game: RoomGame
    mine: Player | None
    _public: PublicActions | None = None

    @property
    def public(self) -> PublicActions:
        """Blocking and reporting, said in a notification (made when first used)."""
        if self._public is None:
            self._public = PublicActions(
                self, lambda: self._session.link, self._notify_public, ascii_only=self._ascii_only
            )
        return self._public

    def _block(self, user: str) -> None:
        """Block ``user`` or, if we do, unblock them (kept once the server agreed)."""
        folded = user.casefold()
        if folded in self.blocked:
            self.public.unblock(user, then=lambda: self._blocks_now(self.blocked - {folded}))
        else:
            self.public.block(user, then=lambda: self._blocks_now(self.blocked | {folded}))

    def _blocks_now(self, blocked: frozenset[str]) -> None:
        self._session.blocked = blocked

    @property
    def moderator(self) -> bool:
        """We are a moderator (the lobby learnt it): the palette bans and mutes."""
        return self._session.moderator

    @property
    def blocked(self) -> frozenset[str]:
        """Whom we block (folded), as the lobby last learnt it, and since."""
        return self._session.blocked

    def _notify_public(self, text: str, refused: bool) -> None:
        self.notify(text, severity="error" if refused else "information", markup=False)

    @property
    def opponent(self) -> str | None:
        """The other player's name; None for a viewer."""
        return None if self.mine is None else self.room_game.names[self.mine.other]

    def _failed(self, problem: str) -> None:
        """The game stopped: banned or deleted, said as such (no coming back after it)."""
        link = self._session.link
        super()._failed((in_public.sent_away(link.bye_reason) if link.lost else None) or problem)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A player's keys, while connected (coming back, nothing can be sent)."""
        if action in PUBLIC_GAME_ACTIONS:
            return self.mine is not None and not self.coming_back
        return super().check_action(action, parameters)

    def action_block_opponent(self) -> None:
        """Block the opponent (the game goes on; their chat no longer reaches you), or unblock."""
        if self.opponent is not None and self.check_action("block_opponent", ()):
            self._block(self.opponent)

    def action_report_opponent(self) -> None:
        """Report the opponent (a dialog asks what about)."""
        if self.opponent is not None and self.check_action("report_opponent", ()):
            self.public.report(self.opponent)

    def _in_palette(self, command: GameCommand) -> bool:
        """Not what a lobby game hides; a rematch once it can be asked (a player's, after)."""
        if command.action in NOT_IN_PALETTE:
            return False
        return command.action != "rematch" or bool(self.check_action("rematch", ()))

    def action_best_line(self) -> None:
        """No best line: a lobby game has no analysis (``a`` aborts here)."""
        self.panel.say(NO_ANALYSIS)

    def show_profile(self, user: str) -> None:
        """``user``'s profile over the game (a moderator's bans and mutes there too)."""
        profile = ProfileScreen(
            self._session.link,
            user,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
            back_to="the game",
        )
        self.app.push_screen(profile)

    def palette_commands(self) -> list[PaletteCommand]:
        """The game's commands, then blocking and reporting the opponent (or either player)."""
        commands = super().palette_commands()
        if self.coming_back:
            return commands
        names = self.room_game.names
        players = [names[player] for player in Player if player is not self.mine]
        keys = " (B)" if self.mine is not None else ""
        for user in players:
            commands.append(self._block_command(user, keys))
        report_keys = " (X)" if self.mine is not None else ""
        for user in players:
            report = "Tell the moderators about them (the game is kept with it)" + report_keys
            commands.append(
                PaletteCommand(f"Report {user}", report, partial(self.public.report, user))
            )
        return commands + self._people_commands(players)

    def _block_command(self, user: str, keys: str) -> PaletteCommand:
        """Block ``user``, or unblock them if we do."""
        if user.casefold() in self.blocked:
            unblock = "Their chat reaches you again; you may play each other" + keys
            return PaletteCommand(f"Unblock {user}", unblock, partial(self._block, user))
        block = "Their chat no longer reaches you; no games between you" + keys
        return PaletteCommand(f"Block {user}", block, partial(self._block, user))

    def _people_commands(self, players: list[str]) -> list[PaletteCommand]:
        """Each player's profile; a moderator's ban and mute of each."""
        commands = [
            PaletteCommand(
                f"Profile of {user}", "Rating, record, games", partial(self.show_profile, user)
            )
            for user in players
        ]
        if not self.moderator:
            return commands
        for user in players:
            ban = "Moderators: close their connections, for hours or until unbanned"
            mute = "Moderators: their chat reaches nobody, for minutes"
            commands.append(PaletteCommand(f"Ban {user}", ban, partial(self.public.ban, user)))
            commands.append(PaletteCommand(f"Mute {user}", mute, partial(self.public.mute, user)))
        return commands
