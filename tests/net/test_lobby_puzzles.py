"""The lobby's puzzles over real sockets (§8, issue 41): the daily one, a rating per account.

Each test runs on SQLite and on PostgreSQL (``lobby_db``): a cluster's nodes share the
puzzle rating through the store, and it survives a restart.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import c4tui
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import LoginOutcome, RegisterOutcome
from c4tui.client.puzzles import fetch_puzzle, report_try, verdict_words
from c4tui.engine import parse_move
from c4tui.engine.sequence import play_sequence
from c4tui.protocols import lobby as wire
from c4tui.protocols.puzzles import PuzzleOffer, PuzzleVerdict, parse_puzzle_answer
from c4tui.protocols.puzzles import parse_solved_answer as parse_verdict
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, puzzle_by_id, shipped_puzzles
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in


def today() -> str:
    """The server's day (UTC)."""
    return datetime.now(UTC).date().isoformat()


async def offered(client: LobbyClient, line: str = "PUZZLE") -> PuzzleOffer:
    """The puzzle the server answers ``line`` with."""
    answer = wire.parse_server_message(await client.ask(line))
    assert isinstance(answer, wire.Ack) and answer.status == 0, answer
    offer = parse_puzzle_answer(answer.extra)
    assert offer is not None
    return offer


async def tried(client: LobbyClient, puzzle_id: str, moves: str) -> PuzzleVerdict:
    """The server's verdict on ``moves`` (notations) for ``puzzle_id``."""
    answer = wire.parse_server_message(await client.ask(f"PUZZLESOLVED:{puzzle_id}:{moves}"))
    assert isinstance(answer, wire.Ack) and answer.status == 0, answer
    verdict = parse_verdict(answer.extra)
    assert verdict is not None
    return verdict


def shipped(puzzle_id: str) -> Puzzle:
    """The shipped puzzle ``puzzle_id``."""
    puzzle = puzzle_by_id(shipped_puzzles(), puzzle_id)
    assert puzzle is not None
    return puzzle


def right_moves(puzzle: Puzzle) -> str:
    """The solver side's moves of the solution, as PUZZLESOLVED carries them."""
    return ",".join(puzzle.solution[::2])


def a_wrong_move(puzzle: Puzzle) -> str:
    """A legal drop that is not the solution's first move."""
    first = parse_move(puzzle.solution[0]).column
    state = play_sequence(puzzle.moves)
    column = next(
        c for c in range(7) if c != first and state.refusal(parse_move(f"d{c + 1}")) is None
    )
    return f"d{column + 1}"


async def ann_and_the_daily(port: int) -> tuple[LobbyClient, Puzzle]:
    """ann, logged in, and the daily puzzle the server gave her."""
    ann = await logged_in(port, "ann")
    return ann, shipped((await offered(ann)).puzzle_id)


async def test_two_accounts_are_given_the_same_daily_puzzle(tmp_path: Path, lobby_db: str) -> None:
    expected = daily_puzzle(shipped_puzzles(), datetime.now(UTC).date())
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        line = await ann.ask("PUZZLE")
        assert line == await bob.ask("PUZZLE")
    offer = parse_puzzle_answer(wire.parse_server_message(line).extra)  # type: ignore[union-attr]
    assert offer == PuzzleOffer(
        expected.id,
        expected.moves,
        expected.goal,
        expected.solution,
        expected.themes,
        expected.rating,
        1500,
    )


async def test_the_right_moves_raise_the_rating_and_a_second_try_is_not_rated(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, puzzle = await ann_and_the_daily(server.port)
        verdict = await tried(ann, puzzle.id, right_moves(puzzle))
        at_home = PuzzleProgress()  # the trainer's own rule, as the app rates a try
        change = at_home.record(puzzle, True, today())
        assert change > 0
        assert verdict == PuzzleVerdict(True, True, round(at_home.rating.rating), verdict.change, 1)
        assert verdict.change == round(at_home.rating.rating) - 1500
        again = await tried(ann, puzzle.id, right_moves(puzzle))
        assert again == PuzzleVerdict(True, False, verdict.rating, 0, 1)
        assert (await offered(ann)).player_rating == verdict.rating


async def test_wrong_moves_lower_the_rating_and_end_the_streak(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, daily = await ann_and_the_daily(server.port)
        assert (await tried(ann, daily.id, right_moves(daily))).streak == 1
        following = await offered(ann, "PUZZLE:NEXT")
        assert following.puzzle_id != daily.id  # tried already: not offered next
        puzzle = shipped(following.puzzle_id)
        before = following.player_rating
        verdict = await tried(ann, puzzle.id, a_wrong_move(puzzle))
        assert not verdict.solved and verdict.rated and verdict.streak == 0
        assert verdict.rating < before and verdict.change == verdict.rating - before
        # Too few of the right moves is no solution either (when there is more than one).
        longer = next(p for p in shipped_puzzles() if p.solver_moves >= 2)
        short = await tried(ann, longer.id, longer.solution[0])
        assert not short.solved


async def test_next_is_the_untried_puzzle_nearest_the_accounts_rating(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, puzzle = await ann_and_the_daily(server.port)
        await tried(ann, puzzle.id, right_moves(puzzle))
        at_home = PuzzleProgress()
        at_home.record(puzzle, True, today())
        expected = next_puzzle(shipped_puzzles(), at_home)
        assert (await offered(ann, "PUZZLE:NEXT")).puzzle_id == expected.id


async def test_the_puzzle_rating_is_the_same_after_a_restart(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, puzzle = await ann_and_the_daily(server.port)
        rating = (await tried(ann, puzzle.id, right_moves(puzzle))).rating
    async with lobby_server(tmp_path, lobby_db) as server:
        client = await LobbyClient.connect(server.port)
        assert await client.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert (await offered(client)).player_rating == rating
        assert await tried(client, puzzle.id, right_moves(puzzle)) == PuzzleVerdict(
            True, False, rating, 0, 1
        )


async def test_garbage_is_refused_and_nobody_else_notices(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        stranger = await LobbyClient.connect(server.port)
        await stranger.send("REGISTER:zed:pw")
        assert await stranger.line() == "REGISTER:ACKSTATUS:0"
        assert await stranger.ask("PUZZLE") == "BADAUTH"  # not logged in
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        daily = await offered(bob)
        assert await ann.ask("PUZZLE:TOMORROW") == "PUZZLE:ACKSTATUS:1"
        assert await ann.ask("PUZZLESOLVED:nonsense") == "PUZZLESOLVED:ACKSTATUS:2"
        assert await ann.ask(f"PUZZLESOLVED:{daily.puzzle_id}:d9,x") == "PUZZLESOLVED:ACKSTATUS:2"
        assert await ann.ask("PUZZLESOLVED:1234567:d1") == "PUZZLESOLVED:ACKSTATUS:1"  # no such
        assert await ann.ask("PROFILE:ann") == "PROFILE:ACKSTATUS:0:ann:1500:350:0:0:0:0:0"
        assert (await offered(ann)).player_rating == 1500  # nothing was rated
        await ann.send("PUZZLES")  # an unknown command: a protocol violation, closed
        assert await ann.closed()
        assert await offered(bob) == daily  # bob is served as before


def page_exchange() -> list[tuple[str, str]]:
    """PROTOCOL.md §8's exchanges: (what alice sends, what she is answered), comments cut."""
    page = (Path(c4tui.__file__).parent / "protocols" / "PROTOCOL.md").read_text("utf-8")
    section = page.split("## Puzzles: the daily puzzle")[1].split("\n## ")[0]
    lines = re.findall(r"^alice [→←] (.+?)(?: {2,}#.*)?$", section, re.M)
    return list(zip(lines[::2], lines[1::2], strict=True))


async def test_the_protocol_pages_exchange_is_what_a_server_answers(tmp_path: Path) -> None:
    """§8's lines, replayed: each try answered as the page says; each puzzle the shipped one."""
    exchange = page_exchange()
    assert len(exchange) == 7
    async with lobby_server(tmp_path) as server:
        alice = await logged_in(server.port, "alice")
        for sent, answer in exchange:
            if not sent.startswith("PUZZLE:") and sent != "PUZZLE":
                assert await alice.ask(sent) == answer, sent
                continue
            offer = parse_puzzle_answer(wire.parse_server_message(answer).extra)  # type: ignore[union-attr]
            if offer is None:  # an error's status
                assert await alice.ask(sent) == answer
                continue
            puzzle = shipped(offer.puzzle_id)
            assert (puzzle.moves, puzzle.solution, puzzle.themes) == (
                offer.moves,
                offer.solution,
                offer.themes,
            )
            await alice.ask(sent)  # the day's puzzle, or the next from this one's


async def test_a_client_fetches_the_daily_puzzle_and_reports_a_try(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        link = await LobbyLink.open("127.0.0.1", server.port)
        try:
            assert await link.register("ann", "pw") is RegisterOutcome.CREATED
            assert await link.login("ann", "pw") is LoginOutcome.LOGGED_IN
            offer = await fetch_puzzle(link)
            assert offer is not None and offer.player_rating == 1500
            puzzle = shipped(offer.puzzle_id)
            right = [parse_move(step) for step in puzzle.solution[::2]]
            verdict = await report_try(link, offer.puzzle_id, right)
            assert verdict is not None and verdict.solved and verdict.rated
            assert verdict_words(verdict) == (
                f"Solved! Your puzzle rating: {verdict.rating} ({verdict.change:+d}); streak 1."
            )
            again = await report_try(link, offer.puzzle_id, right[:1] if len(right) > 1 else [])
            assert again is not None and not again.solved and not again.rated
            assert verdict_words(again) == (
                f"Not solved. A retry is not rated: your puzzle rating stays {verdict.rating}."
            )
            following = await fetch_puzzle(link, following=True)
            assert following is not None and following.puzzle_id != offer.puzzle_id
            assert following.player_rating == verdict.rating
            assert await report_try(link, "no-such-puzzle", right) is None
        finally:
            await link.close()
