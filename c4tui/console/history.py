"""The console lobby's past: ``history [USER]``, ``show ID`` and ``save ID [FILE]``.

Every finished game is kept by the server (HISTORY and GAME, spec/protocols.md §5.2);
here they are listed one a line, shown move by move with the final board, and saved
as a game record that ``c4tui replay`` opens.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from c4tui.client import kept as words_of
from c4tui.client.link import LobbyLink
from c4tui.console.typed import user_refused
from c4tui.engine import Player, format_move, render_board
from c4tui.engine.text import WIN_MARK
from c4tui.protocols.past import KeptGame
from c4tui.records import format_record
from c4tui.records.store import save_game
from c4tui.storage import write_atomically

HELP = """  history [USER]                 your finished games (or USER's), newest first
  show ID                        one finished game: its moves and final board
  save ID [FILE]                 save it as a game record (c4tui replay opens it)"""

Say = Callable[[str], None]


async def history(link: LobbyLink, rest: str, say: Say) -> None:
    """One line per finished game of ours (or of the user named), newest first."""
    if rest and (refusal := user_refused(rest)) is not None:
        say(refusal)
        return
    user = rest or link.user
    games = await words_of.finished_games(link, rest or None)
    if games is None:
        say(f"No such user: {rest}.")
        return
    if not games:
        say(f"{'You have' if not rest else user + ' has'} no finished games yet.")
        return
    for game in games:
        say(_history_line(game, user))


def _history_line(game: KeptGame, user: str) -> str:
    """``3  2026-11-26 23:05 UTC  against bob  RED  won (four in a row)  7 moves``."""
    colour = words_of.colour_of(game, user) or Player.RED
    opponent = words_of.name_of(game, colour.other)
    return (
        f"{game.number}  {words_of.started_at(game)} UTC  against {opponent}  {colour.name}  "
        f"{words_of.result_for(game, colour)}  {len(game.moves)} moves"
    )


async def show(link: LobbyLink, rest: str, say: Say) -> None:
    """The game ``rest`` names: players, board, result, moves and the final board."""
    game = await _fetched(link, rest, "show ID", say)
    if game is None:
        return
    columns, rows, rules = game.game
    say(f"Game {game.number}: {game.red} (RED) against {game.yellow} (YELLOW)")
    say(f"{columns} × {rows} {rules.value}, started {words_of.started_at(game)} UTC")
    say(f"Result: {words_of.result_line(game)}")
    say(f"Moves ({len(game.moves)}): {' '.join(format_move(move) for move in game.moves)}")
    state = words_of.record_of(game, link.user).final_state()
    say(render_board(state, mark_win=True))
    if state.winner is not None:
        say(f"(The winning four are marked {WIN_MARK}.)")
    say(f"save {game.number} [FILE] saves it as a game record (c4tui replay FILE opens it).")


async def save(link: LobbyLink, rest: str, say: Say) -> None:
    """Save the game ``rest`` names: to FILE (a path, or a name in the saved-games folder).

    A path into a folder that does not exist is refused, naming the folder: making it
    silently would hide the record wherever a typo put it.
    """
    number, _, file = rest.partition(" ")
    game = await _fetched(link, number, "save ID [FILE]", say)
    if game is None:
        return
    record = words_of.record_of(game, link.user)
    file = file.strip()
    try:
        if "/" in file:
            path = Path(file).expanduser()
            if not (folder := path.parent).is_dir():  # a typo would hide the record in a new one
                say(f"Not saved: there is no folder {folder} (make it first, or name another).")
                return
            write_atomically(path, format_record(record))
        else:
            path = save_game(record, name=file or None)
    except (OSError, ValueError) as error:
        say(f"Not saved: {error}")
        return
    say(f"Saved game {game.number} as {path} (c4tui replay {path} opens it).")


async def _fetched(link: LobbyLink, typed: str, usage: str, say: Say) -> KeptGame | None:
    """The game whose id was typed; None (having said why) if there is none."""
    if not typed.isdigit() or not typed.isascii():
        say(f"Usage: {usage}")
        return None
    game = await link.kept_game(int(typed))
    if game is None:
        say(f"No game {int(typed)}.")
    return game
