"""``console --lobby`` at the table (§5.6): draw, no, takeback, abort and claim, for real.

Two consoles, or a console and a raw client, against a real server. Claims need time
to pass: the server's table talk reads a ``now`` moved by hand (``MovedTime``), and the
console's notice that a claim is possible waits the ``claim_waits`` it is given.
"""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TextIO

from c4tui.client import words
from c4tui.client.outcomes import TableOutcome
from c4tui.client.table_talk import ClaimWaits
from c4tui.client.words import Voice
from c4tui.console.lobby import ConsoleLobby, LobbySettings
from c4tui.console.table_talk import VIEWERS_CANNOT
from c4tui.engine import GameState, Move, Rules, render_board
from c4tui.protocols.table_talk import (
    ABORTED,
    AWAY_BEFORE_CLAIM,
    DRAW_AGREED,
    IDLE_BEFORE_CLAIM,
    IDLE_WARNING,
)
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_console import (
    TIMEOUT,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
)
from tests.net.test_lobby_console_trial import a_game_under_way
from tests.net.test_lobby_table_talk import MovedTime, bottom

AGREED = f"{words.CALLED_OFF[DRAW_AGREED]}."
CALLED_OFF = f"{words.CALLED_OFF[ABORTED]}."
NO_DECLINE = "There is no draw offer to decline. There is no takeback to refuse."


async def boards_until(client: LobbyClient, board: str) -> None:
    """Read ``client``'s lines up to BOARDSTATUS:``board`` (the first line not a board fails)."""
    line = await client.line()
    while line != f"BOARDSTATUS:{board}":
        assert line.startswith("BOARDSTATUS:"), line
        line = await client.line()


async def two_consoles(port: int) -> tuple[ConsoleProcess, ConsoleProcess]:
    """ann (RED) and bob (YELLOW), both consoles, at a 4 × 4 classic game's start."""
    ann = await console_user(port, "ann")
    bob = await console_user(port, "bob")
    await ann.type("create r1 4 4 classic")
    await ann.until("waiting for a second player")
    await bob.type("join r1")
    await ann.until("Game on")
    await bob.until("Game on")
    return ann, bob


async def test_a_draw_offered_too_early_then_offered_and_accepted(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await two_consoles(server.port)
        assert "say TEXT, abort, or forfeit:" in await ann.until("Your move")
        await ann.type("draw")
        await ann.until("No draw yet: each player must have moved.")
        await ann.type("1")
        await bob.until("Your move")
        await bob.type("2")
        assert "say TEXT, draw, or forfeit:" in await ann.until("Your move")
        await ann.type("draw")
        await ann.until("You offered bob a draw.")
        await bob.until("ann offers a draw. Type draw to accept, no to decline.")
        await bob.type("draw")
        for console in (ann, bob):
            await console.until(AGREED)
            await console.until("Back in the lobby.")
            await console.type("quit")
            assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == 0
        assert not any("draw!" in line or "wins" in line for line in ann.seen + bob.seen)


async def test_a_draw_declined_by_no_and_by_a_move(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await ann.send("DROP:1")
        await bob.until("Your move")
        await bob.type("no")
        await bob.until(NO_DECLINE)
        await bob.type("2")
        await boards_until(ann, bottom("1200"))
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await bob.until("ann offers a draw. Type draw to accept, no to decline.")
        await bob.type("no")
        assert await ann.line() == "DRAWDECLINED:bob"
        await bob.until("You declined ann's draw offer.")
        await ann.send("DROP:1")
        await boards_until(ann, "0" * 8 + "1000" + "1200")
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        await bob.until("ann offers a draw")
        await bob.type("3")  # a move declines it
        assert await ann.line() == "DRAWDECLINED:bob"
        assert (await ann.line()).startswith("BOARDSTATUS:")
        await bob.type("no")  # nothing stands any more
        await bob.until(NO_DECLINE)
        await bob.type("abort")
        await bob.until("Too late to abort: both players have moved.")
        await bob.type("draw")  # bob's own offer, declined by ann
        assert await ann.line() == "DRAWOFFER:bob"
        await bob.until("You offered ann a draw.")
        assert await ann.ask("DECLINEDRAW") == "DECLINEDRAW:ACKSTATUS:0"
        await bob.until("ann declined your draw offer.")


async def test_takebacks_agreed_to_and_asked_for(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await ann.send("DROP:1")
        await boards_until(ann, bottom("1000"))
        assert await ann.ask("TAKEBACK") == "TAKEBACK:ACKSTATUS:0"
        await bob.until("ann asks to take their last move back. Type takeback to agree, no")
        await bob.type("takeback")  # bob agrees: the empty board, RED to move again
        await boards_until(ann, "0" * 16)
        await bob.until("The last move is taken back.")
        await bob.until("RED's turn")
        await ann.send("DROP:1")
        await bob.until("Your move")
        await bob.type("takeback")
        await bob.until("There is no move of yours to take back.")
        await bob.type("2")
        await boards_until(ann, bottom("1200"))
        await bob.type("takeback")
        assert await ann.line() == "TAKEBACKOFFER:bob"
        await bob.until("You asked ann to let you take your last move back.")
        assert await ann.ask("TAKEBACK") == "TAKEBACK:ACKSTATUS:0"
        await bob.until("The last move is taken back.")
        shown = len(bob.seen)
        await bob.until("YELLOW's turn")
        one_back = GameState.new(4, 4, Rules.CLASSIC).play(Move.drop(0))
        assert bob.seen[shown:-1] == render_board(one_back).splitlines()
        await bob.until("Your move")  # the same player to move
        await bob.type("3")
        await boards_until(ann, bottom("1020"))


async def test_an_abort_before_both_have_moved(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await two_consoles(server.port)
        await ann.until("Your move")
        await ann.type("1")
        assert "say TEXT, abort, or forfeit:" in await bob.until("Your move")
        await bob.type("abort")
        for console in (ann, bob):
            await console.until(CALLED_OFF)
            await console.until("Back in the lobby.")


async def test_a_viewer_is_told_it_cannot_and_sees_the_offers(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_game_under_way(server.port)
        vic = await console_user(server.port, "vic")
        await vic.type("watch r1")
        await vic.until("Watching ann (RED) against bob (YELLOW)")
        for word in ("draw", "no", "takeback", "abort", "claim"):
            await vic.type(word)
            await vic.until(VIEWERS_CANNOT)
        await ann.send("DROP:1")
        await boards_until(ann, bottom("1000"))
        await bob.send("DROP:2")
        await boards_until(ann, bottom("1200"))
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        assert (await vic.until("ann offers a draw")) == "ann offers a draw."


async def test_help_names_the_table_words(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        vic = await console_user(server.port, "vic")
        await vic.type("help")
        start = len(vic.seen)
        await vic.until("Ctrl-D ends c4tui")
        shown = " ".join(line.strip() for line in vic.seen[start:])
        for words_said in ("draw offers a draw", "takeback asks", "no declines", "abort", "claim"):
            assert words_said in shown, words_said
        assert f"away {AWAY_BEFORE_CLAIM:g} s" in shown


class Shown(io.StringIO):
    """What the console wrote; ``until`` waits for text after what was waited for before.

    ``type`` writes a line into the console's input.
    """

    def __init__(self, typed: TextIO) -> None:
        super().__init__()
        self.typed = typed
        self.waited = 0

    def type(self, line: str) -> None:
        self.typed.write(line + "\n")

    async def until(self, text: str) -> None:
        async with asyncio.timeout(TIMEOUT):
            while text not in self.getvalue()[self.waited :]:
                await asyncio.sleep(0.05)
        self.waited += self.getvalue()[self.waited :].index(text) + len(text)


@asynccontextmanager
async def ann_here(port: int) -> AsyncIterator[tuple[Shown, LobbyClient]]:
    """ann, a console run here, playing RED against bob, a raw client, on a 4 × 4 board.

    ann's first move is played; what ann is told is yielded, with bob. ann quits after.
    """
    reader, writer = os.pipe()
    typed = os.fdopen(writer, "w", buffering=1)
    shown = Shown(typed)
    waits = ClaimWaits(away=0.3, idle=0.3)
    settings = LobbySettings("127.0.0.1", port, "ann", register=True, claim_waits=waits)
    with os.fdopen(reader) as stdin:
        lobby = asyncio.create_task(ConsoleLobby(settings, stdin, shown).run())
        shown.type("pw")
        shown.type("pw")  # registering: twice
        await shown.until("Logged in as ann")
        shown.type("create r1 4 4 classic")
        await shown.until("waiting for a second player")
        bob = await logged_in(port, "bob")
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await bob.line()  # BEGIN
        await shown.until("Your move")
        shown.type("1")
        await boards_until(bob, bottom("1000"))
        yield shown, bob
        await shown.until("Back in the lobby.")
        shown.type("quit")
        assert await asyncio.wait_for(lobby, TIMEOUT) == 0
        typed.close()


async def test_a_claim_against_an_opponent_away_is_told_when_possible(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=600) as server:
        time = MovedTime(server)
        async with ann_here(server.port) as (ann, bob):
            await bob.close()
            await ann.until("bob lost the connection")
            ann.type("claim")
            await ann.until(words.TABLE["CLAIM"].said(TableOutcome.NOT_NOW, Voice.CONSOLE))
            await ann.until(f"bob has been away {AWAY_BEFORE_CLAIM:g} s: type claim to win.")
            time.ahead = AWAY_BEFORE_CLAIM
            ann.type("claim")
            await ann.until("ann (you, RED) wins: bob left and did not come back.")


async def test_an_idle_opponent_in_an_untimed_game_is_told_claimable(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        time = MovedTime(server)
        async with ann_here(server.port) as (ann, bob):
            time.ahead = IDLE_WARNING  # the server's frequent look says IDLE:bob
            await ann.until(f"bob has not moved for {IDLE_WARNING / 60:g} minutes")
            assert await bob.line() == "IDLE:bob"
            await ann.until(f"bob has not moved for {IDLE_BEFORE_CLAIM / 60:g} minutes: type claim")
            time.ahead = IDLE_BEFORE_CLAIM
            ann.type("claim")
            await ann.until("ann (you, RED) wins: bob forfeited.")
