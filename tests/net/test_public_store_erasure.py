"""An account deleted or exported (§7), reserved names, and a database of the schema before
§7 upgraded, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json

import bcrypt
import pytest

from c4tui.engine import Rules
from c4tui.lobby.journal import EndReason, GameBegan, GameFinished
from c4tui.protocols.public import ReportReason, reserved_name
from c4tui.server import postgres_store, sqlite_store
from c4tui.server.sql_erasure import ERASED_NAMES_MIGRATION
from c4tui.server.store import LoginResult, password_digest
from c4tui.server.stores import is_postgres
from tests.net.lobby_client import TEST_ROUNDS
from tests.net.stores import database_at_version, run_sql, store_at
from tests.net.test_public_store import BOARD, REPORTED_AT, opened


async def test_a_deleted_account_leaves_its_games_readable_under_a_stand_in(
    lobby_db: str,
) -> None:
    async with opened(lobby_db, "ann", "bob", "cid") as store:
        won = await store.game_started("r1", "bob", "ann", BOARD)
        await store.game_ended(won, "bob", EndReason.FOUR)
        lost = await store.game_started("r2", "ann", "bob", BOARD)
        await store.game_ended(lost, "ann", EndReason.FORFEIT)
        await store.game_started("r3", "ann", "cid", BOARD)  # not bob's
        assert await store.report("bob", "ann", ReportReason.CHAT, "rude", REPORTED_AT) == 0
        assert await store.report("cid", "bob", ReportReason.NAME, "", REPORTED_AT) == 0
        assert await store.block("bob", "ann") == 0
        assert await store.block("cid", "bob") == 0
        assert await store.block("ann", "cid") == 0
        assert await store.set_role("bob", "moderator", "admin:root")
        assert await store.mute("ann", REPORTED_AT, "bob")

        assert await store.delete_account("bob", "bob")  # by itself
        assert not await store.delete_account("bob", "bob")  # gone
        assert await store.delete_account("cid", "admin:root")
    async with opened(lobby_db) as store:  # kept on disk
        first, second = await store.game(won), await store.game(lost)
        assert first is not None and second is not None
        assert (first.red, first.yellow, first.winner) == ("deleted-1", "ann", "deleted-1")
        assert (second.red, second.yellow, second.winner) == ("ann", "deleted-1", "ann")
        assert await store.history("ann") == [lost, won]  # ann's games stay hers
        assert await store.history("bob") is None
        assert await store.check("bob", "pw") is LoginResult.NO_SUCH_USER
        assert await store.profile("bob") is None and await store.sanctions("bob") is None
        assert await store.export("bob") is None
        reports = await store.open_reports(50)
        assert [(r.reporter, r.reported) for r in reports] == [
            ("deleted-1", "ann"),
            ("deleted-2", "deleted-1"),
        ]
        assert await store.all_blocks() == []  # each had one of them at an end
        actions = await store.moderator_actions(10)
    assert free_of(actions, "bob", "cid")
    assert (actions[1].moderator, actions[1].target, actions[1].reason) == (
        "deleted-1",
        "deleted-1",
        "by itself",
    )


async def test_a_player_deleted_before_its_server_knows_never_comes_back_into_the_records(
    lobby_db: str,
) -> None:
    """``c4tui admin delete`` while the player still plays: the servers act only seconds later."""
    async with opened(lobby_db, "ann", "bob") as store:
        playing = await store.game_started("r1", "bob", "ann", BOARD)
        assert await store.delete_account("bob", "admin:root")
        await store.game_ended(playing, "bob", EndReason.FOUR)  # bob won meanwhile
        await store.keep(
            [
                GameBegan("r2", "ann", "bob", BOARD),  # and began another
                GameFinished("r2", "bob", EndReason.FORFEIT),
            ]
        )
        assert await store.block("bob", "ann") == 1  # nor blocks, nor reports
        assert await store.report("bob", "ann", ReportReason.CHAT, "x", REPORTED_AT) == 1
        first, second = await store.game(playing), await store.game(playing + 1)
        profile = await store.profile("ann")
        assert await store.all_blocks() == [] and await store.open_reports(5) == []
    assert first is not None and second is not None
    assert (first.red, first.yellow, first.winner) == ("deleted-1", "ann", "deleted-1")
    assert (second.red, second.yellow, second.winner) == ("ann", "deleted-1", "deleted-1")
    assert profile is not None and (profile.wins, profile.losses) == (0, 2)  # ann lost both


async def test_a_name_differing_in_case_from_before_the_rule_stays_its_own(lobby_db: str) -> None:
    """``Bob`` (registered beside ``bob`` before §5.6) is not ``bob``'s stand-in once bob goes."""
    async with opened(lobby_db, "ann", "bob") as store:
        assert await store.delete_account("bob", "admin:root")
        run_sql(  # an account from before folded names: none of its own
            lobby_db,
            "INSERT INTO accounts (name, folded, hash, created) VALUES (?, NULL, ?, 0)",
            [("Bob", b"x")],
        )
        number = await store.game_started("r", "Bob", "ann", BOARD)
        await store.game_ended(number, "Bob", EndReason.FOUR)
        game = await store.game(number)
        assert await store.block("Bob", "ann") == 0
    assert game is not None and (game.red, game.winner) == ("Bob", "Bob")


async def test_two_deletions_at_once_delete_once(lobby_db: str) -> None:
    """A server's DELETEACCOUNT and ``c4tui admin delete`` together: one deletion, one stand-in."""
    async with opened(lobby_db, "bob", "cid") as first:
        second = store_at(lobby_db, exclusive=False)
        await second.open()
        try:
            done = await asyncio.gather(
                *(
                    store.delete_account("bob", by)
                    for store, by in ((first, "bob"), (second, "mod"))
                )
            )
            assert await first.delete_account("cid", "mod")
            events = await second.events_after(0)
        finally:
            await second.close()
    assert sorted(done) == [False, True]
    assert [(event.kind, event.user) for event in events] == [("delete", "bob"), ("delete", "cid")]
    async with opened(lobby_db) as store:
        actions = await store.moderator_actions(5)
    assert sorted(action.target for action in actions) == ["deleted-1", "deleted-2"]  # bob, cid


def free_of(kept: object, *names: str) -> bool:
    """Whether no deleted account's name is left in ``kept`` (as its words read)."""
    words = repr(kept).replace("'", " ").replace('"', " ").split()
    return not any(name in words for name in names)


async def test_blocks_go_both_ways_with_the_account(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "cid") as store:
        for blocker, blocked in (("bob", "ann"), ("cid", "bob"), ("ann", "cid")):
            assert await store.block(blocker, blocked) == 0
        assert await store.delete_account("bob", "admin:root")
        assert await store.all_blocks() == [("ann", "cid")]
        assert await store.block("ann", "deleted-1") == 1  # a stand-in is no account


@pytest.mark.parametrize("again", ["bob", "BOB", "Bob", "bOb"])
async def test_a_deleted_name_is_never_registered_again_in_any_case(
    lobby_db: str, again: str
) -> None:
    async with opened(lobby_db, "bob") as store:
        assert await store.delete_account("bob", "bob")
        assert not await store.register(again, "new")
        assert not await store.register(again, "new", bot=True)
    async with opened(lobby_db) as store:  # reserved for good
        assert not await store.register(again, "new")
        assert await store.check(again, "new") is LoginResult.NO_SUCH_USER
        assert await store.register("bobby", "new")


@pytest.mark.parametrize(
    "name", ["deleted-1", "Deleted-7", "DELETED-0042", "ackstatus", "ACKSTATUS", "AckStatus"]
)
async def test_a_reserved_name_cannot_be_registered(lobby_db: str, name: str) -> None:
    assert reserved_name(name)
    async with opened(lobby_db) as store:
        assert not await store.register(name, "pw")
        assert await store.check(name, "pw") is LoginResult.NO_SUCH_USER


@pytest.mark.parametrize("name", ["deleted", "deleted-", "deleted-1a", "deleted1", "ackstatus2"])
def test_names_like_the_reserved_ones_are_not(name: str) -> None:
    assert not reserved_name(name)


async def test_a_stand_in_never_names_an_account_from_before_the_rule(lobby_db: str) -> None:
    """An older c4tui let ``deleted-1`` be registered: the stand-ins pass its number over."""
    async with opened(lobby_db, "bob") as store:
        run_sql(
            lobby_db,
            "INSERT INTO accounts (name, folded, hash, created) VALUES (?, ?, ?, 0)",
            [("Deleted-1", "deleted-1", b"x")],
        )
        number = await store.game_started("r", "bob", "Deleted-1", BOARD)
        assert await store.delete_account("bob", "admin:root")
        game = await store.game(number)
    assert game is not None and (game.red, game.yellow) == ("deleted-2", "Deleted-1")


async def test_export_holds_everything_kept_and_never_the_hash(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "mod") as store:
        number = await store.game_started("r", "ann", "bob", BOARD)
        await store.game_ended(number, "ann", EndReason.FOUR)
        assert await store.block("ann", "bob") == 0
        assert await store.block("bob", "ann") == 0  # bob's, not ann's
        assert await store.report("ann", "bob", ReportReason.CHAT, "spam", REPORTED_AT) == 0
        assert await store.report("bob", "ann", ReportReason.OTHER, "back", REPORTED_AT) == 0
        assert await store.set_role("ann", "moderator", "admin:root")
        assert await store.ban("ann", None, "for a test", "mod")
        assert await store.mute("bob", REPORTED_AT + 60, "ann")
        exported = await store.export("ann")
        assert await store.export("nobody") is None
    assert exported is not None
    text = json.dumps(exported)  # JSON's values only
    kept_hash = _hash_of(lobby_db, "ann")
    assert "hash" not in text and kept_hash not in text and kept_hash[7:] not in text
    assert exported["name"] == "ann" and exported["role"] == "moderator"
    assert str(exported["created"]).endswith("Z") and exported["bot"] is False
    assert exported["standing"] == {
        **{"rating": pytest.approx(1500, abs=400), "deviation": pytest.approx(300, abs=60)},
        **{"volatility": pytest.approx(0.06, abs=0.01), "rated_games": 0},
        **{"games": 1, "wins": 1, "draws": 0, "losses": 0},
    }
    assert exported["sanctions"] == {
        "banned": True,
        "banned_until": None,
        "ban_reason": "for a test",
        "muted_until": None,
    }
    assert [block["user"] for block in exported["blocks"]] == ["bob"]  # type: ignore[attr-defined]
    [made] = exported["reports_made"]  # type: ignore[misc]
    assert (made["user"], made["text"], made["game"], made["open"]) == ("bob", "spam", number, True)
    [received] = exported["reports_received"]  # type: ignore[misc]
    assert received["text"] == "back" and "user" not in received  # the reporter stays unsaid
    assert exported["games_played"] == [number]
    on_it = exported["moderator_actions_on_it"]
    assert [(a["moderator"], a["action"]) for a in on_it] == [  # type: ignore[attr-defined]
        ("admin:root", "role"),
        ("mod", "ban"),
    ]
    [by_it] = exported["moderator_actions_by_it"]  # type: ignore[misc]
    assert (by_it["action"], by_it["target"]) == ("mute", "bob")


def _hash_of(db: str, user: str) -> str:
    """``user``'s bcrypt hash as kept, read behind the store's back."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as connection:
            row = connection.execute(
                "SELECT hash FROM accounts WHERE name = %s", (user,)
            ).fetchone()
    else:
        import sqlite3

        with sqlite3.connect(db) as connection:
            row = connection.execute("SELECT hash FROM accounts WHERE name = ?", (user,)).fetchone()
    assert row is not None
    return bytes(row[0]).decode("ascii")


async def test_a_database_of_the_schema_before_public_is_upgraded(lobby_db: str) -> None:
    engine = postgres_store if is_postgres(lobby_db) else sqlite_store
    database_at_version(lobby_db, engine.MIGRATIONS.index(ERASED_NAMES_MIGRATION) - 1)
    hashed = bcrypt.hashpw(password_digest("pw"), bcrypt.gensalt(TEST_ROUNDS))
    run_sql(
        lobby_db,
        "INSERT INTO accounts (name, folded, hash, created, rating, deviation, rated_games)"
        " VALUES (?, ?, ?, 0, ?, 60, 3)",
        [("ann", "ann", hashed, 1700.0), ("bob", "bob", hashed, 1600.0)],
    )
    run_sql(
        lobby_db,
        'INSERT INTO games (room, red, yellow, "columns", "rows", rules, started, ended, winner,'
        " reason) VALUES ('r', 'ann', 'bob', 7, 6, ?, 'then', 'later', 'ann', 'four')",
        [(Rules.CLASSIC.value,)],
    )
    async with opened(lobby_db) as store:
        assert await store.check("ann", "pw") is LoginResult.OK
        assert await store.role("ann") == "player"
        profile = await store.profile("ann")
        assert profile is not None and profile.role == "player" and profile.rating == 1700
        assert await store.sanctions("ann") == await store.sanctions("bob")
        assert [name for name, _ in await store.leaderboard()] == ["ann", "bob"]
        assert await store.last_event() == 0 and await store.open_reports(5) == []
        assert await store.report("ann", "bob", ReportReason.CHEATING, "x", REPORTED_AT) == 0
        [report] = await store.open_reports(5)
        assert report.game is not None
        assert await store.ban("bob", None, "", "admin:root")
        assert [name for name, _ in await store.leaderboard()] == ["ann"]
        assert await store.delete_account("ann", "admin:root")
        game = await store.game(report.game)
        assert game is not None and game.winner == "deleted-1"
    reopened = store_at(lobby_db)  # a second open changes nothing
    await reopened.open()
    try:
        assert await reopened.last_event() == 2
    finally:
        await reopened.close()
