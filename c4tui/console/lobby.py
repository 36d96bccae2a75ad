"""``c4tui console --lobby``: play and watch people through a lobby server, in plain text.

After logging in, commands are typed at ``lobby>``; in a room, moves (``3``,
``p 3``), ``say TEXT`` and ``forfeit`` are typed while the game is shown move by
move. The game runs through the match driver like every other game: the other
player (or, when watching, both) sits in a ``RoomPlayer`` seat fed by the server.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from c4tui.client import words
from c4tui.client.challenges import room_of
from c4tui.client.clocks import both_clocks
from c4tui.client.comeback import Account, Comeback, worth_coming_back
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.outcomes import CreateOutcome, JoinOutcome, LoginOutcome, RegisterOutcome
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.client.words import Voice
from c4tui.console import challenges, room_requests, standing
from c4tui.console import history as past
from c4tui.console.comeback import (
    AT_PROMPT,
    GAVE_UP,
    BackInto,
    Playing,
    Rejoined,
    Waiting,
    Watching,
    Where,
    delays_for,
    gone_or_rejoined,
    reconnect,
    still_on,
    what_became_of,
)
from c4tui.console.game import (
    SERVER_LOST,
    move_hint,
    quietly,
    submit_typed_move,
    tolerate_bad_bytes,
)
from c4tui.console.lines import EndOfInput, PlainText, printable, read_secret, unless_left
from c4tui.console.lobby_help import HELP, LOBBY_PROMPT
from c4tui.console.room_requests import CREATE_USAGE, QUICK_USAGE, parse_create, parse_quick
from c4tui.engine import Player, describe_move, render_board, status_line
from c4tui.engine.text import WIN_MARK
from c4tui.match.backends.room_seat import follow_room, room_seats
from c4tui.match.driver import MatchDriver
from c4tui.match.events import GameOver, MatchEvent, MatchFailed, MovePlayed, SeatLeft, TurnStarted
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.net.tls import ClientTls
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import PASSWORD_RULE, valid_password


class LeftRoom(Exception):
    """``quit`` typed while waiting in a room: back to the lobby, not out of the program."""


@dataclass(frozen=True)
class LobbySettings:
    """What ``console --lobby`` was asked for."""

    host: str
    port: int
    user: str
    register: bool = False
    #: Tries to log in again after losing the server (None: ``comeback.BACKOFF``'s; 0: none).
    reconnect_tries: int | None = None
    #: Connect over TLS (None: plain TCP).
    tls: ClientTls | None = None


class ConsoleLobby(PlainText):
    """The lobby in plain text, on ``stdin`` and ``stdout``."""

    def __init__(self, settings: LobbySettings, stdin: TextIO, stdout: TextIO) -> None:
        super().__init__(stdin, stdout)  # no echo: the first line of a script is a password
        self.settings = settings
        self._stdin = stdin
        #: Where we are: where to go back to after logging in again by ourselves.
        self.where: Where = AT_PROMPT
        self._ratings_heard = standing.rating_listener(
            settings.user, lambda text: self.interject(text, LOBBY_PROMPT)
        )

    def _heard_at_prompt(self, message: ServerMessage) -> None:
        """A push at ``lobby>``: new ratings, a challenge, a decline (or our challenge's BEGIN)."""
        self._ratings_heard(message)
        challenges.heard(message, say=partial(self.interject, prompt=LOBBY_PROMPT))

    async def run(self) -> int:
        """Log in, then obey commands until quit or the end of input; the exit status."""
        settings = self.settings
        try:
            password = await self._password()
            link = await LobbyLink.open(settings.host, settings.port, tls=settings.tls)
        except EndOfInput:
            return 0
        except NetworkError as error:
            self.say(f"Network problem: {error}")
            return 1
        self.link = link
        try:
            if not await self._log_in(link, password, settings.register):
                return 1
            self.say(f"Logged in as {settings.user}. Type help for the commands.")
            return await self._session(
                Account(settings.host, settings.port, settings.user, password, tls=settings.tls)
            )
        except EndOfInput:
            self.say("End of input: goodbye.")
            return 0
        except (NetworkError, ProtocolError) as error:
            self.say(f"Network problem: {error}")
            return SERVER_LOST if self.link.lost else 1
        finally:
            await self.link.close()

    async def _session(self, account: Account) -> int:
        """The lobby until quit, logging in again by ourselves each time the link is lost.

        Raises NetworkError when it is lost and coming back would be wrong (BYE:elsewhere)
        or was not asked for (``--reconnect-tries 0``).
        """
        returned: Comeback | None = None
        while await self._until_lost(account.password, returned):
            answer = await reconnect(
                self, self.link, account, delays_for(self.settings.reconnect_tries)
            )
            if not isinstance(answer, Comeback):
                self.say(f"Network problem: {answer}" if answer else GAVE_UP)
                return SERVER_LOST
            await self.link.close()
            self.link = answer.link
            returned = answer
        return 0

    async def _until_lost(self, password: str, returned: Comeback | None) -> bool:
        """The lobby until quit: False; True once the link is lost and worth coming back.

        ``returned``: just logged in again by ourselves; first back where we were.
        """
        try:
            back = await what_became_of(self.where, returned, self.say) if returned else None
            while await self._lobby(self.link, back):
                back = None
                self.link = await self._log_in_again(self.link, password)
            return False
        except NetworkError:
            if self.settings.reconnect_tries != 0 and worth_coming_back(self.link):
                return True
            raise

    async def _password(self) -> str:
        """Without echo at a terminal; from the first line of input otherwise (scripts)."""
        if self._stdin.isatty():
            prompt = f"Password for {self.settings.user}: "
            return await read_secret(prompt)
        return await self.ask("")

    async def _lobby(self, link: LobbyLink, back: BackInto | None = None) -> bool:
        """Obey commands at ``lobby>``: False once quit, True on leaving a room.

        ``back`` is the room to go back into first (after logging in again by ourselves).
        A game the server puts us back in (REJOIN, right after logging in) is played on.
        """
        try:
            if back is not None:
                await self._back_into(link, back)
            while True:
                self.where = AT_PROMPT
                try:
                    heard = gone_or_rejoined(link, self._heard_at_prompt)
                    if not await self._command(
                        link, await self.ask_unless_gone(LOBBY_PROMPT, heard)
                    ):
                        return False
                except Rejoined as rejoined:
                    self.say(still_on(rejoined.room))
                    await self._in_room(link, rejoined.room)
                except challenges.ChallengeAccepted as accepted:
                    room = await room_of(link, accepted.begin)
                    await self._in_room(link, room, begun=accepted.begin)
        except LeftRoom:
            return True

    async def _back_into(self, link: LobbyLink, back: BackInto) -> None:
        """Into our game again (the server's REJOIN), or into the room we watched."""
        if back.watch:
            await self._enter(link, back.room, wire.Mode.VIEWER)
        else:
            await self._in_room(link, back.room)

    async def _log_in_again(self, link: LobbyLink, password: str) -> LobbyLink:
        """Hang up and log in afresh: the lobby protocol's only way out of a room.

        Raises NetworkError when the server is gone or refuses us now.
        """
        self.say("Leaving the room…")
        await link.close()
        link = await LobbyLink.open(self.settings.host, self.settings.port, tls=self.settings.tls)
        if not await self._log_in(link, password, register=False):
            await link.close()
            raise NetworkError("could not log in again after leaving the room.")
        self.say("You left the room. Back in the lobby.")
        return link

    async def _log_in(self, link: LobbyLink, password: str, register: bool = False) -> bool:
        user = self.settings.user
        if not valid_password(password):  # the server would refuse it (and the wire not carry it)
            self.say(f"A password is {PASSWORD_RULE}.")
            return False
        if register:
            registered = await link.register(user, password)
            if registered is not RegisterOutcome.CREATED:
                self.say(words.REGISTER.said(registered, Voice.CONSOLE))
                return False
            self.say("Account created.")
        logged_in = await link.login(user, password)
        if logged_in is not LoginOutcome.LOGGED_IN:
            self.say(words.LOGIN.said(logged_in, Voice.CONSOLE))
        return logged_in is LoginOutcome.LOGGED_IN

    # ----- lobby commands ------------------------------------------------------------

    async def _command(self, link: LobbyLink, line: str) -> bool:
        """Carry out one command; False to quit."""
        word, _, rest = line.strip().partition(" ")
        commands: dict[str, Callable[[LobbyLink, str], Awaitable[None]]] = {
            "rooms": lambda link, rest: room_requests.list_rooms(link, self.say),
            "create": self._create,
            "join": lambda link, rest: self._enter(link, rest, wire.Mode.PLAYER),
            "watch": lambda link, rest: self._enter(link, rest, wire.Mode.VIEWER),
            "quick": self._quick,
            "history": lambda link, rest: past.history(link, rest, self.say),
            "show": lambda link, rest: past.show(link, rest, self.say),
            "save": lambda link, rest: past.save(link, rest, self.say),
            "profile": lambda link, rest: standing.profile(link, rest, self.say),
            "leaderboard": lambda link, rest: standing.leaderboard(link, self.say),
            "password": lambda link, rest: standing.password(link, self.ask_secret, self.say),
            "challenge": lambda link, rest: challenges.challenge(link, rest, self.say),
            "accept": lambda link, rest: challenges.accept(link, rest, self.say),
            "decline": lambda link, rest: challenges.decline(link, rest, self.say),
            "rematch": lambda link, rest: challenges.rematch(link, rest, self.say),
            "players": lambda link, rest: challenges.players(link, rest, self.say),
        }
        if word in ("quit", "exit"):
            return False
        if word in commands:
            await commands[word](link, rest.strip())
        elif word:
            self.say(HELP)
        return True

    async def _create(self, link: LobbyLink, rest: str) -> None:
        request = parse_create(rest)
        if request is None:
            self.say(CREATE_USAGE)
            return
        name = request.name
        created = await link.create(name, request.game, request.terms)
        if created is not CreateOutcome.CREATED:
            self.say(words.CREATE.said(created, Voice.CONSOLE))
            return
        terms = request.described_terms
        self.say(f"Room {name!r} created{terms}: waiting for a second player (quit leaves).")
        await self._in_room(link, name)

    async def _enter(self, link: LobbyLink, name: str, mode: wire.Mode) -> None:
        joined = await link.join(name, mode)
        if joined is not JoinOutcome.JOINED:
            self.say(words.JOIN.said(joined, Voice.CONSOLE))
            return
        await self._in_room(link, name, watching=mode is wire.Mode.VIEWER)

    async def _quick(self, link: LobbyLink, rest: str) -> None:
        request = parse_quick(rest)
        if request is None:
            self.say(QUICK_USAGE)
            return
        room = await link.quick_play(request.game, request.terms)
        if room is None:
            self.say(words.QUICK_PLAY_REFUSED.said(Voice.CONSOLE))
            return
        waiting = "waiting for an opponent if nobody is there yet (quit leaves)"
        self.say(f"In room {room}{request.described_terms}: {waiting}.")
        await self._in_room(link, room)

    # ----- in a room -----------------------------------------------------------------

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
            if line in ("quit", "leave"):
                raise LeftRoom
            if line.startswith("say "):
                await self._unless_gone(link.send(f"CHAT:{line[4:].strip()}"))
            elif line:
                self.say("Waiting for the game: say TEXT to chat, quit to leave the room.")

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
        game.on_clock = lambda reading: self._clock_came(game)
        self._clock_owed = False
        events = driver.listen()
        driver.start()
        typing = asyncio.create_task(self._typed_in_game(driver, game, mine))
        try:
            await unless_left(self._follow(driver, events, game, mine), typing)
        except EndOfInput:  # Ctrl-D: c4tui ends, and a game we play in counts as forfeited
            if mine is not None and not driver.is_over:
                await self._unless_gone(game.forfeit())
            raise
        finally:
            typing.cancel()
            await driver.close()
        # Only now: a line typed after it is for the lobby, not the game's reader.
        self.say("Back in the lobby.")

    async def _follow(
        self,
        driver: MatchDriver,
        events: asyncio.Queue[MatchEvent],
        game: RoomGame,
        mine: Player | None,
    ) -> None:
        names = game.names
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
                    self.say(f"Your move ({move_hint(event.state.rules)}), say TEXT, or forfeit:")
            elif isinstance(event, MovePlayed) and event.player is mine:
                sent = len(event.moves)
            elif isinstance(event, MovePlayed):
                self.say(f"{driver.seats[event.player].label}: {describe_move(event.move)}")
            elif isinstance(event, SeatLeft):
                self.say(event.reason)
            elif isinstance(event, GameOver):
                self.say(render_board(event.state, mark_win=True))
                self._show_clocks(game)
                self.say(words.room_result(names, event.winner, mine))
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

    def _clock_came(self, game: RoomGame) -> None:
        """The first CLOCK came after the first board was shown: the clocks follow it."""
        if self._clock_owed:
            self._show_clocks(game)

    async def _typed_in_game(
        self, driver: MatchDriver, game: RoomGame, mine: Player | None
    ) -> None:
        """Lines typed during a game: moves (on our turn), chat, forfeit."""
        while True:
            line = (await self.ask("")).strip()
            if line.startswith("say "):
                await self._unless_gone(game.chat(line[4:].strip()))
            elif line == "forfeit" and mine is not None:
                await self._unless_gone(game.forfeit())
                driver.resign(mine, "You forfeited.")
            elif line in ("quit", "leave") and mine is not None:
                self.say("In a game: forfeit gives it up (Ctrl-D also ends c4tui).")
            elif line and mine is not None:
                refusal = submit_typed_move(driver, line)
                if refusal is not None:
                    self.say(refusal)
            elif line:
                self.say("Watching: say TEXT to chat; moves are the players'.")


def run_lobby(settings: LobbySettings, stdin: TextIO | None = None) -> int:
    """Entry point of ``c4tui console --lobby``."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    lobby = ConsoleLobby(settings, stdin, sys.stdout)
    return quietly(lambda: asyncio.run(lobby.run()))
