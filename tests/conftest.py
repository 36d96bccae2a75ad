"""Shared test settings: how hard hypothesis tries (more on CI), a private data directory, and
the order that lets parallel workers (pytest-xdist) finish together."""

import asyncio
import contextlib
import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from textual.app import App, ScreenStackError

from tests.outside.sandboxes import sandbox  # noqa: F401 (the fixture, for every test)

settings.register_profile(
    "default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ON_CI = bool(os.environ.get("CI"))
_default_profile = "ci" if ON_CI else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default_profile))


def scaled(here: int, on_ci: int) -> int:
    """How much a slow test does: more on CI (which has the time), less on a developer's run."""
    return on_ci if ON_CI else here


@pytest.fixture(autouse=True)
def private_data_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """User data (the server's accounts), config (the app's preferences) and downloads (the
    palette's "Download record") in temporary directories, never the real user's.

    Set in the environment, so processes a test starts use it too.
    """
    data = tmp_path_factory.mktemp("user-data")
    config = tmp_path_factory.mktemp("user-config")
    downloads = tmp_path_factory.mktemp("user-downloads")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(data))
        patch.setenv("XDG_CONFIG_HOME", str(config))
        patch.setenv("XDG_DOWNLOAD_DIR", str(downloads))
        yield data


@pytest.fixture(autouse=True)
def still_discs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps in tests draw each move at once (no falling discs, no smooth scrolling), so a
    snapshot or an assertion right after a move sees it in place. Tests of the animation
    turn it back on for their app."""
    import textual.constants

    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


#: How long Pilot's idle check (``textual._wait.wait_for_idle``, behind every key pressed
#: and every pause) watches the process: Textual's 20 ms made a key cost at least 40 ms of
#: sleep, most of a UI test's time. The same idle share (1/20 of the window) is kept.
IDLE_WINDOW_SECONDS = 0.004
#: The longest a pause waits for the screen's next refresh (a closing app has none).
REFRESH_WAIT_SECONDS = 2.0


@pytest.fixture(autouse=True)
def quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot sees the app idle in a window of ``IDLE_WINDOW_SECONDS``, not of 20 ms, and
    ``pilot.pause()`` also lets the screen refresh and run what waits for that.

    Textual's 20 ms windows spanned a frame (16.7 ms at its 60 a second); the short ones
    do not, so a pause would end before what is done after a refresh (the footer composed
    again for new bindings, a table shown): now it waits for the refresh itself.
    """
    import textual._wait
    from textual.pilot import Pilot

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", IDLE_WINDOW_SECONDS)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", IDLE_WINDOW_SECONDS / 20)
    paused = Pilot.pause

    async def pause_and_refresh(self: Pilot[object], delay: float | None = None) -> None:
        await paused(self, delay)
        if delay is None:
            await refreshed(self.app)

    monkeypatch.setattr(Pilot, "pause", pause_and_refresh)


async def refreshed(app: App[object]) -> None:
    """Once ``app``'s screen has refreshed and run its after-refresh callbacks (at most
    ``REFRESH_WAIT_SECONDS``; at once if none wait, or it has no screen or is closing)."""
    try:
        screen = app.screen
    except ScreenStackError:
        return
    if screen._task is None or not app.is_running:
        return
    if not (screen._callbacks or screen._dirty_widgets or screen._layout_required):
        return  # nothing waits for a refresh, and nothing is to be drawn
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(screen.wait_for_refresh(), REFRESH_WAIT_SECONDS)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker more than there are cores.

    A third of the suite's time is waiting (sockets, child processes, the browser), not
    computing; on two cores a third worker keeps both busy meanwhile.
    """
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else 3


#: The longest tests (``--durations``, 2026-12-07), longest first: each starts a worker's
#: share, so that no worker is left running one of them alone at the end of the run. The
#: browser's two come first, while no other long test loads the machine: their clicks wait
#: fixed times for the app (its terminal is a canvas, with no text to wait for).
LONGEST_TESTS = (
    "tests/web/test_browser.py::test_clicks_play_each_tab_has_its_own_game_and_the_cap_holds",
    "tests/web/test_browser.py::test_a_two_player_game_is_played_to_a_win_with_keys",
    "tests/test_chaos_kill.py::test_a_killed_server_loses_no_game",
    "tests/net/test_tictactoe_stateful.py::",
    "tests/ui/test_comeback_app.py::test_a_player_keeps_trying_past_its_tries_while_its_game",
    "tests/tournament/test_command.py::test_ctrl_c_keeps_what_finished_and_resume_plays_the_rest",
    "tests/tournament/test_preflight.py::test_the_pre_flight_runs_at_most_concurrency_programs",
    "tests/net/cluster/test_bench.py::test_killing_the_leader_in_the_chaos_run_loses_no_game",
    "tests/ui/test_fuzz.py::test_random_keys_never_crash_the_app",
    "tests/net/cluster/test_tictactoe_nodes.py::test_blocks_hold_on_a_tic_tac_toe_port",
    "tests/tournament/test_command.py::test_without_out_nothing_stays_in_the_temporary_folder",
    "tests/ui/test_columns_app.py::test_random_keys_never_break_a_game_of_columns",
    "tests/test_engine_properties.py::test_whole_random_games_match_the_reference",
    "tests/net/test_lobby_stateful_restarts.py::",
    "tests/ui/test_board_drawing.py::test_every_cell_that_changes_on_screen_is_repainted",
)


def _rank(item: pytest.Item) -> int:
    """Where ``item`` stands among the longest tests (their number when it is none of them)."""
    return next(
        (rank for rank, prefix in enumerate(LONGEST_TESTS) if item.nodeid.startswith(prefix)),
        len(LONGEST_TESTS),
    )


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deal the longest tests out to the heads of the workers' first shares.

    xdist's ``worksteal`` hands each worker a contiguous share of the collected tests (the
    first worker the first ``len // n``, and so on) and later moves tests that have not
    started from a busy worker to an idle one. Dealt out this way, the long tests start
    first on every worker and the run ends on short ones. Without xdist (``-n 0``) the
    long ones simply come first.
    """
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    longest = sorted((item for item in items if _rank(item) < len(LONGEST_TESTS)), key=_rank)
    others = [item for item in items if _rank(item) == len(LONGEST_TESTS)]
    shares: list[list[pytest.Item]] = [longest[worker::workers] for worker in range(workers)]
    remaining = len(items)
    for worker, share in enumerate(shares):
        size = remaining // (workers - worker)  # as worksteal's first deal cuts them
        fill = max(0, size - len(share))
        share.extend(others[:fill])
        del others[:fill]
        remaining -= len(share)
    shares[-1].extend(others)
    items[:] = [item for share in shares for item in share]


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Collect garbage before a hypothesis test, so no finalizer runs inside its ``ast.parse``.

    Hypothesis reads a test's source (``inspect.getsource``, so ``ast.parse``) to name it in
    its database. On CPython 3.11 before 3.11.8, an object collected during that parse whose
    finalizer fails (an asyncio subprocess transport left by an earlier test, once its loop
    has closed) has its traceback formatted, which parses too — and the inner parse upsets
    the outer one's recursion count: ``SystemError: AST constructor recursion depth
    mismatch`` (CI saw it once in the stateful restarts test). Nothing is left to collect then.
    """
    function = getattr(item, "obj", None)
    if getattr(function, "is_hypothesis_test", False):
        gc.collect()
