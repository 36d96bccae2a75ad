"""The lobby's logged-in connection, shared by the lobby screen and the games it opens.

A dropped connection or a restarted server does not end a session (spec §5.1): the
screen showing logs in again by itself (``client.comeback``) and the session takes
the new connection, so the lobby goes on working after a game that came back, and a
game the server puts us back in (REJOIN) is entered once. What the screens show
meanwhile is theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from c4tui.client import comeback
from c4tui.client.comeback import BACKOFF, Account, Comeback, last_game
from c4tui.client.kept import result_line
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import JoinOutcome
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.engine import GameState, Move
from c4tui.match.backends.online import TICTACTOE_ROOMS, client_tls
from c4tui.match.score import Score
from c4tui.protocols import lobby as wire
from c4tui.ui.screens.login import LoggedIn, log_in

#: A viewer came back, and the room it watched is gone: its game ended meanwhile.
WATCHED_GAME_OVER = "The game you watched is over (its room is gone)."


def still_on(room: str) -> str:
    """Said when the server puts us back in our unfinished game in ``room`` (REJOIN)."""
    return f"Your game in {room} is still on: back in it."


def room_lost(room: str, back: str) -> str:
    """A creator came back (``back``: how), and the room it waited in is gone.

    Rooms are kept once their game began, not before.
    """
    return f"{back}: the room {room!r} you waited in is gone (c opens another)."


class OnlineSession:
    """The connection in use, and how to make it again.

    Args:
        logged_in: the login the lobby opened with.
        delays: seconds before each try to come back (``client.comeback.BACKOFF``).
    """

    def __init__(self, logged_in: LoggedIn, delays: Sequence[float] | None = None) -> None:
        self._logged_in = logged_in
        self.delays = BACKOFF if delays is None else tuple(delays)
        #: The person gave up coming back (Esc): only a retry they ask for tries again.
        self.gave_up = False
        #: A viewer left a game under way: the link is still in its room until a fresh login.
        self.still_in_room = False
        #: What the lobby learnt (§7): we moderate (our PROFILE's role), whom we block
        #: (folded; BLOCKS at each refresh). A game reads them, and asks nothing itself.
        self.moderator = False
        self.blocked: frozenset[str] = frozenset()
        self._rejoin_taken: LobbyLink | None = None  # the link whose REJOIN was acted on
        #: The running score against each opponent, for as long as the session lasts: a
        #: rematch is a new room (and a new screen), the series between two players is not.
        self._scores: dict[str, Score] = {}

    def score_against(self, opponent: str) -> Score:
        """The series against ``opponent`` so far (new, and kept, the first time)."""
        return self._scores.setdefault(opponent, Score())

    @property
    def link(self) -> LobbyLink:
        """The connection in use (replaced when we come back)."""
        return self._logged_in.link

    @property
    def values(self) -> dict[str, str]:
        """What the login dialog was given: game, host, port, user."""
        return self._logged_in.values

    @property
    def guest(self) -> bool:
        """True for an ssh guest (§9): it only watches, and comes back by KEYGUEST."""
        return self._logged_in.guest

    @property
    def password(self) -> str:
        """The password, to log in again."""
        return self._logged_in.password

    def password_changed(self, password: str) -> None:
        """The account's password is now ``password``: logging in again uses it."""
        self._logged_in = replace(self._logged_in, password=password)

    @property
    def tictactoe(self) -> bool:
        """True for an INFO1112 tic-tac-toe server (its rooms forfeit a dropped player)."""
        return self.values.get("game") == TICTACTOE_ROOMS

    def worth_coming_back(self) -> bool:
        """True when the connection was lost (not sent away) from a lobby that keeps games."""
        return not self.tictactoe and comeback.worth_coming_back(self.link)

    def why_lost(self) -> str:
        """``Connection lost``, ``The server is restarting``: the first words while trying."""
        return comeback.why_lost(self.link)

    async def come_back(
        self, on_try: Callable[[int], None], game_on: bool = False
    ) -> Comeback | str:
        """Log in again on a new connection (tries with backoff); why not, in words.

        ``game_on``: we have a game in progress, so the tries never give up by themselves.

        On success the session uses the new connection and the old one is closed.
        """
        values = self.values
        account = Account(
            values["host"],
            int(values["port"]),
            values["user"],
            self.password,
            tls=client_tls(values),
            guest=self.guest,
        )
        answer = await comeback.come_back(
            account, on_try=on_try, delays=self.delays, game_on=game_on
        )
        if isinstance(answer, Comeback):
            lost = self.link
            user = {"user": answer.link.user}  # a guest's name may change
            self._logged_in = LoggedIn(answer.link, {**values, **user}, self.password, self.guest)
            self.gave_up = False
            await lost.close()
        return answer

    async def log_in_afresh(self) -> str | None:
        """Hang up and log in again (the only way out of a room); None, or what went wrong."""
        await self.link.close()
        outcome = await log_in(self.values, self.password, register=False, guest=self.guest)
        if isinstance(outcome, str):
            return outcome
        self._logged_in = outcome
        self.still_in_room = False
        return None

    def take_rejoined(self) -> str | None:
        """The room the server put this connection back in (REJOIN): once, then None.

        Settled once the server has answered a request after the login (the room list).
        """
        link = self.link
        if link.rejoined is None or self._rejoin_taken is link:
            return None
        self._rejoin_taken = link
        return link.rejoined


async def game_start(
    link: LobbyLink, on_chat: Callable[[wire.ChatLine], None]
) -> wire.Begin | wire.InProgress:
    """Read what the server pushes until a game begins, or is shown under way.

    Chat goes to ``on_chat``; the rest (REJOIN, before its game) is for nobody.
    Raises NetworkError once the link is gone.
    """
    while True:
        message = await link.pushed()
        if isinstance(message, wire.ChatLine):
            on_chat(message)
        elif isinstance(message, wire.Begin | wire.InProgress):
            return message


async def back_in_room(
    session: OnlineSession, room: str, names: tuple[str, str], watching: bool
) -> RoomGame | str:
    """The game in ``room`` again, on the connection we came back on; else how it ended.

    A player is back in it only if the server put it back (REJOIN); a viewer asks to
    watch it again. ``names`` are its red and yellow players, to tell our game in the history.
    Raises NetworkError or ProtocolError (the new connection failed too).
    """
    link = session.link
    if watching:
        if await link.join(room, wire.Mode.VIEWER) is not JoinOutcome.JOINED:
            return WATCHED_GAME_OVER
    elif session.take_rejoined() != room:
        return await ended_while_away(link, names)
    start = await game_start(link, on_chat=lambda line: None)
    return await room_game_from(link, start, room)


async def ended_while_away(link: LobbyLink, names: tuple[str, str]) -> str:
    """How our game ended while we were away, as the server kept it (HISTORY, GAME)."""
    kept = await last_game(link, names)
    if kept is None:
        return "Your game ended while you were away."
    return f"Your game ended while you were away: {result_line(kept)}"


def moves_to(start: GameState, moves: Sequence[Move], now: GameState) -> tuple[Move, ...] | None:
    """``moves`` from ``start``, and the (at most two) moves after them that reach ``now``.

    A game we came back into goes on with its move list: the server shows the board
    only, which may have our last move and the opponent's answer on it. None when no
    such moves reach ``now`` (the list then starts from the server's board).
    """
    played = start.play_all(tuple(moves))
    target = now.position_key()
    if played.position_key() == target:
        return tuple(moves)
    for first in played.legal_moves():
        after = played.play(first)
        if after.position_key() == target:
            return (*moves, first)
        for second in after.legal_moves():
            if after.play(second).position_key() == target:
                return (*moves, first, second)
    return None
