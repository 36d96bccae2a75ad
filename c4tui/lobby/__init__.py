"""People against people: rooms, their players and viewers, and every game played in them.

Pure (no sockets, no clock): the server feeds it what logged-in members ask for
and sends what it answers, so the rules of rooms can be tested, and one day
fuzzed, without a network.
"""

from c4tui.lobby.rooms import Lobby, Member, Outbox, Room

__all__ = ["Lobby", "Member", "Outbox", "Room"]
