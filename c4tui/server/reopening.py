"""What the lobby brings back from its store when it opens, or a cluster's node takes it over.

The games that had begun and not ended (§5.1), each back in its room with both
players away and each player given the grace period from now to log in again; and
every block (§7), which the rooms hold in memory to keep players apart. A node that
takes a lobby over from a dead leader does exactly what a server starting does.
"""

from __future__ import annotations

from c4tui.engine import Move
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.server.lobby import LobbyService
from c4tui.server.public import load_blocks


async def reopen_lobby(service: LobbyService[ConnectFourSettings, Move]) -> None:
    """Restore every unfinished game of ``service``'s store, and load its blocks."""
    games = await service.store.unfinished_games()
    for game in games:
        service.rooms.restore(
            game.room,
            (game.red, game.yellow),
            game.settings,
            game.moves,
            terms=game.terms,
            left=game.clock_left,
        )
        for user in (game.red, game.yellow):
            service.start_grace(user)
    service.games_log.restored(games)
    service.metrics.restored(len(games))
    await load_blocks(service)
