"""The app in public (§7), through Pilot against a real server and raw clients.

Blocks and reports from the lobby's player list, a profile and a game; the list of
your blocks; a moderator's reports, bans and mutes; deleting the account, which
goes back to the menu; and a banned player's lobby, which says so and does not
log in again by itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey

from c4tui.server.core import C4Server
from c4tui.ui.app import C4App
from c4tui.ui.screens.ban import BanDialog
from c4tui.ui.screens.blocks import BlocksScreen
from c4tui.ui.screens.challenge import ChallengeDialog
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.delete_account import DeleteAccountDialog
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.mute import MuteDialog
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.screens.report import ReportDialog
from c4tui.ui.screens.reports import ReportsScreen
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.moderators import make_moderator, moderator_logged_in
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until

Lobby = tuple[C4Server, C4App, Pilot[None], LobbyClient]


@contextlib.asynccontextmanager
async def zoe_and_ann(tmp_path: Path, *, moderator: bool = False) -> AsyncIterator[Lobby]:
    """zoe's app in the lobby (a moderator if asked), ann online (a raw client)."""
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "zoe", "secret")).close()
        if moderator:
            await make_moderator(server, "zoe")
        ann = await logged_in(server.port, "ann")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, columns=4, rows=4)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            players = app.screen.query_one(PlayerTable)
            await until(pilot, lambda: players.row_count == 2)
            yield server, app, pilot, ann


@contextlib.asynccontextmanager
async def bob_reported_to_zoe(
    tmp_path: Path, reports: tuple[str, ...]
) -> AsyncIterator[tuple[LobbyClient, C4App, Pilot[None], LobbyScreen]]:
    """ann reported bob (``REASON:TEXT`` each); zoe's app, a moderator's, in the lobby: bob."""
    async with lobby_server(tmp_path) as server:
        bob = await logged_in(server.port, "bob")
        ann = await logged_in(server.port, "ann")
        for report in reports:
            assert await ann.ask(f"REPORT:bob:{report}") == "REPORT:ACKSTATUS:0"
        await (await logged_in(server.port, "zoe", "secret")).close()
        await make_moderator(server, "zoe")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: lobby.moderator)
            yield bob, app, pilot, lobby


async def a_moderator(server: C4Server) -> LobbyClient:
    """mod, a raw client logged in with the moderator's role."""
    return await moderator_logged_in(server)


def status(pilot: Pilot[None], selector: str = "#lobby-status") -> str:
    return text_of(pilot, selector)


def footer_keys(pilot: Pilot[None]) -> set[str]:
    """The footer's keys as shown: ``b Block``."""
    return {f"{key.key_display} {key.description}" for key in pilot.app.screen.query(FooterKey)}


async def reported(mod: LobbyClient) -> list[str]:
    """REPORTED lines, as a raw moderator reads them."""
    answer = await mod.ask("REPORTS")
    return [await mod.line() for _ in range(int(answer.rsplit(":", 1)[1]))]


async def into_anns_room(
    pilot: Pilot[None], ann: LobbyClient, game: str = "4:4:classic"
) -> OnlineGameScreen:
    """ann's room r1 (``game``) made, zoe's lobby refreshed and into it: the game has begun."""
    assert await ann.ask(f"CREATE:r1:{game}") == "CREATE:ACKSTATUS:0"
    await pilot.press("r")
    table = pilot.app.screen.query_one("#rooms", DataTable)
    await until(pilot, lambda: table.row_count == 1)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OnlineGameScreen)
    assert (await ann.line()).startswith("BEGIN")
    return screen


async def choose_player(pilot: Pilot[None], user: str) -> None:
    """The player list focused, its cursor on ``user``."""
    players = pilot.app.screen.query_one(PlayerTable)
    players.focus()
    await pilot.pause()
    while players.chosen != user:
        await pilot.press("down")


async def test_b_and_x_on_the_player_list_block_and_report(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, app, pilot, ann):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.check_action("reports", ()) is False  # zoe moderates nothing
        await choose_player(pilot, "ann")
        await until(pilot, lambda: {"b Block", "x Report"} <= footer_keys(pilot))
        await pilot.press("b")
        await until(pilot, lambda: "You block ann now" in status(pilot))
        assert (
            await ann.ask("CHALLENGE:zoe:4:4:classic:casual") == "CHALLENGE:ACKSTATUS:1"
        )  # kept by the server
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ReportDialog))
        await pilot.press("right", "right", "enter")  # name; on to the text
        await pilot.press(*"zoe's name, spelt rudely")
        await pilot.press("enter")
        await until(pilot, lambda: "You reported ann (name)" in status(pilot))
        assert app.screen is lobby
        mod = await a_moderator(server)
        (line,) = await reported(mod)
        assert line.startswith("REPORTED:1:zoe:ann:name:") and line.endswith(
            ":zoe's name, spelt rudely"
        )
        await choose_player(pilot, "zoe")
        await pilot.press("b")
        await until(pilot, lambda: "That is you" in status(pilot))


async def test_the_blocks_screen_lists_whom_you_block_and_unblocks(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, app, pilot, ann):
        lobby = app.screen
        await choose_player(pilot, "ann")
        await pilot.press("b")
        await until(pilot, lambda: "You block ann now" in status(pilot))
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BlocksScreen))
        screen = app.screen
        assert isinstance(screen, BlocksScreen)
        await until(pilot, lambda: screen.blocked == ["ann"])
        assert status(pilot, "#blocks-status") == "You block 1: ann."
        await pilot.press("u")
        await until(pilot, lambda: "You no longer block ann." in status(pilot, "#blocks-status"))
        await until(pilot, lambda: screen.query_one(DataTable).row_count == 0)
        assert screen.check_action("unblock", ()) is False
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        assert await ann.ask("CHALLENGE:zoe:4:4:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await until(pilot, lambda: isinstance(app.screen, ChallengeDialog))  # it reaches zoe


async def test_a_profile_blocks_unblocks_and_reports_its_player(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, app, pilot, _):
        await choose_player(pilot, "ann")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        profile = app.screen
        assert isinstance(profile, ProfileScreen)
        await until(pilot, lambda: profile.blocked is False and profile.info is not None)
        await until(pilot, lambda: {"b Block", "x Report"} <= footer_keys(pilot))
        assert not {"B Ban", "M Mute", "D Delete account"} & footer_keys(pilot)
        await pilot.press("b")
        await until(pilot, lambda: "You block ann: b unblocks." in text_of(pilot, "#profile"))
        assert "You block ann now" in status(pilot, "#games-status")
        await until(pilot, lambda: "b Unblock" in footer_keys(pilot))
        await pilot.press("b")
        await until(pilot, lambda: "You no longer block ann." in status(pilot, "#games-status"))
        await until(pilot, lambda: "You block" not in text_of(pilot, "#profile"))
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ReportDialog))
        await pilot.press("enter", "enter")  # chat, nothing more to say
        await until(pilot, lambda: "You reported ann (chat)" in status(pilot, "#games-status"))
        (line,) = await reported(await a_moderator(server))
        assert line.startswith("REPORTED:1:zoe:ann:chat:") and line.endswith("::")


async def test_a_moderator_bans_mutes_and_unbans_from_a_profile(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path, moderator=True) as (server, app, pilot, ann):
        await choose_player(pilot, "ann")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        profile = app.screen
        assert isinstance(profile, ProfileScreen)
        await until(pilot, lambda: {"B Ban", "M Mute", "U Unban"} <= footer_keys(pilot))
        assert profile.moderator
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MuteDialog))
        app.screen.query_one("#minutes", Input).value = "5"
        await pilot.press("enter")
        await until(pilot, lambda: "ann is muted for 5 minutes" in status(pilot, "#games-status"))
        assert await ann.ask("CREATE:a1:4:4:classic") == "CREATE:ACKSTATUS:0"
        await ann.send("CHAT:hello?")
        assert await ann.line() == "CHAT:ACKSTATUS:1"
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BanDialog))
        app.screen.query_one("#hours", Input).value = "1"
        app.screen.query_one("#reason", Input).value = "spam"
        app.screen.query_one("#reason", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: "ann is banned for 1 hour" in status(pilot, "#games-status"))
        while (line := await ann.line()) != "BYE:banned":
            assert not line.startswith("CHAT"), line
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:4"
        await pilot.press("U")
        await until(pilot, lambda: "ann is no longer banned." in status(pilot, "#games-status"))
        assert await again.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"


async def test_a_moderators_lobby_opens_the_reports_and_acts_on_them(tmp_path: Path) -> None:
    reports = ("chat:first: rude", "cheating:second")
    async with bob_reported_to_zoe(tmp_path, reports) as (bob, app, pilot, lobby):
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ReportsScreen))
        screen = app.screen
        assert isinstance(screen, ReportsScreen)
        await until(pilot, lambda: len(screen.reports) == 2)
        assert status(pilot, "#reports-status") == "2 open reports."
        details = lambda: text_of(pilot, "#report-details")  # noqa: E731
        assert details() == "1: ann reported bob for chat: “first: rude”"
        await pilot.press("down")
        await until(pilot, lambda: details().startswith("2: ann reported bob for cheating"))
        await pilot.press("up", "c")
        await until(pilot, lambda: "Report 1 is closed." in status(pilot, "#reports-status"))
        await until(pilot, lambda: list(screen.reports) == [2])
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MuteDialog))
        await pilot.press("enter")  # an hour
        await until(
            pilot, lambda: "bob is muted for 60 minutes" in status(pilot, "#reports-status")
        )
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BanDialog))
        assert app.screen.query_one("#reason", Input).value == "report 2 (cheating)"
        await pilot.press("enter", "enter")  # 24 hours, then the reason offered
        await until(pilot, lambda: "bob is banned for 24 hours" in status(pilot, "#reports-status"))
        while await bob.line() != "BYE:banned":  # its connection closes
            pass
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)


async def test_the_game_screen_blocks_and_reports_the_opponent(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, app, pilot, ann):
        screen = await into_anns_room(pilot, ann)
        names = [command.name for command in screen.palette_commands()]
        assert "Block ann" in names and "Report ann" in names and "Block zoe" not in names
        await pilot.press("B")
        notes = lambda: [note.message for note in app._notifications]  # noqa: E731
        await until(pilot, lambda: any("You block ann now" in note for note in notes()))
        await ann.send("CHAT:can you hear me?")  # blocked: it reaches nobody here
        await ann.send("DROP:1")  # the board comes after the chat would have
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        await pilot.pause()
        assert screen.chat_log.said == []
        await pilot.press("X")
        await until(pilot, lambda: isinstance(app.screen, ReportDialog))
        await pilot.press("right", "enter", *"too quick", "enter")
        await until(pilot, lambda: any("You reported ann (cheating)" in n for n in notes()))
        (line,) = await reported(await a_moderator(server))
        fields = line.split(":")
        assert fields[:5] == ["REPORTED", "1", "zoe", "ann", "cheating"] and fields[8]  # a game


async def test_deleting_the_account_asks_twice_then_goes_back_to_the_menu(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, app, pilot, _):
        await pilot.press("i")  # the rooms have the focus: our own profile
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        profile = app.screen
        await until(pilot, lambda: "D Delete account" in footer_keys(pilot))
        assert not {"b Block", "x Report"} & footer_keys(pilot)  # nobody blocks themselves
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, DeleteAccountDialog))
        dialog = app.screen
        field = dialog.query_one("#password", Input)
        field.value = "wrong"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: "Wrong password" in status(pilot, "#delete-status"))
        field.value = "secret"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("n")
        await until(pilot, lambda: "Not deleted" in status(pilot, "#delete-status"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert profile not in app.screen_stack
        said = [note.message for note in app._notifications]
        assert any(note.startswith("The account zoe is deleted") for note in said), said
        client = await LobbyClient.connect(server.port)
        assert await client.ask("LOGIN:zoe:secret") == "LOGIN:ACKSTATUS:1"
        assert await client.ask("REGISTER:zoe:secret") == "REGISTER:ACKSTATUS:1"


async def test_a_banned_lobby_says_so_and_does_not_log_in_again(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, app, pilot, _):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        banned = lobby.link
        mod = await a_moderator(server)
        assert await mod.ask("BAN:zoe:0:spam") == "BAN:ACKSTATUS:0"
        said = "A moderator banned this account: you cannot log in while the ban lasts."
        await until(pilot, lambda: said in status(pilot))
        assert "Esc goes back to the menu" in status(pilot)
        assert lobby.query_one(PlayerTable).row_count == 0  # no stale lists
        await pilot.press("r")  # asked again: still no login
        await pilot.pause(0.5)
        assert said in status(pilot) and not lobby.coming_back and lobby.link is banned
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_banned_mid_game_the_game_is_lost_and_the_screen_says_why(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (server, _, pilot, ann):
        screen = await into_anns_room(pilot, ann)
        mod = await a_moderator(server)
        assert await mod.ask("BAN:zoe:0:cheating") == "BAN:ACKSTATUS:0"
        while not (line := await ann.line()).startswith("GAMEEND"):
            pass
        assert line.endswith(":2:ann")  # forfeited to the opponent
        await until(pilot, lambda: "A moderator banned this account" in text_of(pilot, "#message"))
        await pilot.pause(0.5)
        assert not screen.coming_back and "reconnecting" not in text_of(pilot, "#message")
