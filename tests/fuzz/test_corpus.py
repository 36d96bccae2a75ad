"""Every kept fuzz input, replayed through its target (seconds, in every test run).

The corpus was grown by coverage-guided fuzzing (``tests/fuzz/run.py``) and
merged down to the inputs that reach new code; a failure here is a property
the fuzzer once checked and a change has since broken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.targets import TARGETS

CORPUS = Path(__file__).parent / "corpus"


def test_every_target_has_a_corpus() -> None:
    assert sorted(path.name for path in CORPUS.iterdir()) == sorted(TARGETS)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_the_corpus_replays_clean(name: str) -> None:
    inputs = sorted((CORPUS / name).iterdir())
    assert inputs, f"no corpus for {name}"
    for path in inputs:
        TARGETS[name](path.read_bytes())  # raises if a property breaks
