"""``console --lobby`` in a room: waiting for its game, then playing or watching it.

The game runs through the match driver like every other game: the other player (or,
when watching, both) sits in a ``RoomPlayer`` seat fed by the server. Lines typed
meanwhile are read by a task that races the game's news (``lines.unless_left``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

from c4tui.client import public_words, words
from c4tui.client.clocks import ClockReading, both_clocks
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.public import chat_refusal
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.client.table_talk import RULE_WAITS, ClaimWaits
from c4tui.console import public
from c4tui.console.clock_warnings import LowTimeWarnings
from c4tui.console.comeback import AT_PROMPT, Playing, Waiting, Watching, Where
from c4tui.console.game import move_hint, submit_typed_move
from c4tui.console.lines import EndOfInput, PlainText, printable, unless_left
from c4tui.console.lobby_help import IN_GAME_HELP, WATCHING_HELP
from c4tui.console.table_talk import TableControls
from c4tui.console.typed import chat_refused
from c4tui.engine import GameState, Player, describe_move, render_board, status_line
from c4tui.engine.text import WIN_MARK
from c4tui.match.backends.room_seat import follow_room, room_seats
from c4tui.match.driver import MatchDriver
from c4tui.match.events import (
    GameOver,
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MovesTakenBack,
    SeatLeft,
    TurnStarted,
)
from c4tui.net.errors import NetworkError
from c4tui.protocols import lobby as wire
from c4tui.protocols.table_talk import BOTH_MOVED

#: What leaves a room we wait in or watch (back to ``lobby>``, not out of the program).
LEAVE_WORDS = ("quit", "leave", "back")


#: Asked before a game is given up (``forfeit``, Ctrl-D), as the app asks.
FORFEIT_QUESTION = "Forfeit the game? [y/N] "


class LeftRoom(Exception):
    """``quit`` typed while waiting in a room or watching: back to the lobby.

    The lobby protocol has no way out of a room but hanging up: the lobby logs in
    afresh, as the app does for a viewer leaving a game under way.
    """


class InRoom(PlainText):
    """A room's part of the console lobby: waiting, then the game to its end."""

    #: Where we are: where to go back to after logging in again by ourselves.
    where: Where = AT_PROMPT
    #: How long after AWAY (or IDLE) a claim is said to be possible (the server's rule).
    claim_waits: ClaimWaits = RULE_WAITS

    async def _in_room(
        self, link: LobbyLink, room: str, watching: bool = False, begun: wire.Begin | None = None
    ) -> None:
        """Wait for the game (chat shows meanwhile), then play or watch it to its end.

        ``begun``: the game's BEGIN, already come (a challenge of ours accepted).
        """
        self.where = Watching(room) if watching else Waiting(room)
        typing = asyncio.create_task(self._typed_while_waiting(link))
        message: ServerMessage | None = begun
        try:
            while not isinstance(message, wire.Begin | wire.InProgress):
                message = await unless_left(link.pushed(), typing)
                if isinstance(message, wire.ChatLine):
                    self.say(f"{message.user} says: {printable(message.text)}")
                elif (refused := chat_refusal(message)) is not None:  # muted, too fast (§7)
                    self.say(public_words.CHAT.said(refused, words.Voice.CONSOLE))
        finally:
            typing.cancel()
        game = await room_game_from(link, message, room)
        names = game.names
        match_up = f"{names[Player.RED]} (RED) against {names[Player.YELLOW]} (YELLOW)"
        playing = game.colour_of(link.user) is not None
        if playing:
            self.where = Playing.of(room, game)
        if isinstance(message, wire.Begin):
            self.say(f"Game on: {match_up}.")
        elif playing:  # a player back in its game (REJOIN)
            self.say(f"{words.BACK_IN_THE_GAME}: {match_up}; {message.to_move} is to move.")
        else:
            self.say(f"Watching {match_up}; {message.to_move} is to move.")
        try:
            await self._play(link, game)
        finally:
            await game.close()
        self.where = AT_PROMPT

    async def _typed_while_waiting(self, link: LobbyLink) -> None:
        """While waiting for a game: say TEXT chats; quit leaves the room (Ctrl-D, the program)."""
        while True:
            line = (await self.ask("")).strip()
            if line in LEAVE_WORDS:
                raise LeftRoom
            if line.startswith("say "):
                await self._chat(link, line[4:].strip())
            elif line == "help":
                self.say(WATCHING_HELP)
            elif await public.in_game(link, line, None, self.say):
                pass  # block USER, report USER REASON TEXT
            elif line:
                self.say("Waiting for the game: say TEXT to chat, quit to leave the room.")

    async def _chat(self, link: LobbyLink, text: str) -> None:
        """Send ``text`` to the room as a chat line, unless the wire cannot carry it."""
        refusal = chat_refused(text)
        if refusal is not None:
            self.say(refusal)
        else:
            await self._unless_gone(link.send(f"CHAT:{text}"))

    async def _unless_gone(self, sending: Awaitable[None]) -> None:
        """Send what was typed, or say that it cannot go (nobody would see it vanish)."""
        try:
            await sending
        except NetworkError as error:
            self.say(f"{error} Not sent: the connection is gone.")

    async def _play(self, link: LobbyLink, game: RoomGame) -> None:
        mine = game.colour_of(link.user)
        driver = MatchDriver(game.state, room_seats(game, mine))
        game.on_chat = lambda user, text: self.say(f"{user} says: {printable(text)}")
        game.on_presence = self.say
        follow_room(game, driver)  # forfeits, takebacks, draws agreed and aborts
        table = TableControls(game, mine, self.say, self.claim_waits)
        game.on_table_talk = table.heard
        said_presence = game.on_away_or_back

        def away_or_back(news: wire.Away | wire.Back) -> None:
            said_presence(news)  # in words, as before
            table.presence(news)  # and a claim possible after a while

        game.on_away_or_back = away_or_back
        low_time = LowTimeWarnings(mine, self.say) if mine is not None else None
        game.on_clock = lambda reading: self._clock_came(game, reading, low_time)
        self._clock_owed = False
        events = driver.listen()
        driver.start()
        typing = asyncio.create_task(self._typed_in_game(driver, game, table))
        try:
            await unless_left(self._follow(driver, events, game, table), typing)
        except EndOfInput:  # Ctrl-D: c4tui ends, and a game we play in counts as forfeited
            if mine is not None and not driver.is_over:
                await self._unless_gone(game.forfeit())
            raise
        finally:
            typing.cancel()
            table.close()
            if low_time is not None:
                low_time.close()
            await driver.close()
        # Only now: a line typed after it is for the lobby, not the game's reader.
        self.say("Back in the lobby.")

    async def _follow(
        self,
        driver: MatchDriver,
        events: asyncio.Queue[MatchEvent],
        game: RoomGame,
        table: TableControls,
    ) -> None:
        names, mine = game.names, table.mine
        sent = 0  # moves up to our last one: shown once the server's board shows them
        while True:
            event = await events.get()
            if isinstance(event, TurnStarted):
                if not event.submits and not await game.confirmed(sent):
                    continue  # our move never reached the board: the stop comes next
                self.say(render_board(event.state))
                self.say(status_line(event.state))
                self._show_clocks(game)
                if event.submits:
                    self.say(your_move(event.state, len(driver.moves)))
            elif isinstance(event, MovePlayed):
                table.moved(by_us=event.player is mine)
                if event.player is mine:
                    sent = len(event.moves)
                else:
                    self.say(f"{driver.seats[event.player].label}: {describe_move(event.move)}")
            elif isinstance(event, MovesTakenBack):  # agreed (§5.6): the board comes next
                sent = min(sent, len(event.moves))
                table.taken_back()
                self.say("The last move is taken back.")
            elif isinstance(event, SeatLeft):
                self.say(event.reason)
            elif isinstance(event, GameOver):
                self.say(render_board(event.state, mark_win=True))
                self._show_clocks(game)
                self.say(result_line(names, event, mine))
                if event.state.winner is not None:  # a four on the board, not a forfeit
                    self.say(f"(The winning four are marked {WIN_MARK}.)")
                return
            elif isinstance(event, MatchFailed):
                raise NetworkError(event.problem)

    def _show_clocks(self, game: RoomGame) -> None:
        """A timed game's clocks under its board; owed until the game's first CLOCK comes."""
        self._clock_owed = game.clock is None
        if game.clock is not None:
            self.say(both_clocks(game.clock, game.names, time.monotonic()))

    def _clock_came(
        self, game: RoomGame, reading: ClockReading, low_time: LowTimeWarnings | None
    ) -> None:
        """A CLOCK: warn if ours runs low; after the first board, the clocks follow it."""
        if low_time is not None:
            low_time.heard(reading)
        if self._clock_owed:
            self._show_clocks(game)

    async def _typed_unless_kept(self, mine: Player | None) -> str:
        """The next line typed in a game. Raises EndOfInput at its end, unless it is ours:

        Ctrl-D at a terminal asks first, as ``forfeit`` does (the game goes on unless
        yes). Piped input that ended cannot answer: the game is forfeited, as before.
        """
        while True:
            try:
                return await self.ask("")
            except EndOfInput:
                if mine is None or not self.at_terminal or await self._forfeit_confirmed():
                    raise

    async def _forfeit_confirmed(self) -> bool:
        """Ask before giving the game up (the end of input is a yes: nothing more can come)."""
        try:
            answer = (await self.ask(FORFEIT_QUESTION)).strip().lower()
        except EndOfInput:
            return True
        if answer in ("y", "yes"):
            return True
        self.say("Not forfeited: the game goes on.")
        return False

    async def _typed_in_game(
        self, driver: MatchDriver, game: RoomGame, table: TableControls
    ) -> None:
        """Lines typed in a game: moves (on our turn), chat, the table's words (draw…), forfeit.

        A viewer's quit leaves.
        """
        mine = table.mine
        while True:
            line = (await self._typed_unless_kept(mine)).strip()
            if line.startswith("say "):
                await self._chat(game.link, line[4:].strip())
            elif line == "forfeit" and mine is not None:
                if await self._forfeit_confirmed():
                    await self._unless_gone(game.forfeit())
                    driver.resign(mine, "You forfeited.")
            elif line in LEAVE_WORDS and mine is not None:
                self.say("In a game: forfeit gives it up (Ctrl-D also ends c4tui).")
            elif line in LEAVE_WORDS:
                raise LeftRoom
            elif line == "help":
                self.say(IN_GAME_HELP if mine is not None else WATCHING_HELP)
            elif await public.in_game(game.link, line, table.opponent, self.say):
                pass  # block, report (the opponent's, unless a user is named)
            elif await table.typed(line):
                pass
            elif line and mine is not None:
                refusal = submit_typed_move(driver, line)
                if refusal is not None:
                    self.say(refusal)
            elif line:
                self.say("Watching: say TEXT to chat, quit to stop watching.")


def your_move(state: GameState, played: int) -> str:
    """The prompt on our turn: how to move, and the table's word that fits now (§5.6).

    ``played``: the moves seen in this game (one come back into may have had more: its discs).
    """
    both_moved = max(played, state.disc_count) >= BOTH_MOVED
    table_word = "draw" if both_moved else "abort"
    return f"Your move ({move_hint(state.rules)}), say TEXT, {table_word}, or forfeit:"


def result_line(names: dict[Player, str], over: GameOver, mine: Player | None) -> str:
    """Who won; or a draw; or, when the board goes on, the players' agreement or the abort."""
    if over.winner is None and not over.state.is_over:  # a draw agreed, an abort (§5.6)
        return words.room_game_over(names, None, over.state, over.reason)
    off_the_board = "" if over.state.is_over else over.reason  # a forfeit, a time loss…
    return words.room_result(names, over.winner, mine, off_the_board)
