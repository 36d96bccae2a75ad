"""A tournament's pre-flight: each outside program tried before the games, its failure said.

Each program is started and asked for a first move, so that one that cannot play is
named at once, above the live view.

A program that cannot start (its file does not load, its command does not run, it
never answers ``c4e``) is returned with its failure: ``Runner`` then records each of
its games lost by it without starting it again (see ``runner.py`` for why).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from c4tui.engine import GameState
from c4tui.outside.chooser import OutsideFailure
from c4tui.outside.levels import LEVEL_NAMES
from c4tui.outside.program import DEFAULT_LIMITS, Limits, ProgramChooser
from c4tui.outside.spec import chooser_for
from c4tui.tournament.players import Entrant
from c4tui.tournament.results import Plan
from c4tui.tournament.runner import log_path


async def try_each_program(
    players: Sequence[Entrant],
    plan: Plan,
    logs: Path,
    concurrency: int,
    limits: Limits = DEFAULT_LIMITS,
) -> dict[str, OutsideFailure]:
    """Start each outside program and ask it for a first move now; say which fail.

    A file that does not load or a command that does not start would otherwise be seen
    only as a column of lost games; it still loses them (the table is fair), and one
    that fails to start (or to shake hands) is returned, with why: its games are lost
    by that failure without starting it again (``Runner``'s ``unstarted``). At most
    ``concurrency`` programs run at once, as in the games (a class's programs all
    started together took 3.3 GB).
    """
    programs = [player for player in players if player.body.lower() not in LEVEL_NAMES]
    start = GameState.new(plan.options.columns, plan.options.rows, plan.rules)
    seconds = plan.options.movetime / 1000
    logs.mkdir(parents=True, exist_ok=True)
    room = asyncio.Semaphore(concurrency)

    async def first_move(player: Entrant) -> tuple[OutsideFailure | None, str | None]:
        """Its failure to start (None: it started), and the warning to give (None: none)."""
        tried = replace(
            limits,
            stderr_log=log_path(logs, player.name),
            exchange_log=logs / f"{player.name}.preflight.exchange",
            label="the try before the games",
        )
        chooser = chooser_for(player.spec, limits=tried)
        async with room:
            try:
                if isinstance(chooser, ProgramChooser):
                    await chooser.start()
                try:
                    await chooser.choose(start, seconds, [])
                except OutsideFailure as failure:
                    return (
                        None,
                        f"{player.name} failed its first move ({failure}): it will lose its games",
                    )
            except OutsideFailure as failure:
                return (
                    failure,
                    f"{player.name} did not start ({failure}): it loses its games unstarted",
                )
            finally:
                await chooser.close()
        return None, None

    unstarted = {}
    tried = await asyncio.gather(*(first_move(player) for player in dict.fromkeys(programs)))
    for player, (failure, problem) in zip(dict.fromkeys(programs), tried, strict=True):
        if failure is not None:
            unstarted[player.name] = failure
        if problem is not None:
            print(f"Warning: {problem}", file=sys.stderr, flush=True)
    return unstarted
