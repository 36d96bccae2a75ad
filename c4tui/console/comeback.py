"""``console --lobby`` coming back by itself when its connection drops (spec/protocols.md §5.1).

The lobby keeps a dropped player's game for its grace period, and a server restarted
on its database restores every game, so a console that loses its link logs in again
on its own (``client.comeback``), one line per try; ``quit`` or Ctrl-D gives up.
Back in, it picks up where it was — in its game (the server's REJOIN), watching its
room, at ``lobby>`` — or says what became of it: the game ended meanwhile, the room
is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.client import kept, words
from c4tui.client.comeback import (
    BACKOFF,
    Account,
    Comeback,
    come_back,
    last_game,
    why_lost,
    worth_coming_back,
)
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.room_game import RoomGame
from c4tui.client.words import Voice
from c4tui.console.lines import EndOfInput, PlainText, unless_left
from c4tui.engine import Player, Rules
from c4tui.net.errors import NetworkError
from c4tui.protocols import lobby as wire
from c4tui.protocols.presence import ByeReason

Say = Callable[[str], None]
#: Said when the person gives up logging in again (quit or Ctrl-D during the tries).
GAVE_UP = "Gave up logging in again: goodbye."
#: Seconds between the harmless requests that keep a console at ``lobby>`` from being cut
#: off as idle: well under the server's idle limit (``serve --idle-timeout``, 600 s).
KEEP_ALIVE = 240.0


@dataclass(frozen=True)
class AtPrompt:
    """At ``lobby>``, or running a command typed there."""


@dataclass(frozen=True)
class Waiting:
    """In ``room``, waiting for its game to begin (we created it, or quick play put us there)."""

    room: str


@dataclass(frozen=True)
class Watching:
    """Watching the game in ``room``."""

    room: str


@dataclass(frozen=True)
class Playing:
    """Playing in ``room``: who and what, to know our game again in the history."""

    room: str
    red: str
    yellow: str
    game: tuple[int, int, Rules]

    @classmethod
    def of(cls, room: str, game: RoomGame) -> Playing:
        """Where a player of ``game`` in ``room`` is."""
        geometry = game.state.geometry
        size_and_rules = (geometry.columns, geometry.rows, game.state.rules)
        return cls(room, game.names[Player.RED], game.names[Player.YELLOW], size_and_rules)


#: Where the console is, so that it knows where to go back to after logging in again.
Where = AtPrompt | Waiting | Watching | Playing
AT_PROMPT = AtPrompt()


@dataclass(frozen=True)
class BackInto:
    """A room to go back into once logged in again: our game (REJOIN), or one to watch."""

    room: str
    watch: bool  # join it as a viewer first (the server put a player back by itself)


def delays_for(tries: int | None) -> tuple[float, ...]:
    """The wait before each of ``tries`` tries: BACKOFF's (None: all of it), its last repeated."""
    if tries is None:
        return BACKOFF
    return tuple(BACKOFF[min(index, len(BACKOFF) - 1)] for index in range(tries))


async def reconnect(
    text: PlainText, lost: LobbyLink, account: Account, delays: tuple[float, ...], where: Where
) -> Comeback | str | None:
    """Log in again, saying each try; the comeback, why not (in words), or None: given up.

    Playing, the tries go on past ``delays`` (the game is still on: ``come_back``'s
    ``game_on``). ``quit`` typed meanwhile, or the end of input, gives up.
    """
    why = why_lost(lost)
    returning = come_back(
        account,
        on_try=lambda attempt: text.say(words.reconnecting(why, attempt)),
        delays=delays,
        voice=Voice.CONSOLE,
        game_on=isinstance(where, Playing),
    )
    typing = asyncio.create_task(_until_quit(text))
    try:
        return await unless_left(returning, typing)
    except EndOfInput:
        return None
    finally:
        typing.cancel()


async def _until_quit(text: PlainText) -> None:
    """Return once ``quit`` is typed (raises EndOfInput at the end of input)."""
    while (await text.ask("")).strip() not in ("quit", "exit"):
        text.say("Not connected: logging in again (quit gives up).")


def still_on(room: str) -> str:
    """Said when the server puts us back in our unfinished game (REJOIN)."""
    return f"Your game in {room} is still on: back in it."


async def what_became_of(where: Where, back: Comeback, say: Say) -> BackInto | None:
    """Say what became of ``where`` while we were away; the room to go back into, if any.

    A game the server put us back in comes first, wherever we were: it is ours.
    """
    if back.rejoined is not None:
        say(still_on(back.rejoined))
        return BackInto(back.rejoined, watch=False)
    match where:
        case Playing():
            say(await _how_it_ended(back.link, where))
        case Watching(room=room) if room in back.rooms:
            return BackInto(room, watch=True)
        case Watching(room=room):
            say(f"The game in {room} is over: its room is gone.")
        case Waiting(room=room):
            say(f"Your room {room} closed while you were away: create it again to wait on.")
        case AtPrompt():
            pass
    say("Back in the lobby.")
    return None


async def _how_it_ended(link: LobbyLink, game: Playing) -> str:
    """How our game ended while we were away, as the server kept it (HISTORY and GAME)."""
    ended = await last_game(link, (game.red, game.yellow))
    if ended is None or ended.game != game.game:
        return f"Your game in {game.room} is over."
    return f"The game ended while you were away: {kept.result_line(ended)}"


class Rejoined(Exception):
    """The server put us back in our game in ``room`` (its INPROGRESS comes next)."""

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self.room = room


def worth_coming_back_to(link: LobbyLink) -> bool:
    """``client.comeback.worth_coming_back``, and after BYE:idle too.

    The console keeps its link alive at ``lobby>``; a server that cut it anyway (an idle
    limit shorter than ``KEEP_ALIVE``) is one to log in to again, not to exit from.
    """
    return worth_coming_back(link) or (link.lost and link.bye_reason == ByeReason.IDLE.value)


async def keep_alive(link: LobbyLink, every: float) -> None:
    """Ask the server something harmless (its room list) every ``every`` seconds, for ever.

    Ends quietly once the link is gone: ``gone_or_rejoined`` tells the person.
    """
    with contextlib.suppress(NetworkError, TimeoutError):
        while True:
            await asyncio.sleep(every)
            await link.room_names(wire.Mode.VIEWER)


async def gone_or_rejoined(
    link: LobbyLink, heard: Callable[[ServerMessage], None] = lambda message: None
) -> str:
    """The server's hang-up in words; raises Rejoined when it puts us back in a game.

    What else the server pushes at the lobby prompt goes to ``heard`` (our new ratings).
    """
    gone = asyncio.ensure_future(link.gone())
    pushed: asyncio.Future[ServerMessage] | None = None
    try:
        while True:
            pushed = asyncio.ensure_future(link.pushed())
            await asyncio.wait({gone, pushed}, return_when=asyncio.FIRST_COMPLETED)
            if pushed.done() and pushed.exception() is None:
                message = pushed.result()
                if isinstance(message, wire.Rejoin):
                    raise Rejoined(message.room)
                heard(message)
            if gone.done():
                return gone.result()
    finally:
        gone.cancel()
        if pushed is not None:
            pushed.cancel()  # a message still to come is the next reader's (a room's BEGIN)
