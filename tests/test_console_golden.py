"""Golden transcripts: ``c4tui console`` run as a real subprocess with scripted input.

Each case's expected standard output is in ``tests/golden/<name>.out``. After a
deliberate change of the console's wording, regenerate them with
``C4TUI_UPDATE_GOLDEN=1 pytest tests/test_console_golden.py`` and read every diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
OUTSIDE = Path(__file__).parent / "data" / "outside"
#: The tiny engine as ``--opponent`` takes it (its name, not its path, shows in the transcript).
TINY_ENGINE = f"engine:{sys.executable} {OUTSIDE / 'tiny_engine.py'}"


def moves(*items: str) -> bytes:
    return "".join(f"{item}\n" for item in items).encode()


CASES: dict[str, tuple[list[str], bytes]] = {
    "vertical_win": (
        ["--columns", "7", "--rows", "6", "--rules", "classic"],
        moves("4", "5", "4", "5", "4", "5", "4"),
    ),
    "draw_4x4_classic": (
        ["--columns", "4", "--rows", "4", "--rules", "classic"],
        moves(*"1113233214423442"),
    ),
    "pop_wins_for_both_popper_takes_it": (
        ["--columns", "7", "--rows", "6", "--rules", "popout"],
        moves("d1", "d 2", "drop 2", "D3", "3", "4", "4", "1", "1", "7", "pop 1"),
    ),
    "invalid_moves": (
        ["--columns", "5", "--rows", "4", "--rules", "popout"],
        moves("1", "p 1", "p 2", "1", "1", "1", "1", "d 6", "0", "2", "p 1", "p 2"),
    ),
    "pop_in_classic": (
        ["--columns", "4", "--rows", "4", "--rules", "classic"],
        moves("1", "p 1", "2"),
    ),
    "two_digit_columns": (
        ["--columns", "12", "--rows", "4", "--rules", "classic"],
        moves("12", "10", "12", "d 10", "12", "11", "drop 12"),
    ),
    "garbage_input": (
        ["--columns", "4", "--rows", "4", "--rules", "popout"],
        b"banana\n\n   \nd\n3 4\n\xff\xfe\x00\x01\ndrop three\n"
        + b"9" * 10000
        + b"\n\xe2\x98\x83\n\x1b[A\npop\nd 1\n",
    ),
    "end_of_input_mid_game": (
        ["--columns", "7", "--rows", "6", "--rules", "popout"],
        b"4\n4\n3",
    ),
    "asks_for_the_size": (
        ["--rules", "classic"],
        moves("3", "twenty", "21", "", "4", "1", "2", "1", "2", "1", "2", "1"),  # "": 7
    ),
    "pop_out_repetition_says_why_it_is_a_draw": (  # issue 40 #17: only "It's a draw!" was said
        ["--columns", "4", "--rows", "4", "--rules", "popout"],
        moves("1", "2", "p 1", "p 2", "1", "2", "p 1", "p 2"),
    ),
    "enter_takes_seven_by_six": ([], moves("", "", "quit")),  # issue 40 #16: no default was
    "classic_unless_told": (  # like the app: Pop Out only with --rules popout
        [],
        moves("4", "4", "1", "p 1", "quit"),
    ),
    "against_random_ai": (
        [
            "--columns",
            "5",
            "--rows",
            "4",
            "--rules",
            "popout",
            "--opponent",
            "random",
            "--seed",
            "7",
        ],
        moves(*["3", "3", "1", "2", "4", "5", "2", "4", "1", "5", "3", "2", "1", "4"] * 4),
    ),
    "help_undo_and_quit": (
        ["--columns", "4", "--rows", "4", "--rules", "classic"],
        moves("undo", "help", "2", "3", "undo", "4", "UNDO", "undo", "undo", "1", "quit", "1"),
    ),
    "undo_against_the_computer_takes_back_its_answer_too": (
        [
            "--columns",
            "4",
            "--rows",
            "4",
            "--rules",
            "popout",
            "--opponent",
            "random",
            "--seed",
            "3",
        ],
        moves("2", "undo", "3", "exit"),
    ),
    "against_the_tiny_engine_as_yellow": (
        ["--columns", "7", "--rows", "6", "--opponent", TINY_ENGINE, "--color", "yellow"],
        moves("2", "2", "2", "n"),
    ),
    "a_crashing_engine_loses_by_forfeit_and_plays_again_afresh": (
        ["--columns", "7", "--rows", "6", "--opponent", f"{TINY_ENGINE} --crash-at 2"],
        moves("4", "4", "y", "4", "4", "n"),
    ),
    "a_kaggle_agent_asked_for_pop_out_plays_classic": (
        [
            "--columns",
            "7",
            "--rows",
            "6",
            "--rules",
            "popout",
            "--opponent",
            f"kaggle:{OUTSIDE / 'centre_agent.py'}",
            "--seconds",
            "5",
        ],
        moves("1", "1", "1", "1", "n"),
    ),
    "play_again": (
        ["--columns", "4", "--rows", "4", "--rules", "classic"],
        moves(*"1212121", "y", *"1212121", "n"),
    ),
}


def run_console(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "c4tui", "console", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_console_transcript(name: str) -> None:
    args, stdin = CASES[name]
    result = run_console(args, stdin)
    assert result.stderr == b"", result.stderr.decode(errors="replace")
    assert result.returncode == 0
    output = result.stdout.decode()
    expected_file = GOLDEN / f"{name}.out"
    if os.environ.get("C4TUI_UPDATE_GOLDEN"):
        expected_file.write_text(output, encoding="utf-8", newline="")
    assert output == expected_file.read_text(encoding="utf-8")
