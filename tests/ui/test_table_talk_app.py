"""The online game's table talk by keys (spec §5.6): draws, takebacks, aborts, claims.

A real server; ann is a raw client (RED), zoe plays her in the app (YELLOW). What the
server pushes to zoe shows in the offer bar above the footer until it is answered or
void; a refusal is a warning in ``words.TABLE``'s words; an agreed end is the result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot

from c4tui.client.table_talk import ClaimWaits
from c4tui.engine import parse_move
from c4tui.protocols.table_talk import AWAY_BEFORE_CLAIM, IDLE_BEFORE_CLAIM, IDLE_WARNING
from c4tui.ui.screens.help import HELP_TEXT
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.widgets.move_list import MoveList
from c4tui.ui.widgets.offer_bar import OfferBar
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_table_talk import MovedTime
from tests.ui.test_clocks_app import zoe_joins_on
from tests.ui.test_lobby_app import text_of, until

#: A claim's wait in these tests (the server's time is moved by hand past its rule).
SHORT = ClaimWaits(away=0.2, idle=0.2)


@asynccontextmanager
async def zoe_plays_ann(
    tmp_path: Path, **settings: object
) -> AsyncIterator[tuple[Pilot, OnlineGameScreen, LobbyClient, MovedTime]]:
    """ann's room r1 (7 x 6 classic, no clock); zoe joins it in the app as YELLOW."""
    async with lobby_server(tmp_path, **settings) as server, zoe_joins_on(server, "") as joined:
        pilot, screen, ann = joined
        screen.claim_waits = SHORT
        yield pilot, screen, ann, MovedTime(server)


async def both_move(pilot: Pilot, screen: OnlineGameScreen, ann: LobbyClient) -> None:
    """ann drops in column 1, zoe in column 2 (with keys)."""
    await ann.send("DROP:1")
    await ann.line()
    await until(pilot, screen.driver.awaiting_submission)
    await pilot.press("2", "enter")
    assert (await ann.line()).startswith("BOARDSTATUS:")
    await until(pilot, lambda: len(screen.driver.moves) == 2)


def bar(pilot: Pilot) -> str:
    """What the offer bar says ('' while it is hidden)."""
    offers = pilot.app.screen.query_one(OfferBar)
    return str(offers.render()) if offers.display else ""


def warnings(pilot: Pilot) -> list[str]:
    return [note.message for note in pilot.app._notifications if note.severity == "warning"]


def footer_keys(screen: OnlineGameScreen) -> dict[str, bool]:
    """The actions the footer shows now, each lit (True) or dimmed."""
    return {
        binding.action: enabled
        for _, binding, enabled, _ in screen.active_bindings.values()
        if binding.show
    }


async def test_a_draw_offered_and_accepted_ends_by_agreement(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await both_move(pilot, screen, ann)
        await until(pilot, lambda: footer_keys(screen).get("offer_draw") is True)
        await pilot.press("d")
        assert await ann.line() == "DRAWOFFER:zoe"
        await until(pilot, lambda: "You offered ann a draw." in bar(pilot))
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await until(pilot, lambda: "Draw by agreement." in text_of(pilot, "#message"))
        assert bar(pilot) == ""


async def test_the_others_draw_offer_is_shown_and_accepted_with_d(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await both_move(pilot, screen, ann)
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await until(pilot, lambda: "ann offers a draw." in bar(pilot))
        assert "d: accept · n: decline" in bar(pilot)
        await pilot.press("d")
        assert (await ann.line()).endswith(":4")  # GAMEEND, a draw by agreement
        await until(pilot, lambda: "Draw by agreement." in text_of(pilot, "#message"))


async def test_the_others_draw_offer_declined_with_n_and_void_after_a_move(
    tmp_path: Path,
) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await both_move(pilot, screen, ann)
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await until(pilot, lambda: "ann offers a draw." in bar(pilot))
        await pilot.press("n")
        assert await ann.line() == "DRAWDECLINED:zoe"
        await until(pilot, lambda: bar(pilot) == "")
        await ann.send("DROP:1")  # ann's offer again, and zoe's move declines it
        await ann.line()
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await until(pilot, lambda: "ann offers a draw." in bar(pilot))
        await pilot.press("3", "enter")
        assert await ann.line() == "DRAWDECLINED:zoe"
        await until(pilot, lambda: bar(pilot) == "")
        assert not screen.driver.is_over


async def test_a_takeback_asked_and_agreed_puts_the_board_one_move_back(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await both_move(pilot, screen, ann)
        moves = screen.panel.query_one("#moves", MoveList)
        assert "d1" in moves.text and "d2" in moves.text
        await pilot.press("u")
        assert await ann.line() == "TAKEBACKOFFER:zoe"
        assert await ann.ask("TAKEBACK") == "TAKEBACK:ACKSTATUS:0"
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        assert screen.driver.moves == (parse_move("d1"),)
        await until(pilot, lambda: "d2" not in moves.text)
        assert "d1" in moves.text
        assert screen.board.state == screen.driver.state
        await until(pilot, screen.driver.awaiting_submission)  # zoe to move again
        await pilot.press("4", "enter")
        assert (await ann.line()).startswith("BOARDSTATUS:")


async def test_the_others_takeback_agreed_with_u(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await ann.send("DROP:1")
        await ann.line()
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        assert await ann.ask("TAKEBACK") == "TAKEBACK:ACKSTATUS:0"
        await until(pilot, lambda: "ann asks to take their last move back." in bar(pilot))
        assert "u: agree · n: refuse" in bar(pilot)
        await pilot.press("u")
        assert (await ann.line()).startswith("BOARDSTATUS:")
        await until(pilot, lambda: screen.driver.moves == ())
        await until(pilot, lambda: bar(pilot) == "")


async def test_an_abort_before_both_have_moved(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await until(pilot, lambda: footer_keys(screen).get("abort") is True)
        assert "offer_draw" not in footer_keys(screen)  # no draw before both have moved
        await pilot.press("a")
        assert (await ann.line()).endswith(":5")  # GAMEEND, aborted
        await until(pilot, lambda: "Game aborted." in text_of(pilot, "#message"))
        assert screen.score.games == 0  # called off: neither a win nor a draw in the score


async def test_a_refusal_is_said_in_the_tables_words(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, _):
        await pilot.press("d")  # nobody has moved: the key is left out, the server says why
        await until(pilot, lambda: bool(warnings(pilot)))
        assert warnings(pilot) == ["No draw yet: each player must have moved."]
        await both_move(pilot, screen, ann)
        await until(pilot, lambda: "abort" not in footer_keys(screen))
        await pilot.press("a")
        await until(pilot, lambda: len(warnings(pilot)) == 2)
        assert warnings(pilot)[-1] == "Too late to abort: both players have moved."
        assert not screen.driver.is_over


async def test_a_claim_once_the_opponent_has_been_away(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path, reconnect_grace=600) as (pilot, screen, ann, time):
        await ann.send("DROP:1")
        await ann.line()
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        assert screen.check_action("claim", ()) is None  # dimmed: nothing to claim
        await ann.close()
        await until(pilot, lambda: "ann has been away 30 s: c claims the win" in bar(pilot))
        assert screen.check_action("claim", ()) is True
        time.ahead = AWAY_BEFORE_CLAIM  # the server's rule, met
        await pilot.press("c")
        left = "zoe (YELLOW) wins: ann left and did not come back"
        await until(pilot, lambda: left in text_of(pilot, "#message"))
        await until(pilot, lambda: bar(pilot) == "")  # the claim does not outlive the game


async def test_a_claim_against_an_idle_opponent_in_a_game_without_a_clock(
    tmp_path: Path,
) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, time):
        await both_move(pilot, screen, ann)
        time.ahead = IDLE_WARNING  # ann has thought 5 minutes: IDLE to all
        assert await ann.line() == "IDLE:ann"
        await until(pilot, lambda: "ann has not moved for 10 minutes: c claims" in bar(pilot))
        time.ahead = IDLE_BEFORE_CLAIM
        await pilot.press("c")
        await until(pilot, lambda: "zoe (YELLOW) wins: ann forfeited" in text_of(pilot, "#message"))


async def test_our_own_idle_turn_is_said_to_us_until_we_move(tmp_path: Path) -> None:
    async with zoe_plays_ann(tmp_path) as (pilot, screen, ann, time):
        await ann.send("DROP:1")
        await ann.line()
        await until(pilot, screen.driver.awaiting_submission)
        time.ahead = IDLE_WARNING  # zoe has thought 5 minutes
        assert await ann.line() == "IDLE:zoe"
        said = "You have not moved for 5 minutes: at 10 ann may claim the game."
        await until(pilot, lambda: bar(pilot) == said)
        await pilot.press("2", "enter")
        await until(pilot, lambda: bar(pilot) == "")


def test_the_help_lists_the_tables_keys() -> None:
    for row in (
        "| d | online: offer a draw, or accept the one offered",
        "| u | online: ask to take your last move back, or agree",
        "| n | online: decline the draw or the takeback",
        "| a | online: abort the game before both players have moved",
        "| c | online: claim the win against an opponent away 30 s, or idle 10 minutes",
    ):
        assert row in HELP_TEXT
