"""The lobby's stateful test at the table (§5.6): draw offers, takebacks and aborts.

A mixin of rules for ``LobbyProtocol`` (tests/net/test_lobby_stateful.py): the model
keeps, on each room, who offers what and the game before its last move, and says
what every request must bring to whom. Claims and IDLE need minutes to pass: the
rooms' pure tests and the golden exchanges move time for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from c4tui.engine import GameState, Move

if TYPE_CHECKING:
    from tests.net.test_lobby_stateful import LobbyProtocol, Room

REQUESTS = ("DRAW", "DECLINEDRAW", "TAKEBACK", "DECLINETAKEBACK", "ABORT")


@dataclass
class Talk:
    """One room's table talk as the model sees it."""

    draw_from: str | None = None
    takeback_from: str | None = None
    before: tuple[GameState, list[Move]] | None = None  # before the last move, to take back
    offers_heard: list[str] = field(default_factory=list)


def _board(room: Room) -> str:
    from tests.net.test_lobby_stateful import cells  # the model's own reading of the board

    return cells(room.state)


def _games(machine: LobbyProtocol) -> list[str]:
    return [name for name, room in machine.rooms.items() if room.yellow is not None]


class TableRules:
    """Rules for the table's requests; the machine calls ``moving`` before each legal move."""

    @precondition(lambda self: bool(_games(self)))
    @rule(data=st.data(), request=st.sampled_from(REQUESTS))
    def a_table_request_in_a_game(self: LobbyProtocol, data: st.DataObject, request: str) -> None:
        room = self.rooms[data.draw(st.sampled_from(_games(self)))]
        self.table_request(data.draw(st.sampled_from(room.members)), request, "")

    @rule(
        who=st.sampled_from(("ann", "bob", "cid", "dee")),
        request=st.sampled_from(REQUESTS),
        argument=st.sampled_from(["", ":now"]),
    )
    def table_request(self: LobbyProtocol, who: str, request: str, argument: str) -> None:
        client = self.clients[who]
        client.send(request + argument)
        found = self.room_of(who)
        if argument:
            client.expect(f"{request}:ACKSTATUS:3")
            return
        if found is None or found[1].yellow is None or who not in found[1].players:
            client.expect(f"{request}:ACKSTATUS:1")
            return
        name, room = found
        other = self._opponent(room, who)
        talk = room.talk
        if request == "DRAW":
            TableRules._draw(self, name, room, who, other)
        elif request == "ABORT":
            if len(room.moves) >= 2:
                client.expect("ABORT:ACKSTATUS:1")
                return
            client.expect("ABORT:ACKSTATUS:0")
            self._end(name, f"GAMEEND:{_board(room)}:5", None, "aborted")
        elif request == "TAKEBACK":
            TableRules._take_back(self, room, who, other)
        else:
            drawing = request == "DECLINEDRAW"
            offerer = talk.draw_from if drawing else talk.takeback_from
            if offerer != other:
                client.expect(f"{request}:ACKSTATUS:1")
                return
            client.expect(f"{request}:ACKSTATUS:0")
            if drawing:
                talk.draw_from = None
            else:
                talk.takeback_from = None
            word = "DRAWDECLINED" if drawing else "TAKEBACKDECLINED"
            self._to([other] if other not in room.away else [], f"{word}:{who}")

    def _draw(self: LobbyProtocol, name: str, room: Room, who: str, other: str) -> None:
        client, talk = self.clients[who], room.talk
        if len(room.moves) < 2:
            client.expect("DRAW:ACKSTATUS:1")
        elif talk.draw_from == who:
            client.expect("DRAW:ACKSTATUS:2")
        elif talk.draw_from == other:
            client.expect("DRAW:ACKSTATUS:0")
            self._end(name, f"GAMEEND:{_board(room)}:4", None, "agreement")
        else:
            client.expect("DRAW:ACKSTATUS:0")
            talk.draw_from = who
            self._to([m for m in room.members if m != who], f"DRAWOFFER:{who}")

    def _take_back(self: LobbyProtocol, room: Room, who: str, other: str) -> None:
        client, talk = self.clients[who], room.talk
        if talk.before is None:
            client.expect("TAKEBACK:ACKSTATUS:1")
        elif talk.takeback_from == other:
            client.expect("TAKEBACK:ACKSTATUS:0")
            room.state, room.moves = talk.before
            talk.before = talk.takeback_from = talk.draw_from = None
            self._to(room.members, f"BOARDSTATUS:{_board(room)}")
            if room.clock is not None:  # as before the move: the model reads it again
                room.clock.taken_back(self._clock_heard(room.members), client.sent_at)
        elif room.name_of(room.state.turn) == who:
            client.expect("TAKEBACK:ACKSTATUS:1")  # the last move is the other's
        elif talk.takeback_from == who:
            client.expect("TAKEBACK:ACKSTATUS:2")
        else:
            client.expect("TAKEBACK:ACKSTATUS:0")
            talk.takeback_from = who
            self._to([other] if other not in room.away else [], f"TAKEBACKOFFER:{who}")

    def moving(self: LobbyProtocol, room: Room, mover: str) -> None:
        """A legal move is about to be played: the offers it declines, the game kept to undo."""
        talk, other = room.talk, self._opponent(room, mover)
        heard = [] if other in room.away else [other]
        if talk.draw_from == other:
            talk.draw_from = None
            self._to(heard, f"DRAWDECLINED:{mover}")
        if talk.takeback_from == other:
            talk.takeback_from = None
            self._to(heard, f"TAKEBACKDECLINED:{mover}")
        talk.before = (room.state, list(room.moves))
