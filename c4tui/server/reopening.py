"""What the lobby brings back from its store when it opens, or a cluster's node takes it over.

The games that had begun and not ended (§5.1), each back in its room with both
players away and each player given the grace period from now to log in again; and
every block (§7), which the rooms hold in memory to keep players apart. The ssh door's
visits (§9) that expired meanwhile are ended: a server that stopped without ending its
visits leaves none behind past their expiry. A node that takes a lobby over from a dead
leader does exactly what a server starting does.
"""

from __future__ import annotations

import logging
import time

from c4tui.engine import Move
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.server.lobby import LobbyService
from c4tui.server.public import load_blocks

log = logging.getLogger("c4tui.server")


async def reopen_lobby(service: LobbyService[ConnectFourSettings, Move]) -> None:
    """Restore every unfinished game of ``service``'s store, load its blocks, end old visits."""
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
    ended = await service.store.end_expired_visits(time.time())
    if ended:
        log.info("%d expired ssh visits ended", ended)
