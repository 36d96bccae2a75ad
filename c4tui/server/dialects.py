"""The room protocols' requests and what each does to the rooms: one ``Dialect`` each.

Both room protocols (the lobby's Connect Four and the INFO1112 handout's
tic-tac-toe) share REGISTER, LOGIN and the rooms; a dialect says how its lines
are parsed and which act of the pure rooms each request is. The server
(``c4tui.server.lobby``) answers the accounts, the past and the store itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from c4tui.engine import Move
from c4tui.lobby import Lobby, Member, Outbox
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.lobby.table_talk import Offer
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols import table_talk as talk

#: A protocol's last line before the server closes a connection on purpose (BYE:<reason>).
Farewell = Callable[[wire.ByeReason], str]

#: A dialect's requests; one kind of them; the rooms' settings; a move in their game.
R = TypeVar("R")
T = TypeVar("T")
S = TypeVar("S")
M = TypeVar("M")


class Dialect(Generic[R, S, M]):
    """A room protocol: its parser (which raises ``wire.Violation``) and what its requests do.

    Both protocols share REGISTER, LOGIN and their bad formats (``wire.BadFormat``),
    which ``serve_rooms`` answers; every other request of a logged-in member goes to
    the act that ``on`` registered for its type. Generic over its requests and over
    its rooms' settings and moves, so a dialect serves only rooms of its own game.
    """

    def __init__(
        self, parse: Callable[[str], R | wire.BadFormat], farewell: Farewell | None = None
    ) -> None:
        """``farewell``: the protocol's BYE:<reason> line (None: it closes without a word)."""
        self.parse = parse
        self.farewell = farewell
        self._acts: dict[type[object], Callable[[Lobby[S, M], Member, R], Outbox]] = {}

    def on(
        self, kind: type[T], act: Callable[[Lobby[S, M], Member, T], Outbox]
    ) -> Dialect[R, S, M]:
        """Let requests of type ``kind`` do ``act``; the dialect, for the next ``on``."""

        def narrowed(rooms: Lobby[S, M], member: Member, request: R) -> Outbox:
            if not isinstance(request, kind):  # dispatch looks acts up by type: cannot happen
                raise TypeError(f"{type(request).__name__} reached the act for {kind.__name__}")
            return act(rooms, member, request)

        self._acts[kind] = narrowed
        return self

    @property
    def kinds(self) -> frozenset[type[object]]:
        """The types of request that do something in the rooms."""
        return frozenset(self._acts)

    def dispatch(self, rooms: Lobby[S, M], member: Member, request: R) -> Outbox:
        """What a logged-in member's request does (its type must have an act)."""
        act = self._acts.get(type(request))
        if act is None:  # a request the parser makes but no act answers: a server bug
            raise TypeError(f"this dialect has no act for {type(request).__name__}")
        return act(rooms, member, request)


def _room_list(rooms: Lobby[S, M], member: Member, request: wire.RoomList) -> Outbox:
    """ROOMLIST's answer, to the asker alone (PLAYER: rooms it may sit down in, §7)."""
    return [(member, wire.room_list(rooms.room_names(request.mode, member)))]


def _join(rooms: Lobby[S, M], member: Member, request: wire.Join) -> Outbox:
    """JOIN: as the second player (the game begins) or as a viewer."""
    return rooms.join(member, request.room, request.mode)


def _forfeit(rooms: Lobby[S, M], member: Member, request: wire.Forfeit) -> Outbox:
    """FORFEIT: the other player wins."""
    return rooms.forfeit(member)


def with_shared_acts(dialect: Dialect[R, S, M]) -> Dialect[R, S, M]:
    """``dialect`` with the acts of the room commands both protocols share."""
    return dialect.on(wire.RoomList, _room_list).on(wire.Join, _join).on(wire.Forfeit, _forfeit)


def _play(rooms: Lobby[ConnectFourSettings, Move], member: Member, request: wire.Play) -> Outbox:
    """DROP or POP; a column that is no number is refused in the codec's words."""
    return rooms.play(member, request.move, request.unreadable)


#: The lobby protocol: Connect Four rooms.
LOBBY = (
    with_shared_acts(Dialect[wire.Request, ConnectFourSettings, Move](wire.parse_request, wire.bye))
    .on(wire.RoomInfo, lambda rooms, member, request: [(member, rooms.room_info(request.room))])
    .on(
        wire.Create,
        lambda rooms, member, request: rooms.create(
            member, request.room, request.game, request.terms, request.colour
        ),
    )
    .on(
        wire.QuickPlay,
        lambda rooms, member, request: rooms.quick_play(
            member, request.game, request.terms, request.colour
        ),
    )
    .on(wire.Play, _play)
    .on(wire.Chat, lambda rooms, member, request: rooms.chat(member, request.text))
    .on(
        competition.Challenge,
        lambda rooms, member, request: rooms.challenges.challenge(
            member, request.user, request.game, request.terms, request.colour
        ),
    )
    .on(
        competition.Accept,
        lambda rooms, member, request: rooms.challenges.accept(member, request.user),
    )
    .on(
        competition.Decline,
        lambda rooms, member, request: rooms.challenges.decline(member, request.user),
    )
    .on(competition.Rematch, lambda rooms, member, request: rooms.challenges.rematch(member))
    .on(talk.OfferDraw, lambda rooms, member, request: rooms.talk.offer_draw(member))
    .on(talk.DeclineDraw, lambda rooms, member, request: rooms.talk.decline(member, Offer.DRAW))
    .on(talk.OfferTakeback, lambda rooms, member, request: rooms.talk.take_back(member))
    .on(
        talk.DeclineTakeback,
        lambda rooms, member, request: rooms.talk.decline(member, Offer.TAKEBACK),
    )
    .on(talk.Abort, lambda rooms, member, request: rooms.talk.abort(member))
    .on(talk.Claim, lambda rooms, member, request: rooms.talk.claim(member))
)
