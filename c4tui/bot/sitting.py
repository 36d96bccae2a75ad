"""A bot sitting in the lobby: it logs in, takes challenges and quick-play seekers, plays.

Between games the bot stays in no room, so that anyone can challenge it (§5.5: a
user in a room is busy). It takes on quick play too: every few seconds it looks
for a quick-play room waiting with its settings and joins it, so a person asking
for quick play with them meets the bot within seconds. It never takes a rated
game against another bot unless told to. When the connection drops or the server
restarts, it logs in again by itself and plays on (a game under way comes back,
§5.1); when it is stopped, it forfeits the game it is in rather than leave it hanging.
When its chooser (an outside program) fails, it forfeits that game, says why, and
plays on. After a rated game it logs both players' new ratings (the RATING lines).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from dataclasses import dataclass

from c4tui.bot.game import Result, Table, play, rejoined_table
from c4tui.bot.thinking import first_move
from c4tui.client import words
from c4tui.client.comeback import BACKOFF, Account, Comeback, come_back, why_lost, worth_coming_back
from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.client.outcomes import JoinOutcome, LoginOutcome, RegisterOutcome
from c4tui.client.standing import RatingNews
from c4tui.client.words import Voice
from c4tui.engine import Rules
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.net.tls import ClientTls
from c4tui.outside.chooser import Chooser, ChooserError, OutsideFailure
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols.terms import CASUAL, Game, Terms

log = logging.getLogger("c4tui.bot")

#: Seconds between two looks for a quick-play room to join.
LOOK_SECONDS = 2.0
#: The name quick play gives the rooms it opens (``quick-<n>``, §4).
QUICK_ROOM = "quick-"
#: What the bot plays by quick play when not told: the app's default game.
DEFAULT_QUICK: Game = (7, 6, Rules.CLASSIC)
#: Seconds the bot, done with its games, waits for the last rated game's RATING lines.
RATING_SECONDS = 3.0


class Stopped(Exception):
    """The bot cannot go on (a refused login, another login took over): why, in words."""


@dataclass(frozen=True)
class BotSettings:
    """What ``c4tui bot`` was asked for (the password from the environment or a file)."""

    host: str
    port: int
    user: str
    password: str
    register: bool = False
    quick: Game = DEFAULT_QUICK
    quick_terms: Terms = CASUAL
    rated_against_bots: bool = False
    games: int | None = None  # stop after this many (None: never)
    tls: ClientTls | None = None

    @property
    def account(self) -> Account:
        """Where and as whom to log in again."""
        return Account(self.host, self.port, self.user, self.password, tls=self.tls)


class Bot:
    """One bot account in one lobby, playing with ``chooser``."""

    def __init__(self, settings: BotSettings, chooser: Chooser) -> None:
        self.settings = settings
        self.chooser = chooser
        self.link: LobbyLink | None = None
        self.tally: Counter[str] = Counter()
        self._terms = CASUAL  # the terms of the game whose BEGIN comes next
        self._news = RatingNews(settings.user)
        self._news_due = False  # a rated game has ended whose new ratings have not come

    @property
    def played(self) -> int:
        """Games played to their end."""
        return self.tally.total()

    async def run(self) -> None:
        """Log in, then play until ``games`` are played (or for ever).

        Raises Stopped (why) when the bot cannot go on, NetworkError when the server
        cannot be reached at the start.
        """
        self.link = await self._first_login()
        try:
            while not await self._sit(self.link):
                self.link = await self._come_back(self.link)
        finally:
            await self.link.close()

    async def _first_login(self) -> LobbyLink:
        settings = self.settings
        link = await LobbyLink.open(settings.host, settings.port, tls=settings.tls)
        try:  # a lobby's first line is LOGIN or REGISTER (§4): REGISTERBOT comes second
            outcome = await link.login(settings.user, settings.password)
            if outcome is LoginOutcome.NO_SUCH_USER and settings.register:
                await self._register(link)
                outcome = await link.login(settings.user, settings.password)
        except BaseException:
            await link.close()
            raise
        if outcome is not LoginOutcome.LOGGED_IN:
            await link.close()
            raise Stopped(words.LOGIN.said(outcome, Voice.CONSOLE, user=settings.user))
        log.info("logged in to %s:%d as %s", settings.host, settings.port, settings.user)
        return link

    async def _register(self, link: LobbyLink) -> None:
        """REGISTERBOT (the account did not exist; another may have taken the name since)."""
        outcome = await link.register(self.settings.user, self.settings.password, bot=True)
        if outcome is RegisterOutcome.CREATED:
            log.info("registered %s as a bot", self.settings.user)
        elif outcome is not RegisterOutcome.NAME_TAKEN:
            raise Stopped(words.REGISTER.said(outcome, Voice.CONSOLE))

    async def _sit(self, link: LobbyLink) -> bool:
        """Take challenges and quick play until done (True) or the link is lost (False).

        Raises Stopped when coming back would be wrong (another login took over).
        """
        try:
            while self.settings.games is None or self.played < self.settings.games:
                await self._next(link)
            await self._last_news(link)
            return True
        except (NetworkError, ProtocolError) as error:
            if not worth_coming_back(link):
                raise Stopped(link.problem or str(error)) from None
            log.info("%s: logging in again…", why_lost(link))
            return False

    async def _next(self, link: LobbyLink) -> None:
        """Wait a while for a push (a challenge, a game begun or back); else look for quick play."""
        try:
            async with asyncio.timeout(LOOK_SECONDS):
                message = await link.pushed()
        except TimeoutError:
            await self._join_quick_play(link)
            return
        if isinstance(message, competition.Challenged):
            await self._answer(link, message)
        elif isinstance(message, wire.Begin):
            await self._play(link, Table.begun(message, self.settings.user, self._terms))
        elif isinstance(message, wire.Rejoin):
            await self._play(link, await rejoined_table(link, message.room, self.settings.user))
        elif isinstance(message, competition.RatingChange):
            self._heard(message)

    def _heard(self, change: competition.RatingChange) -> None:
        """Log the new ratings once both of a rated game's RATING lines have come."""
        sentence = self._news.heard(change)
        if sentence is not None:
            self._news_due = False
            log.info("new ratings: %s", sentence)

    async def _last_news(self, link: LobbyLink) -> None:
        """Done: wait a little for the last rated game's new ratings, so they are logged too."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(RATING_SECONDS):
                while self._news_due:
                    message = await link.pushed()
                    if isinstance(message, competition.RatingChange):
                        self._heard(message)

    async def _answer(self, link: LobbyLink, challenge: competition.Challenged) -> None:
        """Accept a challenge the bot can and may play (BEGIN follows); decline the others."""
        refusal = await self._refusal(link, challenge.user, challenge.game, challenge.terms)
        if refusal is not None:
            await link.decline(challenge.user)
            log.info("declined %s's challenge: %s", challenge.user, refusal)
        elif await link.accept(challenge.user):
            self._terms = challenge.terms

    async def _refusal(self, link: LobbyLink, user: str, game: Game, terms: Terms) -> str | None:
        """Why the bot will not play ``user`` this game (None: it will)."""
        cannot = self.chooser.refusal(*game)
        if cannot is not None:
            return cannot
        if terms.rated and not self.settings.rated_against_bots:
            profile = await link.profile(user)
            if profile is None or profile.bot:
                return "no rated games against bots (--rated-against-bots allows them)"
        return None

    async def _join_quick_play(self, link: LobbyLink) -> None:
        """Join the oldest quick-play room waiting with the bot's settings, if there is one."""
        names = [n for n in await link.room_names(wire.Mode.PLAYER) if n.startswith(QUICK_ROOM)]
        for name in names:
            room = RoomSummary.of(name, await link.room_info(name))
            if room is None or not self._fits(room):
                continue
            if await self._refusal(link, room.waiter, room.game, room.terms) is not None:
                continue
            if await link.join(name, wire.Mode.PLAYER) is JoinOutcome.JOINED:
                self._terms = room.terms
                return

    def _fits(self, room: RoomSummary) -> bool:
        """A room waiting for a second player with the bot's quick-play settings."""
        settings = self.settings
        return (
            room.waiter not in ("", settings.user)
            and room.game == settings.quick
            and room.terms == settings.quick_terms
        )

    async def _play(self, link: LobbyLink, table: Table) -> None:
        """Play the game to its end and log one line about it."""
        try:
            result = await play(link, table, self.chooser)
        except asyncio.CancelledError:
            log.info("stopping: forfeited the game against %s", table.opponent)
            raise
        if result.failure is not None:
            log.warning("forfeited the game against %s: %s", result.opponent, result.failure)
        self.tally[result.outcome] += 1
        self._news_due = table.terms.rated
        log.info("game %d: %s", self.played, self._line(result))

    def _line(self, result: Result) -> str:
        tally = self.tally
        return (
            f"{result.outcome} against {result.opponent} ({result.how}; {result.game}); "
            f"so far {tally['won']} won, {tally['drawn']} drawn, {tally['lost']} lost"
        )

    async def _come_back(self, lost: LobbyLink) -> LobbyLink:
        """Log in again, trying for as long as it takes. Raises Stopped if refused."""
        await lost.close()
        account = self.settings.account
        address = f"{account.host}:{account.port}"
        while True:
            answer = await come_back(account, voice=Voice.CONSOLE)
            if isinstance(answer, Comeback):
                log.info(
                    "back in the lobby%s", f" and in {answer.rejoined}" if answer.rejoined else ""
                )
                return answer.link
            if answer != words.gave_up(address, len(BACKOFF)):
                raise Stopped(answer)
            log.info("no answer from %s yet: still trying", address)


async def run_bot(settings: BotSettings, chooser: Chooser, *, try_first: bool = False) -> int:
    """Run the bot until its games are played, it cannot go on, or Ctrl-C/SIGTERM; the status.

    With ``try_first`` (an outside program), the chooser is asked for a move before the
    bot logs in: a program that cannot answer stops the bot at once (status 1).
    A signal cancels the bot: the game it is in is forfeited, the link closed.
    """
    bot = Bot(settings, chooser)
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, task.cancel)
    try:
        if try_first:
            log.info("%s", await first_move(chooser))
        await bot.run()
        log.info("played %d game(s): done", bot.played)
        return 0
    except asyncio.CancelledError:
        log.info("stopped after %d game(s)", bot.played)
        return 0
    except (Stopped, NetworkError) as error:
        log.error("%s", error)
        return 1
    except (OutsideFailure, ChooserError) as failure:
        log.error("%s cannot play: %s", chooser.describe(), failure)
        return 1
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await chooser.close()
