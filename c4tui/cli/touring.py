"""Running ``c4tui tournament``: the options checked, the games played, the standings shown.

Loaded only when the command runs (the search pool and the programs' machinery come
with it). Exit status: 0 when every game was played, 130 when Ctrl-C stopped it
(the finished games kept, the way to resume said), 2 for a usage error, 1 when its
files cannot be written.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from c4tui.cli.confine import limits_from
from c4tui.cli.types import INTERRUPTED, USAGE_ERROR
from c4tui.engine import GameState, Rules
from c4tui.match.pool import SearchPool
from c4tui.outside.chooser import ChooserError, OutsideFailure
from c4tui.outside.levels import LEVEL_NAMES
from c4tui.outside.program import Limits
from c4tui.tournament.checksums import checksums
from c4tui.tournament.keeper import LOGS_FOLDER, Keeper
from c4tui.tournament.live import LiveReporter
from c4tui.tournament.openings import find_openings, solver_proves
from c4tui.tournament.players import Entrant, entrants
from c4tui.tournament.preflight import try_each_program
from c4tui.tournament.report import PlainReporter, Reporter, final_report
from c4tui.tournament.results import (
    PLAN_FILE,
    FolderError,
    GameResult,
    Options,
    Plan,
    missing_games,
    read_plan,
    read_results,
    write_plan,
)
from c4tui.tournament.review import GameReview, review_game, reviewable
from c4tui.tournament.runner import Runner
from c4tui.tournament.schedule import make_schedule, opening_count
from c4tui.tournament.setup import (
    SetupError,
    check_players,
    check_programs,
    new_options,
    resumed_options,
)

#: Exit status when the tournament's files cannot be written.
CANNOT_GO_ON = 1
#: The options that decide the games (``Options``' fields), as argparse names them.
GAME_OPTIONS = ("games", "openings", "movetime", "columns", "rows", "rules", "seed", "gauntlet")


@dataclass
class Setup:
    """What the command line asks for: the players, the options, the folder, what is done."""

    players: list[Entrant]
    options: Options
    folder: Path | None
    plan: Plan | None  # a resumed tournament's; a new one's is made once its openings are found
    finished: list[GameResult]


def run_tournament(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the tournament the command line describes; the exit status."""
    out = out or sys.stdout
    try:
        setup = _setup(args)
    except (SetupError, ChooserError, FolderError) as error:
        print(f"c4tui tournament: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    programs = [player for player in setup.players if player.body.lower() not in LEVEL_NAMES]
    limits = limits_from(args, "tournament", runs_programs=bool(programs))
    if setup.plan is None:  # a new tournament: its seed plays it again
        seed = setup.options.seed
        print(f"Seed {seed} (--seed {seed} plays this tournament again)", file=out, flush=True)
    concurrency = args.concurrency or os.cpu_count() or 1
    live = out.isatty()
    reporter: Reporter = LiveReporter(concurrency=concurrency) if live else PlainReporter(out)
    logs = setup.folder / LOGS_FOLDER if setup.folder else Path(tempfile.mkdtemp(prefix="c4tui-"))
    try:
        return _played(setup, reporter, concurrency, logs, out, limits=limits)
    finally:
        if setup.folder is None:  # without --out nothing is kept, the programs' logs neither
            shutil.rmtree(logs, ignore_errors=True)


def _played(
    setup: Setup, reporter: Reporter, concurrency: int, logs: Path, out: TextIO, *, limits: Limits
) -> int:
    """Play the games and say how they went: the exit status."""
    state = _Progress()
    try:
        asyncio.run(_play(setup, reporter, concurrency, logs, state, limits=limits))
    except KeyboardInterrupt:
        _say_interrupted(state, setup.folder, out)
        return INTERRUPTED
    except OSError as error:  # the folder cannot be written (full, taken away)
        print(f"c4tui tournament: cannot go on: {error}", file=sys.stderr)
        return CANNOT_GO_ON
    assert state.keeper is not None  # the games were played
    print(final_report(state.keeper.standings(), terminal_width(out)), file=out)
    _say_where(setup.folder, logs, out)
    return 0


@dataclass
class _Progress:
    """How far the tournament got, for the words after Ctrl-C."""

    keeper: Keeper | None = None
    total: int = 0


def _setup(args: argparse.Namespace) -> Setup:
    """The tournament asked for, checked; SetupError, ChooserError or FolderError say why not."""
    given = {name: getattr(args, name) for name in GAME_OPTIONS}
    if args.resume is not None:
        if args.out is not None and args.out.resolve() != args.resume.resolve():
            raise SetupError("--out and --resume name different folders: give --resume DIR alone")
        plan = read_plan(args.resume)
        check_programs(plan)
        options = resumed_options(plan.options, given)
        players = [Entrant(name, spec) for name, spec in zip(plan.names, plan.specs, strict=True)]
        if args.players:
            check_players(players, _entrants(args.players, options))
        return Setup(players, options, args.resume, plan, read_results(args.resume))
    if len(args.players) < 2:
        raise SetupError("a tournament needs at least two players (see c4tui tournament --help)")
    if args.out is not None and (args.out / PLAN_FILE).exists():
        raise SetupError(
            f"{args.out} already holds a tournament: resume it with --resume {args.out}, "
            "or choose another folder"
        )
    options = new_options(given)
    return Setup(_entrants(args.players, options), options, args.out, None, [])


def _entrants(players: list[str], options: Options) -> list[Entrant]:
    return entrants(players, options.columns, options.rows, Rules(options.rules))


async def _play(
    setup: Setup,
    reporter: Reporter,
    concurrency: int,
    logs: Path,
    progress: _Progress,
    *,
    limits: Limits,
) -> None:
    """Find the openings (a new tournament), then play the games still missing."""
    pool = SearchPool(workers=min(concurrency, os.cpu_count() or 1))
    try:
        plan = setup.plan or await _new_plan(setup, pool)
        reviewing = reviewable(plan.options.columns, plan.options.rows, plan.rules)
        reviews = [await _review(pool, game) for game in setup.finished] if reviewing else []
        keeper = Keeper(plan, setup.folder, setup.finished, reviews)
        progress.keeper, progress.total = keeper, len(plan.schedule)
        missing = missing_games(plan.schedule, plan.openings, setup.finished)
        unstarted: dict[str, OutsideFailure] = {}
        if missing:  # before the live view: its words stay above it
            unstarted = await try_each_program(setup.players, plan, logs, concurrency, limits)
        reporter.begin(len(plan.schedule), len(plan.schedule) - len(missing), keeper.standings())

        async def finished(result: GameResult) -> None:
            keeper.add(result, await _review(pool, result) if reviewing else None)
            reporter.game_over(result, len(keeper.finished), keeper.standings())

        runner = Runner(
            plan,
            pool=pool,
            logs=logs,
            concurrency=concurrency,
            finished=finished,
            limits=limits,
            unstarted=unstarted,
        )
        try:
            await runner.play(missing)
        finally:
            reporter.end()
    finally:
        pool.shutdown()


async def _review(pool: SearchPool, game: GameResult) -> GameReview:
    """The solver's verdict on each move the players chose (in the pool: about 0.03 s a game)."""
    return await review_game(pool, game.moves, len(game.opening))


async def _new_plan(setup: Setup, pool: SearchPool) -> Plan:
    """The schedule and its openings; written to the folder before the first game."""
    options, names = setup.options, [player.name for player in setup.players]
    schedule = make_schedule(names, options.games, gauntlet=options.gauntlet, seed=options.seed)
    start = GameState.new(options.columns, options.rows, Rules(options.rules))
    count = opening_count(len(names), options.games, options.gauntlet)
    if options.openings and solver_proves(start.columns, start.rows, start.rules):
        print(f"Finding {count} balanced openings of {options.openings} moves…", file=sys.stderr)
    openings = await find_openings(count, options.openings, start, seed=options.seed, pool=pool)
    plan = Plan(
        tuple(player.body for player in setup.players),
        tuple(names),
        options,
        tuple(openings),
        tuple(schedule),
        checksums(names, [player.body for player in setup.players]),
    )
    if setup.folder is not None:
        write_plan(setup.folder, plan)
    return plan


def terminal_width(out: TextIO) -> int | None:
    """The terminal's columns when ``out`` is one (the table fits them); None for a file."""
    return shutil.get_terminal_size().columns if out.isatty() else None


def _say_interrupted(progress: _Progress, folder: Path | None, out: TextIO) -> None:
    """After Ctrl-C: how far it got, the table so far, and how to go on."""
    keeper = progress.keeper
    if keeper is None:
        print("\nInterrupted before the first game.", file=out)
    else:
        print(f"\nInterrupted: {len(keeper.finished)} of {progress.total} games played.", file=out)
    if keeper is not None and keeper.finished:
        print(final_report(keeper.standings(), terminal_width(out)), file=out)
    if folder is not None and (folder / PLAN_FILE).exists():
        print(
            f"The finished games are kept in {folder}; the games under way were abandoned.",
            file=out,
        )
        print(f"To play the rest: c4tui tournament --resume {folder}", file=out)
    elif keeper is None or not keeper.finished:
        print("Nothing was played yet: run the same command again to start afresh.", file=out)
    else:
        print("Nothing was kept to resume (give --out DIR to keep the games).", file=out)


def _say_where(folder: Path | None, logs: Path, out: TextIO) -> None:
    """Where the games, the results and the programs' standard error are."""
    if folder is not None:
        print(f"Games and results.json in {folder}; programs' standard error in {logs}", file=out)
    elif any(logs.iterdir()):  # a program played (its log is removed with the folder)
        print("Programs' standard error is kept only with --out DIR (in DIR/logs/)", file=out)
