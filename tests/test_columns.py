"""Columns: the handout's two complete examples, read from the handout's own text, and rules."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.columns import ColumnsError, Field
from c4tui.columns.shell import GAME_OVER, apply, render, run_shell
from tests.columns_reference import ReferenceColumns
from tests.process_helpers import run_c4tui

EXAMPLES = Path(__file__).parent / "data" / "columns_handout_examples.txt"
#: Example 2's CONTENTS rows lost their spaces in the PDF; ../shared/spec/columns.md (note 1)
#: gives the only reading that reproduces the displays that follow.
RESTORED_CONTENTS = {"Y X": " Y X", "S V": "S V "}


def handout_examples() -> list[tuple[list[str], list[list[str]], bool]]:
    """Each example as (input lines, displays, ends in GAME OVER).

    The handout's text lost its runs of spaces and its blank input lines: two displays
    in a row had a blank line (time passing) between them; a line holding only a comment
    was a blank line too; "R rotation and moving…" is the command R with a remark.
    """
    text = EXAMPLES.read_text().split("Beginning with", 2)[1:]
    examples = []
    for chunk in text:
        lines = chunk.splitlines()[1:]
        rows = int(lines[0])
        inputs = [lines[0], lines[1], lines[2].split()[0]]
        body = lines[3:]
        if inputs[2] == "CONTENTS":
            inputs += [RESTORED_CONTENTS.get(line, line) for line in body[:rows]]
            body = body[rows:]
        displays: list[list[str]] = []
        over = False
        previous_was_display = False
        index = 0
        while index < len(body):
            line = body[index]
            if line.startswith("|"):
                if previous_was_display:
                    inputs.append("")  # the blank line the PDF lost
                displays.append([re.sub(r"\s*#.*$", "", row) for row in body[index : index + rows]])
                index += rows
                previous_was_display = True
                continue
            if line.startswith(GAME_OVER):
                over = True
                break
            command = line.split("#", 1)[0].strip()
            if command.startswith("R ") or command.startswith("Q "):
                command = command[0]
            inputs.append(command)
            previous_was_display = False
            index += 1
        examples.append((inputs, displays, over))
    return examples


def collapsed(line: str) -> str:
    return re.sub(r" +", " ", line).rstrip()


@pytest.mark.parametrize("number", [0, 1])
def test_the_handouts_examples_character_for_character(number: int) -> None:
    inputs, displays, over = handout_examples()[number]
    rows, columns = int(inputs[0]), int(inputs[1])
    feed = iter(inputs)
    output: list[str] = []

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    assert run_shell(read, output.append) == 0
    if over:
        assert output[-1] == GAME_OVER
        output = output[:-1]
    shown = [output[start : start + rows + 1] for start in range(0, len(output), rows + 1)]
    assert len(shown) == len(displays)
    for mine, theirs in zip(shown, displays, strict=True):
        assert all(len(line) == 3 * columns + 2 for line in mine)
        assert mine[-1] == " " + "-" * (3 * columns) + " "  # the floor, ending in a space
        assert [collapsed(line) for line in mine[:-1]] == [collapsed(line) for line in theirs]


def test_a_faller_lands_unlands_by_moving_and_freezes() -> None:
    field = Field.with_contents(4, 3, ["   ", "   ", "   ", "X  "])
    field = field.create_faller(1, ("S", "T", "V")).tick().tick()
    assert field.landed  # on the X: a landed faller shows as |V|
    field = field.shift(1)
    assert not field.landed  # nothing under it in column 2
    field = field.tick()
    assert field.landed
    field = field.tick()
    assert field.faller is None and field.jewel(3, 1) == "V"


def test_diagonal_matches_and_a_chain() -> None:
    field = Field.with_contents(4, 3, ["   ", "Y  ", "XY ", "ZXY"])
    assert field.matched  # the Y diagonal
    field = field.tick()
    assert not field.matched and field.jewel(3, 2) is None


def test_bad_fields_and_fallers_are_refused() -> None:
    with pytest.raises(ColumnsError):
        Field.empty(3, 3)
    with pytest.raises(ColumnsError):  # found by fuzzing: it tried to allocate every row
        Field.empty(5_555_555_552, 3)
    with pytest.raises(ColumnsError):
        Field.empty(4, 101)
    with pytest.raises(ColumnsError):
        Field.with_contents(4, 3, ["   ", "   ", "   ", "A  "])
    with pytest.raises(ColumnsError):
        Field.empty(4, 3).create_faller(4, ("S", "T", "V"))


def test_a_faller_made_on_a_full_column_ends_the_game() -> None:
    field = Field.with_contents(4, 3, ["S  ", "T  ", "V  ", "W  "])
    field = field.create_faller(1, ("X", "Y", "Z"))
    assert field.landed
    assert field.tick().over


def test_the_shell_runs_as_a_program_on_standard_input() -> None:
    inputs, displays, over = handout_examples()[0]
    result = subprocess.run(
        [sys.executable, "-m", "c4tui", "columns", "--shell"],
        input="\n".join(inputs) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert over and lines[-1] == GAME_OVER
    assert len(lines) == len(displays) * 5 + 1  # 4 rows and the floor a display


colours = st.sampled_from("STVWXYZ")


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int, list[str] | None, list[str]]:
    rows, columns = draw(st.integers(4, 8)), draw(st.integers(3, 6))
    contents = None
    if draw(st.booleans()):
        cell = st.one_of(st.just(" "), st.just(" "), colours)
        contents = [
            "".join(draw(st.lists(cell, min_size=columns, max_size=columns))) for _ in range(rows)
        ]
    faller = st.builds(
        lambda column, a, b, c: f"F {column} {a} {b} {c}",
        st.integers(1, columns),
        colours,
        colours,
        colours,
    )
    command = st.one_of(
        st.just(""), st.just(""), st.just(""), st.just("R"), st.just("<"), st.just(">"), faller
    )
    return rows, columns, contents, draw(st.lists(command, max_size=80))


@settings(max_examples=300, deadline=None)
@given(games())
def test_the_engine_agrees_with_a_simple_reference(
    game: tuple[int, int, list[str] | None, list[str]],
) -> None:
    rows, columns, contents, commands = game
    field = Field.with_contents(rows, columns, contents) if contents else Field.empty(rows, columns)
    reference = ReferenceColumns(rows, columns, contents)
    assert render(field) == reference.render()
    for command in commands:
        if field.over:
            break
        next_field = apply(field, command)
        assert next_field is not None
        field = next_field
        reference.command(command)
        assert render(field) == reference.render(), command
        assert field.over == reference.over


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("x\n", "expected the number of rows, 4 to 100, not 'x'"),
        ("4\nthree\n", "expected the number of columns, 3 to 100, not 'three'"),
        ("4\n200\n", "expected the number of columns, 3 to 100, not '200'"),
        ("٤\n3\n", "expected the number of rows, 4 to 100, not '٤'"),
        (
            "4\n3\nEMPTY\nF x S T V\n",
            "expected a command (a blank line, F column A B C, R, <, > or Q), not 'F x S T V'",
        ),
    ],
)
def test_the_shell_says_what_it_expected_in_its_own_words(typed: str, said: str) -> None:
    result = run_c4tui("columns", "--shell", stdin=typed)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"columns: {said}"]  # no Python (int()'s words)
