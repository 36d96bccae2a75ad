"""``console --lobby``'s challenges (spec §5.5): challenge, accept, decline, rematch, players.

The commands are typed at ``lobby>``; what the server pushes meanwhile (a
challenge to us, a decline, the BEGIN of a game our challenge started) is heard
there too (``heard``), so it is printed at once, wherever the prompt is.
"""

from __future__ import annotations

from collections.abc import Callable

from c4tui.client import in_public, words
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.outcomes import ChallengeOutcome
from c4tui.client.words import Voice
from c4tui.console.lines import printable
from c4tui.console.room_requests import SETTINGS_USAGE, parse_quick
from c4tui.console.typed import user_refused
from c4tui.match.settings import describe_game
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from c4tui.protocols.competition import Challenged, Declined, PlayerEntry

Say = Callable[[str], None]
CHALLENGE_USAGE = f"Usage: challenge USER {SETTINGS_USAGE}"


class ChallengeAccepted(Exception):
    """Our challenge (or rematch) was accepted: its game begins (BEGIN came at the prompt)."""

    def __init__(self, begin: wire.Begin) -> None:
        super().__init__(f"{begin.red} vs {begin.yellow}")
        self.begin = begin


def heard(message: ServerMessage, say: Say) -> None:
    """What the server pushed at ``lobby>``: a challenge, a decline, our challenge's game, chat.

    Raises ChallengeAccepted for a BEGIN (the game our challenge started); anything
    else is for nobody here.
    """
    if isinstance(message, Challenged):
        user = printable(message.user)
        offer = words.challenges_you(user, describe_game(*message.game), message.terms)
        say(f"{offer}. Type accept {user} or decline {user}.")
    elif isinstance(message, Declined):
        say(words.declined(printable(message.user)))
    elif isinstance(message, wire.Begin):
        raise ChallengeAccepted(message)
    elif isinstance(message, wire.ChatLine):  # in the room whose game just ended (§5.6)
        say(f"{message.user} says: {printable(message.text)}")
    elif message == wire.Notice(wire.NOROOM):  # our say at lobby>: no finished room to say it in
        say(words.NO_CHAT_AFTER)


async def challenge(link: LobbyLink, rest: str, say: Say) -> None:
    """``challenge USER [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]`` (red)."""
    user, _, settings = rest.partition(" ")
    chosen = parse_quick(settings, Colour.RED)  # what quick play takes, red unless told
    if not user or chosen is None:
        say(CHALLENGE_USAGE)
        return
    if (refusal := user_refused(user)) is not None:
        say(refusal)
        return
    game, terms, colour = chosen.game, chosen.terms, chosen.colour
    outcome = await link.challenge(user, game, terms, colour)
    if outcome is ChallengeOutcome.SENT:
        offer = f"{describe_game(*game)}, {terms.words}, {words.your_colour(colour)}"
        say(f"Challenge sent to {user} ({offer}): waiting for the answer.")
    elif outcome is ChallengeOutcome.NO_SUCH_USER:
        say(await in_public.challenge_refused(link, user, Voice.CONSOLE))
    else:
        say(words.CHALLENGE.said(outcome, Voice.CONSOLE, user=user))


async def accept(link: LobbyLink, user: str, say: Say) -> None:
    """``accept USER``. Raises ChallengeAccepted once the game begins (its BEGIN came)."""
    if not user:
        say("Usage: accept USER")
    elif (refusal := user_refused(user)) is not None:
        say(refusal)
    elif await link.accept(user):
        while not isinstance(begin := await link.pushed(), wire.Begin):
            pass  # nothing else is for us before BEGIN: we are entering a room
        raise ChallengeAccepted(begin)
    else:
        say(f"No challenge from {user} is open (withdrawn, or {user} is busy now).")


async def decline(link: LobbyLink, user: str, say: Say) -> None:
    """``decline USER``."""
    if not user:
        say("Usage: decline USER")
        return
    if (refusal := user_refused(user)) is not None:
        say(refusal)
        return
    await link.decline(user)
    say(f"Declined {user}'s challenge.")


async def rematch(link: LobbyLink, rest: str, say: Say) -> None:
    """``rematch``: the last game again, colours swapped (within a minute of its end)."""
    if await link.rematch():
        say("Rematch asked: waiting for the answer.")
    else:
        say("No rematch: your last game ended more than a minute ago, or your opponent is busy.")


async def players(link: LobbyLink, rest: str, say: Say) -> None:
    """``players``: who is online, with rating, free or in a room, and which are bots."""
    for entry in await link.players():
        say(player_line(entry))


def player_line(entry: PlayerEntry) -> str:
    """``ann                   1512  free`` or ``robo …  busy  [bot]``."""
    state = "busy" if entry.busy else "free"
    bot = "  [bot]" if entry.bot else ""
    return f"{entry.user:<20} {entry.rating:>5}  {state}{bot}"
