"""``c4tui console --lobby``: play and watch people through a lobby server, in plain text.

After logging in, commands are typed at ``lobby>``; in a room, moves (``3``,
``p 3``), ``say TEXT`` and ``forfeit`` are typed while the game is shown move by
move. The game runs through the match driver like every other game: the other
player (or, when watching, both) sits in a ``RoomPlayer`` seat fed by the server.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from c4tui.client import in_public, public_words, words
from c4tui.client.challenges import room_of
from c4tui.client.comeback import Account, Comeback
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.outcomes import CreateOutcome, JoinOutcome, LoginOutcome, RegisterOutcome
from c4tui.client.public import chat_refusal
from c4tui.client.table_talk import RULE_WAITS, ClaimWaits
from c4tui.client.words import Voice
from c4tui.console import challenges, lobby_puzzle, public, room_requests, standing
from c4tui.console import history as past
from c4tui.console.comeback import (
    AT_PROMPT,
    GAVE_UP,
    KEEP_ALIVE,
    BackInto,
    Rejoined,
    delays_for,
    gone_or_rejoined,
    keep_alive,
    reconnect,
    still_on,
    what_became_of,
    worth_coming_back_to,
)
from c4tui.console.game import (
    SERVER_LOST,
    quietly,
    tolerate_bad_bytes,
)
from c4tui.console.in_room import InRoom, LeftRoom
from c4tui.console.lines import EndOfInput, read_secret
from c4tui.console.lobby_help import HELP, LOBBY_PROMPT
from c4tui.console.room_requests import CREATE_USAGE, QUICK_USAGE, parse_create, parse_quick
from c4tui.console.typed import chat_refused, room_refused
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.net.tls import ClientTls
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import PASSWORD_RULE, valid_password


class PasswordsDiffer(Exception):
    """Registering, the password typed again was not the same: nothing is registered."""


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
    #: Seconds between the requests that keep the connection alive at ``lobby>``.
    keep_alive: float = KEEP_ALIVE
    #: How long after AWAY (or IDLE) a claim is said to be possible: the server's rule.
    claim_waits: ClaimWaits = RULE_WAITS


class ConsoleLobby(InRoom):
    """The lobby in plain text, on ``stdin`` and ``stdout``."""

    def __init__(self, settings: LobbySettings, stdin: TextIO, stdout: TextIO) -> None:
        super().__init__(stdin, stdout)  # no echo: the first line of a script is a password
        self.settings = settings
        self.claim_waits = settings.claim_waits
        self._stdin = stdin
        #: Where we are: where to go back to after logging in again by ourselves.
        self.where = AT_PROMPT
        self._ratings_heard = standing.rating_listener(
            settings.user, lambda text: self.interject(text, LOBBY_PROMPT)
        )

    def _heard_at_prompt(self, message: ServerMessage) -> None:
        """A push at ``lobby>``: new ratings, a challenge, a decline (or our challenge's BEGIN).

        Our ``say`` refused (muted, too fast: §7) is said too.
        """
        self._ratings_heard(message)
        if (refused := chat_refusal(message)) is not None:
            self.interject(public_words.CHAT.said(refused, Voice.CONSOLE), LOBBY_PROMPT)
        challenges.heard(message, say=partial(self.interject, prompt=LOBBY_PROMPT))

    async def run(self) -> int:
        """Log in, then obey commands until quit or the end of input; the exit status."""
        settings = self.settings
        try:
            password = await self._password()
            if settings.register and not await self._same_again(password):
                raise PasswordsDiffer(words.PASSWORDS_DIFFER)
            link = await LobbyLink.open(settings.host, settings.port, tls=settings.tls)
        except EndOfInput:
            return 0
        except (NetworkError, PasswordsDiffer) as error:
            self.say(f"Network problem: {error}" if isinstance(error, NetworkError) else str(error))
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
            sent_away = in_public.sent_away(self.link.bye_reason)  # banned, deleted: §7
            self.say(sent_away or f"Network problem: {error}")
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
                self, self.link, account, delays_for(self.settings.reconnect_tries), self.where
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
            if self.settings.reconnect_tries != 0 and worth_coming_back_to(self.link):
                return True
            raise

    async def _password(self, prompt: str = "") -> str:
        """Without echo at a terminal; from the next line of input otherwise (scripts)."""
        if self._stdin.isatty():
            return await read_secret(prompt or f"Password for {self.settings.user}: ")
        return await self.ask("")

    async def _same_again(self, password: str) -> bool:
        """Registering: the password typed again is the same (a typo would lock us out).

        One against the rules is not asked again: logging in says the rule at once.
        """
        return not valid_password(password) or await self._password("Password again: ") == password

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
                    if not await self._command(link, await self._at_prompt(link)):
                        return False
                except Rejoined as rejoined:
                    self.say(still_on(rejoined.room))
                    await self._in_room(link, rejoined.room)
                except challenges.ChallengeAccepted as accepted:
                    room = await room_of(link, accepted.begin)
                    await self._in_room(link, room, begun=accepted.begin)
        except LeftRoom:
            return True

    async def _at_prompt(self, link: LobbyLink) -> str:
        """The next command typed at ``lobby>``, the connection kept alive meanwhile.

        Raises NetworkError once the server is gone, Rejoined or ChallengeAccepted for
        what it pushes meanwhile.
        """
        alive = asyncio.create_task(keep_alive(link, self.settings.keep_alive))
        try:
            heard = gone_or_rejoined(link, self._heard_at_prompt)
            return await self.ask_unless_gone(LOBBY_PROMPT, heard)
        finally:
            alive.cancel()

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
            "say": self._say_after,
            "puzzle": self._puzzle,
            **self._public_commands(),
        }
        if word in ("quit", "exit"):
            return False
        if word == "delete-account":  # once the account is gone, so is c4tui
            return not await public.delete_account(link, self.ask_secret, self.ask, self.say)
        if word in commands:
            await commands[word](link, rest.strip())
        elif word:
            await self._help(link)
        return True

    def _public_commands(self) -> dict[str, Callable[[LobbyLink, str], Awaitable[None]]]:
        """§7's commands: blocks and reports, and the moderators' (the server says who may)."""
        say = self.say
        return {
            "block": lambda link, rest: public.block(link, rest, say),
            "unblock": lambda link, rest: public.unblock(link, rest, say),
            "blocks": lambda link, rest: public.blocks(link, say),
            "report": lambda link, rest: public.report(link, rest, say),
            "ban": lambda link, rest: public.ban(link, rest, say),
            "unban": lambda link, rest: public.unban(link, rest, say),
            "mute": lambda link, rest: public.mute(link, rest, say),
            "reports": lambda link, rest: public.reports(link, say),
            "close-report": lambda link, rest: public.close_report(link, rest, say),
        }

    async def _help(self, link: LobbyLink) -> None:
        """The commands; a moderator's too, for a moderator (PROFILE's role says who is)."""
        self.say(HELP)
        mine = await link.profile(link.user)
        if mine is not None and in_public.is_moderator(mine.role):
            self.say(public.MODERATOR_HELP)

    async def _puzzle(self, link: LobbyLink, rest: str) -> None:
        """``puzzle [next]`` (§8), the connection kept alive while the puzzle is solved."""
        alive = asyncio.create_task(keep_alive(link, self.settings.keep_alive))
        try:
            await lobby_puzzle.puzzle(link, rest, self.ask, self.say)
        finally:
            alive.cancel()

    async def _say_after(self, link: LobbyLink, text: str) -> None:
        """``say TEXT`` at lobby>: to the room whose game just ended (§5.6: "gg")."""
        refusal = chat_refused(text)
        if refusal is not None:
            self.say(refusal)
        else:
            await link.send(f"CHAT:{text}")  # NOROOM, if there is none, is heard at the prompt

    async def _create(self, link: LobbyLink, rest: str) -> None:
        request = parse_create(rest)
        if request is None:
            self.say(CREATE_USAGE)
            return
        name = request.name
        if (refusal := room_refused(name)) is not None:
            self.say(refusal)
            return
        created = await link.create(name, request.game, request.terms, request.colour)
        if created is not CreateOutcome.CREATED:
            self.say(words.CREATE.said(created, Voice.CONSOLE))
            return
        described = request.described
        self.say(f"Room {name!r} created{described}: waiting for a second player (quit leaves).")
        await self._in_room(link, name)

    async def _enter(self, link: LobbyLink, name: str, mode: wire.Mode) -> None:
        if (refusal := room_refused(name)) is not None:
            self.say(refusal)
            return
        joined = await link.join(name, mode)
        if joined is JoinOutcome.NO_SUCH_ROOM and mode is wire.Mode.PLAYER:  # a block? (§7)
            self.say(await in_public.join_refused(link, name, Voice.CONSOLE))
            return
        if joined is not JoinOutcome.JOINED:
            self.say(words.JOIN.said(joined, Voice.CONSOLE))
            return
        if mode is wire.Mode.VIEWER:  # a waiting room shows nothing until its game begins
            self.say(f"Watching {name} (quit stops): its game shows once it is under way.")
        await self._in_room(link, name, watching=mode is wire.Mode.VIEWER)

    async def _quick(self, link: LobbyLink, rest: str) -> None:
        request = parse_quick(rest)
        if request is None:
            self.say(QUICK_USAGE)
            return
        room = await link.quick_play(request.game, request.terms, request.colour)
        if room is None:
            self.say(words.QUICK_PLAY_REFUSED.said(Voice.CONSOLE))
            return
        waiting = "waiting for an opponent if nobody is there yet (quit leaves)"
        self.say(f"In room {room}{request.described}: {waiting}.")
        await self._in_room(link, room)


def run_lobby(settings: LobbySettings, stdin: TextIO | None = None) -> int:
    """Entry point of ``c4tui console --lobby``."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    lobby = ConsoleLobby(settings, stdin, sys.stdout)
    return quietly(lambda: asyncio.run(lobby.run()))
