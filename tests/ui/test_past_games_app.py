"""My games and a player's games in the app (Pilot), against a real lobby server and clients."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable

from c4tui.ai.analysis import Analysis
from c4tui.ai.review_verdicts import Verdict
from c4tui.engine import Move, Player, Rules
from c4tui.protocols.past import KeptGame
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.past_games import PastGamesScreen
from c4tui.ui.screens.past_review import PastGameReview
from c4tui.ui.widgets.move_list import MoveList
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.ui.helpers import make_app
from tests.ui.past_games import BLUNDER_GAME, STARTED, two_finished_games
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until

#: Big enough for the review's panel to say everything (the snapshots look at 80 × 24 too).
SIZE = (110, 34)
#: The solver analyses 24 positions in the pool's process (its first start is slow).
ANALYSIS_SECONDS = 90


def rows(pilot: Pilot) -> list[list[str]]:
    table = pilot.app.screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]


def online_app(port: int, user: str = "ann"):
    return make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(port), "user": user}
    )


async def anns_games(pilot: Pilot) -> None:
    """ann logs in and opens My games: her two games listed."""
    await log_in_through_the_dialog(pilot, "pw", register=False)
    await pilot.press("m")
    await until(pilot, lambda: isinstance(pilot.app.screen, PastGamesScreen))
    await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 2)


@asynccontextmanager
async def anns_games_listed(tmp_path: Path) -> AsyncIterator[Pilot]:
    """A lobby server with ann's two games, and the app with My games open on them."""
    async with lobby_server(tmp_path) as server:
        await two_finished_games(server.port, tmp_path / "accounts.sqlite3")
        app = online_app(server.port)
        async with app.run_test(size=SIZE) as pilot:
            await anns_games(pilot)
            yield pilot


async def long_game_reviewed(pilot: Pilot) -> PastGameReview:
    """The second game (7 × 6, 24 moves) opened from My games: its review."""
    await pilot.press("down", "enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, PastGameReview))
    review = pilot.app.screen
    assert isinstance(review, PastGameReview)
    return review


async def test_my_games_lists_them_and_reviews_one_with_its_losing_move(tmp_path: Path) -> None:
    async with anns_games_listed(tmp_path) as pilot:
        app = pilot.app
        assert "Your finished games (ann)" in text_of(pilot, "#games-title")
        assert "2 games, newest first." in text_of(pilot, "#games-status")
        (short, long) = rows(pilot)
        assert short[1:] == ["bob", "casual 3+2", "won (forfeit)", "2", "5 × 4 Classic"]
        assert long[1:] == ["bob", "casual", "lost (four in a row)", "24", "7 × 6 Classic"]
        assert short[0][:4] == "2026" and len(short[0]) == len("2026-11-26 23:05")
        review = await long_game_reviewed(pilot)
        await until(pilot, lambda: review.analysed, ANALYSIS_SECONDS)
        assert review.turning is not None
        assert (review.turning.number, review.turning.mover) == (19, Player.RED)
        assert review.turning.move == Move.drop(0) and review.turning.instead == 4
        said = text_of(pilot, "#message").replace("\n", " ")
        assert "Move 10 (ann, column 1) lost the game:" in said  # the list's 10. d1
        assert "column 5 would have held a draw" in said
        assert review.board.analysis is not None  # the empty board's verdicts
        assert review.board.analysis[3] == "W21"  # RED wins in the centre
        await pilot.press("t")  # to the position of the losing move
        assert review.at == 18
        assert review.board.analysis[0][0] == "L" and review.board.analysis[4] == "D"
        assert "Next: Move 10" in text_of(pilot, "#message").replace("\n", " ")
        assert "Review: move 9 of 12" in text_of(pilot, "#message")  # YELLOW's 9… d3
        await pilot.press("right")
        assert "d1??" in review.query_one(MoveList).text  # marked in the move list
        await pilot.press("end")
        assert review.board.analysis is None  # the game is over: nothing to label
        assert review.check_action("play_on", ()) is False  # a kept game does not play on
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
        await pilot.press("up", "enter")  # the 5 × 4 game: so small a board is proven too
        await until(pilot, lambda: isinstance(app.screen, PastGameReview))
        small = app.screen
        assert isinstance(small, PastGameReview)
        await until(pilot, lambda: small.analysed, ANALYSIS_SECONDS * 4)
        assert small.analyses and all(analysis.exact for analysis in small.analyses)
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


def test_the_review_counts_the_positions_analysed_and_says_why_none_lost() -> None:
    moves = tuple(Move.drop(int(digit) - 1) for digit in BLUNDER_GAME)
    kept = KeptGame(1, "ann", "bob", (7, 6, Rules.CLASSIC), "bob", "four", moves, False, STARTED)
    review = PastGameReview(kept, "ann")
    assert review._notes(0) == "\nSolver: 0 of 24 positions…"
    assert review.check_action("turning_point", ()) is False  # nothing found yet
    review.analyses.extend([Analysis(True, ())] * 5)  # (only counted here)
    assert review._notes(3) == "\nSolver: 5 of 24 positions…"
    review.analysed = True  # and nothing found: why depends on how the game ended
    assert review._notes(0) == "\nSolver: no move of ann's threw away a draw or a win."
    drawn = PastGameReview(replace(kept, winner=None, reason="draw"), "ann")
    drawn.analysed = True
    assert drawn._notes(0) == "\nSolver: a draw; no move lost the game."
    going_on = PastGameReview(replace(kept, winner=None, reason=""), "ann")
    going_on.analysed = True
    assert going_on._notes(0) == "\nSolver: the game is not over; no move has lost it yet."


async def back_in(port: int, user: str) -> LobbyClient:
    """``user`` (password ``pw``) logged in again."""
    client = await LobbyClient.connect(port)
    assert await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"
    return client


async def the_only_rooms_players_games(pilot: Pilot) -> None:
    """Log in as zoe (a new account), and press p on the one room listed."""
    await log_in_through_the_dialog(pilot, "secret", register=True)
    await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 1)
    await pilot.press("p")
    await until(pilot, lambda: isinstance(pilot.app.screen, PastGamesScreen))


async def test_a_rooms_players_games_each_from_their_side(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await two_finished_games(server.port, tmp_path / "accounts.sqlite3")
        ann, bob = await back_in(server.port, "ann"), await back_in(server.port, "bob")
        assert await ann.ask("CREATE:rematch:7:6:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:rematch:PLAYER") == "JOIN:ACKSTATUS:0"
        app = online_app(server.port, "zoe")
        async with app.run_test(size=SIZE) as pilot:
            await the_only_rooms_players_games(pilot)
            await until(pilot, lambda: app.screen.query_one(DataTable).row_count == 2)
            assert "ann's finished games" in text_of(pilot, "#games-title")
            assert "2 games, newest first · o: bob's games." in text_of(pilot, "#games-status")
            assert [row[1:4] for row in rows(pilot)] == [
                ["bob", "casual 3+2", "won (forfeit)"],
                ["bob", "casual", "lost (four in a row)"],
            ]
            await pilot.press("o")
            await until(pilot, lambda: "bob's finished games" in text_of(pilot, "#games-title"))
            await until(pilot, lambda: rows(pilot)[0][1] == "ann")
            assert [row[1:4] for row in rows(pilot)] == [
                ["ann", "casual 3+2", "lost (forfeit)"],
                ["ann", "casual", "won (four in a row)"],
            ]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await ann.close()
            await bob.close()


async def test_a_player_without_games_and_a_server_gone_are_said_in_a_line(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        cid = await logged_in(server.port, "cid")
        assert await cid.ask("CREATE:cid room:7:6:classic") == "CREATE:ACKSTATUS:0"
        app = online_app(server.port, "zoe")
        async with app.run_test(size=SIZE) as pilot:
            await the_only_rooms_players_games(pilot)
            await until(pilot, lambda: "no finished games" in text_of(pilot, "#games-status"))
            assert "cid has no finished games yet." in text_of(pilot, "#games-status")
            assert app.screen.check_action("other_player", ()) is False  # cid waits alone
            assert app.screen.check_action("review", ()) is False
            await pilot.press("enter")  # nothing to review: nothing happens
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("m")
            await until(pilot, lambda: "You have no finished" in text_of(pilot, "#games-status"))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await cid.close()
            await server.stop()  # the server goes: a line says so, nothing breaks
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
            said = "the lobby logs in again once you go back to it (Esc)"  # what to do
            await until(pilot, lambda: said in text_of(pilot, "#games-status"))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_past_game_s_review_shows_the_verdicts_too(tmp_path: Path) -> None:
    async with anns_games_listed(tmp_path) as pilot:
        review = await long_game_reviewed(pilot)
        await pilot.press("a")
        await until(pilot, lambda: review.verdicts is not None, ANALYSIS_SECONDS)
        assert review.verdicts is not None
        # RED's d1 (move 19) threw its draw away: a mistake, as the turning point says.
        losing = review.verdicts.moves[18]
        assert (losing.move, losing.verdict) == (Move.drop(0), Verdict.MISTAKE)
        mistakes = [m.ply for m in review.verdicts.moves if m.verdict.threw_outcome]
        for _ in mistakes[: mistakes.index(19) + 1]:
            await pilot.press("right_square_bracket")
        await pilot.pause()
        assert review.at == 19
        said = text_of(pilot, "#message").replace("\n", " ")
        assert "d1: mistake, best was" in said and "Accuracy:" in said
        assert "d1?" in review.query_one(MoveList).text
