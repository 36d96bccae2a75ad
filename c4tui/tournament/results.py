"""What a tournament keeps in its folder: the plan (``tournament.json``) and ``results.json``.

``results.json`` has exactly the issue's shape (players with their standings and
failures, games with their moves, result and reason), plus each player's review
(``accuracy``, ``mistakes``: null and [] until the solver has reviewed the games).
``tournament.json`` keeps what ``--resume`` needs: the players as given, the
options that decide the games, the openings and the schedule. Both are written whole
or not at all (``storage.write_atomically``).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from c4tui.engine import C4Error, Move, Rules, format_move, parse_move
from c4tui.storage import write_atomically
from c4tui.tournament.schedule import ScheduledGame
from c4tui.tournament.standings import FAILURES, Outcome, Played, Reason, Standing

PLAN_FILE = "tournament.json"
RESULTS_FILE = "results.json"
#: Bumped when tournament.json changes shape, so an old folder is refused in words.
PLAN_VERSION = 1


class FolderError(C4Error):
    """A tournament folder that cannot be resumed; the message says why."""


@dataclass(frozen=True)
class Options:
    """What decides the games (a resumed tournament must keep every one of them)."""

    games: int
    openings: int
    movetime: int
    columns: int
    rows: int
    rules: str
    seed: int
    gauntlet: bool


@dataclass(frozen=True)
class Plan:
    """A tournament before it is played: who, how, and every game in order.

    ``specs`` are the players' descriptions without a NAME= (``engine:./deep4``,
    ``hard``); ``names`` what the tournament calls them, in the same order;
    ``checksums`` the programs' files (``checksums.py``), which ``--resume`` checks.
    """

    specs: tuple[str, ...]
    names: tuple[str, ...]
    options: Options
    openings: tuple[tuple[Move, ...], ...]
    schedule: tuple[ScheduledGame, ...]
    #: Each player's files (a path as written → its sha256) when the tournament began.
    checksums: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The rules as the engine knows them."""
        return Rules.POPOUT if self.options.rules == "popout" else Rules.CLASSIC


@dataclass(frozen=True)
class GameResult:
    """A finished game: who, from which opening, every move (the opening's first), and how."""

    red: str
    yellow: str
    opening: tuple[Move, ...]
    moves: tuple[Move, ...]
    outcome: Outcome
    reason: Reason
    #: How it ended in words (``crash: exited with status 3: Traceback …``): a failure's whole
    #: text, for the program's author (results.json's ``detail``).
    detail: str = ""
    #: How long it took to play, in seconds (for the live view's ETA); not kept.
    seconds: float = field(default=0.0, compare=False)

    def played(self) -> Played:
        """The game as the standings count it."""
        return Played(self.red, self.yellow, self.outcome, self.reason)


def moves_text(moves: Sequence[Move]) -> str:
    """Moves in the app's notation, space-separated (``d4 d4 p3``)."""
    return " ".join(format_move(move) for move in moves)


def read_moves(text: str) -> tuple[Move, ...]:
    """Moves written by ``moves_text``; C4Error for anything else."""
    return tuple(parse_move(word) for word in text.split())


def finite(value: float) -> float | None:
    """``value`` rounded for JSON, or None when it is infinite."""
    return None if math.isinf(value) or math.isnan(value) else round(value, 1)


def player_json(line: Standing, files: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One player's entry in results.json (``files``: its files' sha256, by path)."""
    failures = {reason.value: line.failures.get(reason, 0) for reason in FAILURES}
    accuracy = line.review.accuracy
    return {
        "name": line.name,
        "games": line.games,
        "wins": line.wins,
        "draws": line.draws,
        "losses": line.losses,
        "score": line.score,
        "elo": finite(line.elo) if line.games else None,  # no games yet: no rating
        "elo_error": None if math.isinf(line.elo) or not line.games else finite(line.elo_error),
        "failures": failures,
        "accuracy": None if accuracy is None else round(accuracy, 4),
        "mistakes": [dict(mistake.to_json()) for mistake in line.review.mistakes],
        "files": dict(files or {}),
    }


def game_json(game: GameResult) -> dict[str, str]:
    """One game's entry in results.json."""
    return {
        "red": game.red,
        "yellow": game.yellow,
        "opening": moves_text(game.opening),
        "moves": moves_text(game.moves),
        "result": game.outcome.value,
        "reason": game.reason.value,
        "detail": game.detail,
    }


def results_json(
    table: Sequence[Standing],
    games: Sequence[GameResult],
    files: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """results.json's content: the players in the table's order, the games as played.

    ``files``: each player's files' checksums, by its name (none for a level).
    """
    files = files or {}
    return {
        "players": [player_json(line, files.get(line.name)) for line in table],
        "games": [game_json(g) for g in games],
    }


def write_results(
    folder: Path,
    table: Sequence[Standing],
    games: Sequence[GameResult],
    files: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Write ``folder/results.json`` whole."""
    text = json.dumps(results_json(table, games, files), indent=2, ensure_ascii=False)
    write_atomically(folder / RESULTS_FILE, text + "\n")


def read_results(folder: Path) -> list[GameResult]:
    """The games ``folder/results.json`` holds (none if there is no such file yet)."""
    path = folder / RESULTS_FILE
    if not path.exists():
        return []
    try:
        games = json.loads(path.read_text(encoding="utf-8"))["games"]
        return [_game_from_json(game) for game in games]
    except (OSError, ValueError, KeyError, TypeError, C4Error) as error:
        raise FolderError(f"{path} cannot be read: {error}") from None


def _game_from_json(game: Mapping[str, Any]) -> GameResult:
    return GameResult(
        str(game["red"]),
        str(game["yellow"]),
        read_moves(str(game["opening"])),
        read_moves(str(game["moves"])),
        Outcome(game["result"]),
        Reason(game["reason"]),
        str(game.get("detail", "")),  # (older results.json had none)
    )


def write_plan(folder: Path, plan: Plan) -> None:
    """Write ``folder/tournament.json`` whole: what ``--resume`` reads back."""
    content = {
        "version": PLAN_VERSION,
        "players": list(plan.specs),
        "names": list(plan.names),
        "options": asdict(plan.options),
        "openings": [moves_text(opening) for opening in plan.openings],
        "schedule": [[game.red, game.yellow, game.opening] for game in plan.schedule],
        "checksums": {name: dict(files) for name, files in plan.checksums.items()},
    }
    write_atomically(folder / PLAN_FILE, json.dumps(content, indent=2, ensure_ascii=False) + "\n")


def read_plan(folder: Path) -> Plan:
    """The plan kept in ``folder``; FolderError says why it cannot be read."""
    path = folder / PLAN_FILE
    if not path.exists():
        raise FolderError(f"{folder} holds no {PLAN_FILE}: it is not a tournament's folder")
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content.get("version") != PLAN_VERSION:
            raise FolderError(f"{path} was written by another version of c4tui")
        schedule = tuple(
            ScheduledGame(number, str(red), str(yellow), int(opening))
            for number, (red, yellow, opening) in enumerate(content["schedule"], start=1)
        )
        return Plan(
            tuple(str(spec) for spec in content["players"]),
            tuple(str(name) for name in content["names"]),
            Options(**content["options"]),
            tuple(read_moves(str(opening)) for opening in content["openings"]),
            schedule,
            _checksums(content.get("checksums", {})),  # none in a folder of c4tui before them
        )
    except (OSError, ValueError, KeyError, TypeError, C4Error) as error:
        raise FolderError(f"{path} cannot be read: {error}") from None


def _checksums(kept: Any) -> dict[str, dict[str, str]]:
    """tournament.json's checksums, read back; TypeError for anything else."""
    if not isinstance(kept, dict) or not all(isinstance(files, dict) for files in kept.values()):
        raise TypeError("its checksums are not a table of files")
    return {
        str(name): {str(path): str(sha) for path, sha in files.items()}
        for name, files in kept.items()
    }


def missing_games(
    schedule: Sequence[ScheduledGame],
    openings: Sequence[tuple[Move, ...]],
    finished: Sequence[GameResult],
) -> list[ScheduledGame]:
    """The scheduled games no finished game stands for, in the schedule's order.

    A finished game stands for one scheduled game with the same red, yellow and
    opening (the same pairing may play the same opening with the same colours more
    than once only when openings repeat, and then either stands for the other).
    """
    done = Counter((game.red, game.yellow, game.opening) for game in finished)
    missing = []
    for game in schedule:
        key = (game.red, game.yellow, openings[game.opening])
        if done[key] > 0:
            done[key] -= 1
        else:
            missing.append(game)
    return missing
