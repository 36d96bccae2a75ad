"""Golden transcripts of ``c4tui columns --shell``, one rule each (run as a real program).

Each case's input is here; its expected output is ``tests/golden/columns/<name>.out``.
After a deliberate change, regenerate with
``C4TUI_UPDATE_GOLDEN=1 pytest tests/test_columns_golden.py`` and read every diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden" / "columns"


def script(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


CASES: dict[str, str] = {
    # A faller rotates; it moves until the edge or a jewel stops it.
    "rotate_and_move": script(
        "4", "3", "EMPTY", "F 2 S T V", "", "R", "<", "<", ">", ">", ">", "Q"
    ),
    # Moving off support unlands a faller; moving onto it lands it.
    "unland_by_moving": script(
        "4", "3", "CONTENTS", "   ", "   ", "   ", "X  ", "F 1 S T V", "", "", ">", "<", "", "Q"
    ),
    # Three of a colour match down, across and along either diagonal; the next tick clears them.
    "match_down": script("4", "3", "EMPTY", "F 2 X X X", "", "", "", "", "", "", "Q"),
    "match_across": script(
        "4", "3", "CONTENTS", "   ", "   ", "   ", "XX ", "F 3 S T X", "", "", "", "", "", "Q"
    ),
    "match_diagonal": script(
        "4", "3", "CONTENTS", "   ", "Z  ", "YZ ", "XY ", "F 3 S T Z", "", "", "", "", "", "Q"
    ),
    "match_other_diagonal": script(
        "4", "3", "CONTENTS", "   ", "  Z", " ZY", " YX", "F 1 S T Z", "", "", "", "", "", "Q"
    ),
    # Jewels falling after a match make a second match: a chain, one step a tick.
    "chain": script(
        "5",
        "3",
        "CONTENTS",
        "   ",
        "Y  ",
        "Y  ",
        "SS ",
        "YTT",
        "F 3 X X S",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "Q",
    ),
    # F does nothing while a faller is still there.
    "one_faller_at_a_time": script("4", "3", "EMPTY", "F 1 S T V", "F 3 X Y Z", "", "Q"),
    # Frozen with a jewel above the field: GAME OVER.
    "game_over": script("4", "3", "CONTENTS", "   ", "S  ", "T  ", "V  ", "F 1 X Y Z", "", "", ""),
    # Frozen too high, but a match clears room: the game goes on.
    "rescued_by_a_match": script(
        "4", "3", "CONTENTS", "   ", "S  ", "S  ", "T  ", "F 1 W W S", "", "", "", "", "", "Q"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_columns_shell_transcript(name: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "c4tui", "columns", "--shell"],
        input=CASES[name],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    golden = GOLDEN / f"{name}.out"
    if os.environ.get("C4TUI_UPDATE_GOLDEN"):
        golden.write_text(result.stdout)
    assert result.stdout == golden.read_text()
