"""People against people: rooms, their players and viewers, and every game played in them.

Pure (no sockets, no clock): the server feeds it what logged-in members ask for
and sends what it answers, so the rules of rooms can be tested, and one day
fuzzed, without a network. The same rooms hold Connect Four (the lobby
protocol) and tic-tac-toe (the INFO1112 handout's protocol): ``kinds``.
"""

from c4tui.lobby.kinds import CONNECT_FOUR, TIC_TAC_TOE
from c4tui.lobby.room import Member, Outbox, Room
from c4tui.lobby.rooms import Lobby
from c4tui.lobby.table import RoomKind, Seat

__all__ = ["CONNECT_FOUR", "TIC_TAC_TOE", "Lobby", "Member", "Outbox", "Room", "RoomKind", "Seat"]
