"""``write_atomically``: a file is replaced in one step; a device or a pipe is written to."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from c4tui.storage import write_atomically


def test_a_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "a" / "game.c4g"
    write_atomically(path, "first")
    write_atomically(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    assert [entry.name for entry in path.parent.iterdir()] == ["game.c4g"]  # no leftovers


def test_a_pipe_is_written_to_not_replaced_by_a_file(tmp_path: Path) -> None:
    """As /dev/null is: `replay --server --save /dev/null` replaced it with a file once."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    read: list[str] = []
    reader = threading.Thread(
        target=lambda: read.append(pipe.read_text(encoding="utf-8")), daemon=True
    )
    reader.start()
    write_atomically(pipe, "Size: 7x6\n")
    reader.join(10)
    assert read == ["Size: 7x6\n"]
    assert stat.S_ISFIFO(pipe.stat().st_mode)  # still the pipe
