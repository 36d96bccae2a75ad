"""c4tui web in a real browser (Debian's Chromium, driven by Playwright).

What the app shows is drawn on a canvas, so the tests read what the visitor's app
did from its own files: a game saved with ``s`` lands in the visitor's data folder.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from c4tui.records import Result, parse_record
from tests.web.helpers import CHROMIUM, CHROMIUM_ARGS, web_server

pytest.importorskip("textual_serve", reason="c4tui web needs the web extra")
playwright = pytest.importorskip("playwright.async_api", reason="needs playwright (test extra)")
if not CHROMIUM.exists():
    pytest.skip(
        f"no browser at {CHROMIUM}: install Debian's chromium (.ci/run does) "
        "to run the browser tests",
        allow_module_level=True,
    )

#: The browser window: the app gets about 133 x 44 cells.
VIEWPORT = {"width": 1200, "height": 800}


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    async with playwright.async_playwright() as driver:
        chromium = await driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


async def open_app(browser: object, url: str, click: bool = True) -> object:
    """A new tab on the app, once the app has drawn its menu (clicked, unless ``click`` is
    False: the terminal has the focus either way)."""
    page = await browser.new_page(viewport=VIEWPORT)  # type: ignore[attr-defined]
    await page.goto(url)
    await menu_drawn(page)
    if click:
        await page.click("#terminal", position={"x": 5, "y": 400})
    return page


async def menu_drawn(page: object) -> None:
    await page.wait_for_selector("body.-first-byte", timeout=30_000)  # type: ignore[attr-defined]
    await page.wait_for_timeout(1500)  # type: ignore[attr-defined]  # the menu's first frames


async def press(page: object, *keys: str) -> None:
    for key in keys:
        await page.keyboard.press(key)  # type: ignore[attr-defined]
        await page.wait_for_timeout(150)  # type: ignore[attr-defined]


async def saved(server: object, count: int) -> list[Path]:
    import asyncio

    for _ in range(100):
        games = server.saved_games()  # type: ignore[attr-defined]
        if len(games) >= count:
            return games
        await asyncio.sleep(0.1)
    return server.saved_games()  # type: ignore[attr-defined, no-any-return]


async def test_a_two_player_game_is_played_to_a_win_with_keys_and_no_network_mode(
    browser: object, tmp_path: Path
) -> None:
    # Mode: Two players, Computer[, Network server, Online]. Two steps right wrap round to
    # Two players when only the local modes are offered; else Network server's dialog
    # would open and no game could be played.
    with web_server(tmp_path) as server:
        page = await open_app(browser, server.url)
        assert await page.title() == "c4tui: Connect Four"  # type: ignore[attr-defined]
        await press(page, "ArrowRight", "ArrowRight", "Enter")
        await page.wait_for_timeout(1000)  # type: ignore[attr-defined]
        for column in "1212121":
            await press(page, column, "Enter")
        await press(page, "s", "Enter")
        [game] = await saved(server, 1)
    record = parse_record(game.read_text())
    assert record.result is Result.RED
    assert "".join(str(move.column + 1) for move in record.moves) == "1212121"
    assert record.opponent == "human"


async def test_clicks_play_each_tab_has_its_own_game_and_the_cap_holds(
    browser: object, tmp_path: Path
) -> None:
    with web_server(tmp_path, "--max-sessions", "2") as server:
        first = await open_app(browser, server.url)
        second = await open_app(browser, server.url)
        third = await browser.new_page(viewport=VIEWPORT)  # type: ignore[attr-defined]
        response = await third.goto(server.url)
        assert response.status == 503
        assert "c4tui is full" in await third.inner_text("body")
        await press(first, "Enter")
        await press(second, "Enter")
        await first.wait_for_timeout(2000)  # type: ignore[attr-defined]  # both games shown
        # A click in the board's middle plays the middle column: the app is 133 cells
        # wide in this window, the panel 30 of them, the board centred in the rest.
        screen = await first.query_selector(".xterm-screen")  # type: ignore[attr-defined]
        box = await screen.bounding_box()
        cell = box["width"] / 133
        await first.mouse.click(box["x"] + (133 - 30) / 2 * cell, box["y"] + 300)  # type: ignore[attr-defined]
        await first.wait_for_timeout(500)  # type: ignore[attr-defined]
        await press(first, "s", "Enter")
        await press(second, "1", "Enter", "s", "Enter")
        games = await saved(server, 2)
    moves = sorted(
        "".join(str(move.column + 1) for move in parse_record(game.read_text()).moves)
        for game in games
    )
    assert moves == ["1", "4"]  # each tab its own game: one drop each


async def games_played(server: object, moves: str) -> bool:
    """True once a visitor's saved game has exactly ``moves`` (1-based columns)."""
    import asyncio

    for _ in range(100):
        for game in server.saved_games():  # type: ignore[attr-defined]
            record = parse_record(game.read_text())
            if "".join(str(move.column + 1) for move in record.moves) == moves:
                return True
        await asyncio.sleep(0.1)
    return False


async def test_keys_work_without_a_click_and_again_after_play_again(
    browser: object, tmp_path: Path
) -> None:
    with web_server(tmp_path) as server:
        page = await open_app(browser, server.url, click=False)
        await press(page, "Enter")  # Two players
        await page.wait_for_timeout(1000)  # type: ignore[attr-defined]
        await press(page, "3", "Enter", "s", "Enter")
        assert await games_played(server, "3")
        await press(page, "q", "y")  # quit mid-game: yes
        await page.wait_for_selector("body.-closed", timeout=30_000)  # type: ignore[attr-defined]
        await page.click("text=Play again")  # type: ignore[attr-defined]
        await menu_drawn(page)
        await press(page, "Enter")
        await page.wait_for_timeout(1000)  # type: ignore[attr-defined]
        await press(page, "5", "Enter", "s", "Enter")
        assert await games_played(server, "5")


async def downloaded(page: object, *keys: str) -> str:
    """What the visitor's browser downloads once ``keys`` are pressed."""
    async with page.expect_download(timeout=30_000) as download:  # type: ignore[attr-defined]
        await press(page, *keys)
    got = await download.value
    return Path(await got.path()).read_text(encoding="utf-8")


async def test_a_visitor_downloads_the_game_as_a_record_from_save_and_the_palette(
    browser: object, tmp_path: Path
) -> None:
    """The visitor's saves stay on the server (issue 40 #21): Save hands the record over
    as well, and so does the palette's "Download record"."""
    with web_server(tmp_path) as server:
        page = await open_app(browser, server.url)
        await press(page, "Enter")  # Two players
        await page.wait_for_timeout(1000)  # type: ignore[attr-defined]
        await press(page, "4", "Enter", "3", "Enter")
        saved = parse_record(await downloaded(page, "s", "Enter"))
        await press(page, "5", "Enter")
        typed = ["Control+p", *"download record", "Enter"]
        handed = parse_record(await downloaded(page, *typed))
    assert "".join(str(move.column + 1) for move in saved.moves) == "43"
    assert "".join(str(move.column + 1) for move in handed.moves) == "435"
