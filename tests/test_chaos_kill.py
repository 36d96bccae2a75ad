"""The chaos run with the server SIGKILLed mid-games: no game is lost (bench/chaos.py).

A short run (15 s, a few lobby players, one kill) of the real script against a real
``c4tui serve``: the players come back after the kill and go on with their games, and
every game that began is kept by the server as the players saw it end.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.bench_modules import BENCH


@pytest.mark.slow  # about 30 s: the run, the restart, and the games waiting for players away
def test_a_killed_server_loses_no_game() -> None:
    command = [sys.executable, str(BENCH / "chaos.py"), "--minutes", "0.25", "--clients", "8"]
    command += ["--warm-up", "0", "--quiet", "1", "--only", "lobby player"]
    command += ["--kill-server", "1", "--reconnect-grace", "10", "--seed", "3"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert "SIGKILL: gone after" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
    verdict = re.search(
        r"^(PASS|FAIL)  no game lost \((\d+) begun, (\d+) resumed", done.stdout, re.M
    )
    assert verdict is not None, done.stdout[-3000:]
    assert verdict[1] == "PASS", done.stdout[-3000:]
    assert int(verdict[2]) > 0 and int(verdict[3]) > 0  # games began, and some were resumed
    assert done.returncode == 0, done.stdout[-3000:]
