"""PROTOCOL.md's minimal engine, taken from the page as it is, plays whole games through
``EngineChooser``: the page's example cannot rot."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import c4tui
from c4tui.engine import GameState, Player, Rules, parse_move
from c4tui.outside.engine_chooser import EngineChooser
from tests.engine_helpers import play
from tests.outside.helpers import play_game

PAGE = Path(c4tui.__file__).parent / "protocols" / "PROTOCOL.md"


def page_engine(folder: Path) -> str:
    """The page's engine written to ``folder``: the command that runs it."""
    [code] = re.findall(r"```python my_engine\.py\n(.*?)```", PAGE.read_text("utf-8"), re.S)
    path = folder / "my_engine.py"
    path.write_text(code, encoding="utf-8")
    return shlex.join([sys.executable, str(path)])


async def test_the_pages_engine_plays_a_whole_game_and_loses_to_hard(tmp_path: Path) -> None:
    mine = EngineChooser(page_engine(tmp_path))
    hard = EngineChooser(shlex.join([sys.executable, "-m", "c4tui", "engine", "--level", "hard"]))
    final, moves = await play_game(mine, hard, time_limit=1.0)
    assert final.winner is Player.YELLOW
    assert str(moves[0]) == "d4"
    assert mine.describe().endswith("(Centre)")


async def test_the_pages_engine_follows_a_pop_out_game_on_another_board(tmp_path: Path) -> None:
    red, yellow = EngineChooser(page_engine(tmp_path)), EngineChooser(page_engine(tmp_path))
    final, moves = await play_game(red, yellow, GameState.new(5, 4, Rules.POPOUT), 1.0)
    assert final.is_over  # every move was legal: the chooser checks each
    assert [str(move) for move in moves[:3]] == ["d3", "d3", "d3"]


#: A full 7 x 6 Pop Out board, no four in a row, red to move: the bottom row is
#: yellow, red, red, yellow, red, red, yellow, so neither the first nor the centre
#: column may be popped by red.
FULL_BOARD = (
    "d2 d7 d5 d2 d6 d6 d3 d4 d2 d6 d2 d2 d2 d4 d4 d6 d5 d5 d4 d7 d3 "
    "d1 d3 d5 d1 d5 d6 d6 d4 d3 d5 d4 d3 d3 d7 d7 d7 d1 d1 d1 d1 d7"
)


async def test_the_pages_engine_pops_its_own_disc_on_a_full_pop_out_board(tmp_path: Path) -> None:
    start = play(FULL_BOARD, rules=Rules.POPOUT)
    assert start.disc_count == 42 and not start.is_over and start.turn is Player.RED
    assert start.cell(0, 0) is start.cell(3, 0) is Player.YELLOW
    mine = EngineChooser(page_engine(tmp_path))
    medium = shlex.join([sys.executable, "-m", "c4tui", "engine", "--level", "medium"])
    opening = [parse_move(word) for word in FULL_BOARD.split()]
    final, moves = await play_game(mine, EngineChooser(medium), start, 1.0, opening)
    assert str(moves[0]) == "p2"  # its own disc nearest the first column: a legal pop
    assert final.is_over  # every move of both was legal: the chooser checks each
