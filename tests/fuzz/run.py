"""Run one fuzz target under atheris: ``python -m tests.fuzz.run TARGET [libFuzzer flags]``.

Needs the ``fuzz`` extra (``pip install -e '.[fuzz]'``). The target's kept corpus,
``tests/fuzz/corpus/TARGET/``, seeds the run; new inputs go to a scratch
directory, ``/tmp/c4tui-fuzz/TARGET``. Given folders, it uses those instead, so
libFuzzer's ``-merge=1`` can fold what a run found into a small kept corpus:

    python -m tests.fuzz.run tictactoe_messages -runs=1000000 -max_len=4096
    python -m tests.fuzz.run tictactoe_messages -merge=1 NEW KEPT /tmp/c4tui-fuzz/tictactoe_messages
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["c4tui"]):
    from tests.fuzz.targets import TARGETS

CORPUS = Path(__file__).parent / "corpus"


def main() -> None:
    """Fuzz the target named first on the command line."""
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: python -m tests.fuzz.run TARGET [flags]; targets: {', '.join(TARGETS)}")
    name, arguments = sys.argv[1], sys.argv[2:]
    if all(argument.startswith("-") for argument in arguments):  # no folders given
        scratch = Path("/tmp/c4tui-fuzz") / name
        scratch.mkdir(parents=True, exist_ok=True)
        arguments += [str(scratch), str(CORPUS / name)]
    atheris.Setup([_this_target_again(name), *arguments], TARGETS[name])
    atheris.Fuzz()


def _this_target_again(name: str) -> str:
    """A command that runs this target (libFuzzer's ``-merge`` runs its argv[0] again)."""
    path = Path(tempfile.gettempdir()) / f"c4tui-fuzz-{name}.sh"
    root = Path(__file__).resolve().parent.parent.parent
    path.write_text(
        f'#!/bin/sh\ncd "{root}" && exec "{sys.executable}" -m tests.fuzz.run {name} "$@"\n'
    )
    path.chmod(0o755)
    return str(path)


if __name__ == "__main__":
    main()
