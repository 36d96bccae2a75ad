"""What the lobby's store keeps of §7, on SQLite and PostgreSQL: blocks, reports, roles,
bans and mutes, the moderators' log and the change feed (deletion and export:
``test_public_store_erasure.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import pytest

from c4tui.engine import Rules
from c4tui.lobby.journal import EndReason
from c4tui.protocols.public import MAX_BLOCKS, REPORTS_PER_HOUR, ReportReason
from c4tui.server.moderation_store import EventKind, ModerationEvent, Sanctions
from c4tui.server.store import LobbyStore, LoginResult
from tests.net.stores import run_sql, store_at

BOARD = (7, 6, Rules.CLASSIC)
#: A report's time (epoch seconds): 2026-12-02T10:00:00Z.
REPORTED_AT = 1_796_205_600.0
HOUR = 3600


@contextlib.asynccontextmanager
async def opened(db: str, *users: str) -> AsyncIterator[LobbyStore]:
    """The store of ``db``, open, with an account (password ``pw``) for each of ``users``."""
    store = store_at(db)
    await store.open()
    try:
        for user in users:
            assert await store.register(user, "pw")
        yield store
    finally:
        await store.close()


# ----- blocks ----------------------------------------------------------------------


async def test_blocks_are_kept_and_told_both_ways(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "cid") as store:
        assert await store.block("ann", "bob") == 0
        assert await store.block("ann", "bob") == 0  # again: already, still done
        assert await store.block("ann", "cid") == 0
        assert await store.block("cid", "ann") == 0
        assert await store.block("ann", "ann") == 1  # oneself
        assert await store.block("ann", "nobody") == 1
        assert await store.block("ann", "Bob") == 1  # names are exact on the wire
        assert await store.blocks_of("ann") == ["bob", "cid"]
        assert await store.unblock("ann", "cid")
        assert not await store.unblock("ann", "cid")
    async with opened(lobby_db) as store:  # kept on disk
        assert await store.all_blocks() == [("ann", "bob"), ("cid", "ann")]
        assert await store.blocks_of("bob") == []


async def test_no_more_than_max_blocks(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "last") as store:
        others = [f"u{number}" for number in range(MAX_BLOCKS)]
        run_sql(  # the accounts, without bcrypt's cost
            lobby_db,
            "INSERT INTO accounts (name, folded, hash, created) VALUES (?, ?, ?, 0)",
            [(name, name, b"x") for name in others],
        )
        statuses = await asyncio.gather(*(store.block("ann", name) for name in others))
        assert set(statuses) == {0}
        assert await store.block("ann", "last") == 2
        assert await store.block("ann", others[0]) == 0  # one already blocked stays so
        assert len(await store.blocks_of("ann")) == MAX_BLOCKS
        assert await store.unblock("ann", others[0])
        assert await store.block("ann", "last") == 0


# ----- reports ---------------------------------------------------------------------


async def test_a_report_keeps_the_last_game_between_the_two_in_either_colour(
    lobby_db: str,
) -> None:
    async with opened(lobby_db, "ann", "bob", "cid") as store:
        first = await store.game_started("r1", "ann", "bob", BOARD)
        await store.game_ended(first, "ann", EndReason.FOUR)
        last = await store.game_started("r2", "bob", "ann", BOARD)  # ann is yellow now
        await store.game_started("r3", "ann", "cid", BOARD)  # another's, later
        assert await store.report("ann", "bob", ReportReason.CHEATING, "a: b", REPORTED_AT) == 0
        assert await store.report("bob", "cid", ReportReason.NAME, "", REPORTED_AT + 1) == 0
        assert await store.report("ann", "ann", ReportReason.OTHER, "me", REPORTED_AT) == 1
        assert await store.report("ann", "nobody", ReportReason.OTHER, "x", REPORTED_AT) == 1
        reports = await store.open_reports(50)
    assert [(r.reporter, r.reported, r.game) for r in reports] == [
        ("ann", "bob", last),
        ("bob", "cid", None),  # never played each other
    ]
    assert reports[0].when == "2026-12-02T10:00:00Z"
    assert (reports[0].reason, reports[0].text) == (ReportReason.CHEATING, "a: b")
    assert reports[1].when == "2026-12-02T10:00:01Z"


async def test_the_eleventh_report_in_an_hour_is_refused(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "cid") as store:
        for minute in range(REPORTS_PER_HOUR):
            when = REPORTED_AT + minute * 60
            assert await store.report("ann", "bob", ReportReason.CHAT, "x", when) == 0
        assert await store.report("ann", "cid", ReportReason.CHAT, "x", REPORTED_AT + 900) == 3
        assert await store.report("cid", "ann", ReportReason.CHAT, "x", REPORTED_AT + 900) == 0
        # An hour after the first, one more fits; then the hour is full again.
        assert await store.report("ann", "cid", ReportReason.CHAT, "x", REPORTED_AT + HOUR) == 0
        late = REPORTED_AT + HOUR + 1
        assert await store.report("ann", "cid", ReportReason.CHAT, "x", late) == 3
        assert len(await store.open_reports(100)) == REPORTS_PER_HOUR + 2


async def test_open_reports_oldest_first_and_closed_once(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "mod") as store:
        for number in range(5):
            reporter, reported = ("ann", "bob") if number % 2 else ("bob", "ann")
            assert await store.report(reporter, reported, ReportReason.OTHER, str(number), 1) == 0
        listed = await store.open_reports(3)
        assert [report.text for report in listed] == ["0", "1", "2"]
        assert await store.close_report(listed[1].number, "mod")
        assert not await store.close_report(listed[1].number, "mod")  # no longer open
        assert not await store.close_report(999, "mod")
        assert [report.text for report in await store.open_reports(50)] == ["0", "2", "3", "4"]
        [action] = await store.moderator_actions(10)
    assert (action.moderator, action.action, action.target) == ("mod", "close-report", "bob")
    assert action.reason == str(listed[1].number)


# ----- roles and sanctions ---------------------------------------------------------


async def test_a_role_is_kept_and_profile_carries_it(lobby_db: str) -> None:
    async with opened(lobby_db, "ann") as store:
        assert await store.role("ann") == "player"
        assert await store.role("nobody") is None
        assert await store.set_role("ann", "moderator", "admin:root")
        assert not await store.set_role("nobody", "moderator", "admin:root")
        with pytest.raises(ValueError, match="admin"):
            await store.set_role("ann", "admin", "admin:root")
    async with opened(lobby_db) as store:
        assert await store.role("ann") == "moderator"
        profile = await store.profile("ann")
        assert profile is not None and profile.role == "moderator"
        assert await store.set_role("ann", "player", "admin:root")
        profile = await store.profile("ann")
        assert profile is not None and profile.role == "player"


async def test_a_ban_answers_banned_only_to_the_right_password(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "mod") as store:
        assert await store.ban("ann", None, "cheating", "mod")
        assert await store.check("ann", "pw") is LoginResult.BANNED
        assert await store.check("ann", "guess") is LoginResult.WRONG_PASSWORD
        assert await store.check("nobody", "pw") is LoginResult.NO_SUCH_USER
        assert await store.sanctions("ann") == Sanctions(True, None, "cheating", None)
        assert not await store.ban("nobody", None, "x", "mod")
    async with opened(lobby_db) as store:  # kept on disk
        assert await store.check("ann", "pw") is LoginResult.BANNED
        assert await store.unban("ann", "mod")
        assert not await store.unban("ann", "mod")  # not banned any more
        assert await store.check("ann", "pw") is LoginResult.OK
        assert await store.sanctions("ann") == Sanctions(False, None, "", None)
        assert await store.sanctions("nobody") is None


async def test_a_ban_that_has_ended_is_as_none(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "mod") as store:
        later = time.time() + HOUR
        assert await store.ban("ann", later, "an hour", "mod")
        assert await store.sanctions("ann") == Sanctions(True, later, "an hour", None)
        assert await store.ban("bob", time.time() - 1, "over", "mod")
        assert await store.check("bob", "pw") is LoginResult.OK
        assert await store.sanctions("bob") == Sanctions(False, None, "", None)
        assert not await store.unban("bob", "mod")  # nothing holds to lift


async def test_a_mute_holds_until_its_end(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "mod") as store:
        until = time.time() + 600
        assert await store.mute("ann", until, "mod")
        assert await store.mute("bob", time.time() - 1, "mod")  # over at once
        assert not await store.mute("nobody", until, "mod")
        assert await store.sanctions("ann") == Sanctions(False, None, "", until)
        assert await store.sanctions("bob") == Sanctions(False, None, "", None)
        assert await store.check("ann", "pw") is LoginResult.OK  # muted, not banned


async def test_both_leaderboards_leave_out_the_banned_while_banned(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "cid", "dan", "mod") as store:
        run_sql(
            lobby_db,
            "UPDATE accounts SET rating = ?, deviation = ?, rated_games = 5 WHERE name = ?",
            [
                (1900.0, 60.0, "ann"),
                (1800.0, 60.0, "bob"),
                (1700.0, 200.0, "cid"),
                (1600.0, 200.0, "dan"),
            ],
        )
        assert [name for name, _ in await store.leaderboard()] == ["ann", "bob"]
        assert [name for name, _ in await store.provisional_leaders()] == ["cid", "dan"]
        assert await store.ban("ann", None, "", "mod")
        assert await store.ban("cid", time.time() + HOUR, "", "mod")
        assert await store.ban("dan", time.time() - 1, "", "mod")  # over: listed
        assert [name for name, _ in await store.leaderboard()] == ["bob"]
        assert [name for name, _ in await store.provisional_leaders()] == ["dan"]
        assert await store.unban("ann", "mod")
        assert [name for name, _ in await store.leaderboard()] == ["ann", "bob"]


# ----- the moderators' log and the change feed -------------------------------------


async def test_every_act_is_in_the_log_and_the_feed_in_order(lobby_db: str) -> None:
    async with opened(lobby_db, "ann", "bob", "mod") as store:
        assert await store.last_event() == 0
        assert await store.events_after(0) == []
        assert await store.set_role("mod", "moderator", "admin:root")
        assert await store.ban("ann", time.time() + HOUR, "spam", "mod")
        assert not await store.unban("bob", "mod")  # nothing done: nothing kept
        assert await store.unban("ann", "mod")
        assert await store.mute("bob", time.time() + 60, "mod")
        assert await store.block("ann", "bob") == 0  # no moderator's act: in the feed only
        assert await store.block("ann", "bob") == 0  # nothing changed: nothing said
        assert await store.delete_account("bob", "admin:root")
        events = await store.events_after(0)
        actions = await store.moderator_actions(10)
        assert await store.last_event() == events[-1].number
        assert await store.events_after(events[1].number) == events[2:]
        assert await store.events_after(events[-1].number) == []
    assert [(event.kind, event.user) for event in events] == [
        (EventKind.ROLE, "mod"),
        (EventKind.BAN, "ann"),
        (EventKind.UNBAN, "ann"),
        (EventKind.MUTE, "deleted-1"),  # the deleted account's stand-in
        (EventKind.BLOCKS, "ann"),  # every node's rooms hold ann's blocks again
        (EventKind.DELETE, "bob"),  # the servers must find bob's connections
    ]
    assert [event.number for event in events] == [1, 2, 3, 4, 5, 6]
    assert events[0].kind == "role"  # a str, for whoever compares with the word
    assert [(a.moderator, a.action, a.target) for a in actions] == [  # newest first
        ("admin:root", "delete", "deleted-1"),
        ("mod", "mute", "deleted-1"),
        ("mod", "unban", "ann"),
        ("mod", "ban", "ann"),
        ("admin:root", "role", "mod"),
    ]
    assert actions[3].reason == "spam" and actions[3].until is not None
    assert actions[4].reason == "moderator" and actions[4].until is None
    assert actions[0].when.endswith("Z")


async def test_the_feed_counts_in_commit_order_from_two_stores_at_once(lobby_db: str) -> None:
    """Two writers at once (a server and ``c4tui admin``): every number once, none skipped."""
    async with opened(lobby_db, "ann", "bob") as first:
        second = store_at(lobby_db, exclusive=False)
        await second.open()
        try:
            acts = [
                store.mute(user, time.time() + 60, "mod")
                for _ in range(10)
                for store, user in ((first, "ann"), (second, "bob"))
            ]
            assert all(await asyncio.gather(*acts))
            seen: list[ModerationEvent] = []
            while batch := await second.events_after(seen[-1].number if seen else 0):
                seen.extend(batch)
        finally:
            await second.close()
    assert [event.number for event in seen] == list(range(1, 21))
    assert sorted(event.user for event in seen) == ["ann"] * 10 + ["bob"] * 10


async def test_what_people_type_is_kept_as_typed_never_run(lobby_db: str) -> None:
    """A report's text and a ban's reason that read as SQL are kept as words, nothing more."""
    hostile = "x'); DELETE FROM accounts; -- ünï ?%s"
    async with opened(lobby_db, "ann", "bob") as store:
        assert await store.report("ann", "bob", ReportReason.OTHER, hostile, REPORTED_AT) == 0
        assert await store.ban("bob", None, hostile, "ann")
        [report] = await store.open_reports(5)
        [action, *_] = await store.moderator_actions(5)
        assert await store.check("ann", "pw") is LoginResult.OK  # every account still there
        sanctions = await store.sanctions("bob")
    assert report.text == hostile and action.reason == hostile
    assert sanctions is not None and sanctions.ban_reason == hostile
