"""Challenges in the app (spec §5.5): hearing them, answering them, asking for them.

``ChallengeListener`` is a widget without looks that a screen holds: while we are
in no room (the lobby's lists, an online game that is over), it hears what the
server pushes: a challenge to us pops up (``ChallengeDialog``: a accepts, d or Esc
declines), a decline is said, and the BEGIN of a game a challenge began is posted
(``Begun``) for the screen to open it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker

from c4tui.client import in_public, words
from c4tui.client.challenges import challenge_game, why_declined
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.outcomes import ChallengeOutcome
from c4tui.client.room_game import RoomGame
from c4tui.client.words import Voice
from c4tui.match.settings import MatchSettings, describe_game
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from c4tui.protocols.competition import Challenged, Declined
from c4tui.ui.screens.challenge import ChallengeDialog

#: What reaches a screen: a challenge to us, a decline, or a game that began.
ChallengeNews = Challenged | Declined | wire.Begin


async def next_news(
    link: LobbyLink, other: Callable[[ServerMessage], None] = lambda message: None
) -> ChallengeNews:
    """The next challenge, decline or BEGIN the server pushes; anything else goes to ``other``.

    Raises NetworkError once the link is gone.
    """
    while True:
        message = await link.pushed()
        if isinstance(message, Challenged | Declined | wire.Begin):
            return message
        other(message)  # a RATING after a game, say: for whoever listens


def game_offered(settings: MatchSettings) -> str:
    """The menu's game and terms in words: ``7 × 6 Classic, rated 3+2`` (all quick play asks)."""
    return (
        f"{describe_game(settings.columns, settings.rows, settings.rules)}, {settings.terms.words}"
    )


def asked_for(settings: MatchSettings) -> str:
    """``7 × 6 Classic, rated 3+2`` (and ``, you play yellow`` unless red): a room or challenge."""
    colour = settings.lobby_colour
    said = "" if colour is Colour.RED else f", {words.your_colour(colour)}"
    return f"{game_offered(settings)}{said}"


def colour_chosen(settings: MatchSettings) -> str:
    """``; you play yellow in the rooms you create…``: the menu's colour, for the lobby's help.

    Nothing for red (the wire's default, as before).
    """
    colour = settings.lobby_colour
    if colour is Colour.RED:
        return ""
    yours = "random colours" if colour is Colour.RANDOM else words.your_colour(colour)
    return f"; {yours} in the rooms you create and the challenges you send"


async def challenge(link: LobbyLink, user: str, settings: MatchSettings) -> tuple[str, bool]:
    """Challenge ``user`` with the menu's game, terms and colour; what to say, and if an error."""
    game = (settings.columns, settings.rows, settings.rules)
    outcome = await link.challenge(user, game, settings.terms, settings.lobby_colour)
    if outcome is ChallengeOutcome.SENT:
        return f"You challenged {user} ({asked_for(settings)}): waiting for {user}…", False
    if outcome is ChallengeOutcome.NO_SUCH_USER:
        return await in_public.challenge_refused(link, user, Voice.APP), True
    return words.CHALLENGE.said(outcome, Voice.APP, user=user), True


async def answer(link: LobbyLink, user: str, accepted: bool) -> str:
    """Accept (its BEGIN follows) or decline ``user``'s challenge; what to say."""
    if not accepted:
        await link.decline(user)
        return f"You declined {user}'s challenge."
    if await link.accept(user):
        return f"You accepted {user}'s challenge: the game begins…"
    return f"{user}'s challenge is no longer open ({user} left, or is playing)."


async def rematch(link: LobbyLink, opponent: str) -> str:
    """Ask the last game's opponent for another, colours swapped; what to say."""
    if await link.rematch():
        return f"Rematch asked: waiting for {opponent}…"
    return f"No rematch: more than a minute has passed, or {opponent} is busy or gone."


class ChallengeListener(Widget):
    """Hears challenges for the screen that holds it, while ``listen`` runs (in no room).

    Args:
        link: the connection in use (it changes when the app comes back by itself).
        say: how the screen says things (its status line, its panel).
        other: what to do with any other push heard meanwhile (a RATING after a game).
    """

    DEFAULT_CSS = "ChallengeListener { display: none; }"

    @dataclass
    class Begun(Message):
        """A game a challenge (or a rematch) began: the screen opens it."""

        game: RoomGame
        room: str

    def __init__(
        self,
        link: Callable[[], LobbyLink],
        say: Callable[[str], None],
        other: Callable[[ServerMessage], None] = lambda message: None,
    ) -> None:
        super().__init__()
        self._link = link
        self._say = say
        self._other = other
        self._hearing: Worker[None] | None = None

    def listen(self) -> None:
        """Hear challenges from now on (until ``stop``, a game begun, or a lost link).

        Already hearing, it goes on: restarted, it could drop a BEGIN it had just read.
        """
        if self._hearing is None or self._hearing.is_finished:
            self._hearing = self._hear()

    def stop(self) -> None:
        """Stop hearing: something else reads what the server pushes now (a room's wait)."""
        self.workers.cancel_group(self, "news")

    @work(group="news", exclusive=True, exit_on_error=False)
    async def _hear(self) -> None:
        link = self._link()
        try:
            while True:
                news = await next_news(link, self._other)
                if isinstance(news, Challenged):
                    dialog = ChallengeDialog(news)
                    self.app.push_screen(dialog, partial(self._answered, news.user))
                elif isinstance(news, Declined):
                    self._say(await why_declined(link, news.user))
                else:
                    game, room = await challenge_game(link, news)
                    break
        except (NetworkError, ProtocolError, TimeoutError):
            return  # the screen notices a lost link itself, and comes back
        while isinstance(self.app.screen, ChallengeDialog):  # we play now: the others wait no more
            self.app.screen.dismiss(False)
        self.post_message(self.Begun(game, room))

    def _answered(self, user: str, accepted: bool | None) -> None:
        """The popup's answer: sent, and said."""
        self._answer(user, bool(accepted))

    @work(group="answer", exit_on_error=False)
    async def _answer(self, user: str, accepted: bool) -> None:
        try:
            self._say(await answer(self._link(), user, accepted))
        except (NetworkError, ProtocolError, TimeoutError) as problem:
            self._say(f"Not answered: {problem}")

    def ask_rematch(self, opponent: str) -> None:
        """REMATCH: the last game again, colours swapped, if ``opponent`` agrees."""
        self._rematch(opponent)

    @work(group="rematch", exclusive=True, exit_on_error=False)
    async def _rematch(self, opponent: str) -> None:
        try:
            self._say(await rematch(self._link(), opponent))
        except (NetworkError, ProtocolError, TimeoutError) as problem:
            self._say(f"No rematch: {problem}")
