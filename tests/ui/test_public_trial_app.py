"""What a newcomer's trial of the app in public (§7) found, through Pilot against a real server.

The game screen's words name its own keys (``b``'s best line never says "press a",
which aborts there; the palette offers no analysis it cannot give); the lists mark
whom you block; a profile says where Esc goes back to; a moderator watching a game
bans and mutes its players from it.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input

from c4tui.engine import Rules
from c4tui.ui.screens.ban import BanDialog
from c4tui.ui.screens.blocks import BlocksScreen
from c4tui.ui.screens.leaderboard import LeaderboardScreen
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.mute import MuteDialog
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.screens.reports import ReportsScreen
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import lobby_server
from tests.net.moderators import make_moderator
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import (
    ann_plays_bob,
    text_of,
    until,
    watching_the_room,
)
from tests.ui.test_public_app import (
    bob_reported_to_zoe,
    choose_player,
    footer_keys,
    into_anns_room,
    status,
    zoe_and_ann,
)


def cells(table: DataTable[object], key: str) -> str:
    """The row ``key`` of ``table`` as one line of words."""
    return " ".join(str(cell) for cell in table.get_row(key))


async def test_b_in_an_online_game_names_no_key_of_another_action(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, _, pilot, ann):
        screen = await into_anns_room(pilot, ann, "7:6:classic")
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        said = text_of(pilot, "#message")
        assert "press a" not in said and "No analysis in a game online" in said, said
        names = {command.name for command in screen.palette_commands()}
        hidden = {"Analysis on/off", "Hint", "Undo", "Redo", "New game", "Rematch"}
        assert not hidden & names, names  # a rematch only after the game
        assert screen.check_action("abort", ()) is not False  # a: still the abort


async def test_the_lobby_marks_whom_you_block_in_both_lists(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, app, pilot, ann):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.refresh_timer.pause()
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        players = lobby.query_one(PlayerTable)
        rooms = lobby.query_one("#rooms", DataTable)
        await pilot.press("r")
        await until(pilot, lambda: rooms.row_count == 1)
        assert "[blocked]" not in cells(players, "ann") + cells(rooms, "r1")
        await choose_player(pilot, "ann")
        await pilot.press("b")
        await until(pilot, lambda: "[blocked]" in cells(players, "ann"))
        assert "You block ann now" in status(pilot)  # the news stays over the refresh
        assert "[blocked]" in cells(rooms, "r1") and "[blocked]" not in cells(players, "zoe")
        assert "[blocked]" in text_of(pilot, "#lobby-help")  # the mark is explained
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BlocksScreen))
        blocks = app.screen
        assert isinstance(blocks, BlocksScreen)
        await until(pilot, lambda: blocks.blocked == ["ann"])
        await pilot.press("u")
        await until(pilot, lambda: blocks.query_one(DataTable).row_count == 0)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await until(pilot, lambda: "[blocked]" not in cells(players, "ann"))


async def test_b_on_a_player_you_block_unblocks_them(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, app, pilot, ann):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.refresh_timer.pause()
        players = lobby.query_one(PlayerTable)
        await choose_player(pilot, "ann")
        await pilot.press("b")
        await until(pilot, lambda: "[blocked]" in cells(players, "ann"))
        await until(pilot, lambda: "b Unblock" in footer_keys(pilot))
        assert "b Block" not in footer_keys(pilot)
        await pilot.press("b")
        await until(pilot, lambda: "You no longer block ann." in status(pilot))
        await until(pilot, lambda: "[blocked]" not in cells(players, "ann"))
        await until(pilot, lambda: "b Block" in footer_keys(pilot))
        assert await ann.ask("CHALLENGE:zoe:4:4:classic:casual") == "CHALLENGE:ACKSTATUS:0"


async def test_a_game_knows_whom_you_block_and_unblocks_them(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, app, pilot, ann):
        screen = await into_anns_room(pilot, ann)
        names = lambda: {command.name: command for command in screen.palette_commands()}  # noqa: E731
        await until(pilot, lambda: "Block ann" in names())
        notes = lambda: [note.message for note in app._notifications]  # noqa: E731
        await pilot.press("B")
        await until(pilot, lambda: any("You block ann now" in n for n in notes()))
        await until(pilot, lambda: "Unblock ann" in names())
        assert "Block ann" not in names()
        await pilot.press("B")  # B on an opponent you block: unblocks, as b in the lobby
        await until(pilot, lambda: any("You no longer block ann." in n for n in notes()))
        await until(pilot, lambda: "Block ann" in names())
        await ann.send("CHAT:now you hear me")
        await until(pilot, lambda: ("ann", "now you hear me") in screen.chat_log.said)
        app.call_next(names()["Block ann"].run)  # as the palette runs it
        await until(pilot, lambda: "Unblock ann" in names())


async def test_a_profile_says_it_goes_back_to_where_it_was_opened(tmp_path: Path) -> None:
    async with bob_reported_to_zoe(tmp_path, ("chat:rude",)) as (_, app, pilot, lobby):
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert "Esc goes back to the lobby." in text_of(pilot, "#games-help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await until(pilot, lambda: lobby.moderator)
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ReportsScreen))
        reports = app.screen
        assert isinstance(reports, ReportsScreen)
        await until(pilot, lambda: len(reports.reports) == 1)
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        help_text = text_of(pilot, "#games-help")
        assert "Esc goes back to the reports." in help_text and "lobby" not in help_text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is reports)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        leaders = app.screen
        assert isinstance(leaders, LeaderboardScreen)
        app.call_next(leaders.show_profile, "bob")  # Enter on a row (no ratings yet)
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert "Esc goes back to the leaderboard." in text_of(pilot, "#games-help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is leaders)


async def test_a_moderator_watching_a_game_bans_and_mutes_its_players(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await ann_plays_bob(server.port, "7:6:classic")
        await make_moderator(server, "zoe")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, rules=Rules.CLASSIC)
        async with app.run_test(size=SIZE) as pilot:
            screen = await watching_the_room(pilot)
            await until(pilot, lambda: screen.moderator)
            commands = {command.name: command for command in screen.palette_commands()}
            assert {"Ban ann", "Mute ann", "Ban bob", "Mute bob", "Profile of bob"} <= set(commands)
            assert "Rematch" not in commands  # a viewer has nobody to ask
            app.call_next(commands["Mute bob"].run)  # as the palette runs it
            await until(pilot, lambda: isinstance(app.screen, MuteDialog))
            await pilot.press("enter")  # an hour
            notes = lambda: [note.message for note in app._notifications]  # noqa: E731
            await until(pilot, lambda: any("bob is muted for 60 minutes" in n for n in notes()))
            await bob.send("CHAT:hello?")
            while (line := await bob.line()) != "CHAT:ACKSTATUS:1":
                assert not line.startswith("CHAT:bob"), line
            app.call_next(commands["Ban ann"].run)  # as the palette runs it
            await until(pilot, lambda: isinstance(app.screen, BanDialog))
            app.screen.query_one("#reason", Input).value = "cheating"
            app.screen.query_one("#reason", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: any("ann is banned for 24 hours" in n for n in notes()))
            while await ann.line() != "BYE:banned":
                pass
            app.call_next(commands["Profile of bob"].run)  # as the palette runs it
            await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
            profile = app.screen
            assert isinstance(profile, ProfileScreen)
            assert "Esc goes back to the game." in text_of(pilot, "#games-help")
            await until(pilot, lambda: profile.moderator)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen)


async def test_a_player_who_moderates_nothing_has_no_ban_in_the_game(tmp_path: Path) -> None:
    async with zoe_and_ann(tmp_path) as (_, _, pilot, ann):
        screen = await into_anns_room(pilot, ann)
        await pilot.pause(0.3)  # time to learn the role, were it asked
        names = {command.name for command in screen.palette_commands()}
        assert "Profile of ann" in names and not {"Ban ann", "Mute ann"} & names, names
        assert not screen.moderator


async def test_enter_on_a_room_of_one_you_block_says_why_not_no_such_room(tmp_path: Path) -> None:
    """§7 answers the blocker's JOIN as for no such room; the lobby shows the room, marked,
    so it says why it cannot be played instead (and the blocked one is never told)."""
    async with zoe_and_ann(tmp_path) as (_, app, pilot, ann):
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.refresh_timer.pause()
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        rooms = lobby.query_one("#rooms", DataTable)
        await choose_player(pilot, "ann")
        await pilot.press("b")
        await until(pilot, lambda: "[blocked]" in cells(rooms, "r1"))
        rooms.focus()
        await pilot.press("enter")
        await until(pilot, lambda: "You block ann: unblock them to play them." in status(pilot))
        assert isinstance(app.screen, LobbyScreen)
